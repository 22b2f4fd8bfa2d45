/**
 * `node tests/bench/cold-profile.ts [function…]` (default: assets): where a function's cold import spends
 * its time. Bundles the function unminified (one source line per output line), imports it cold in fresh
 * processes under V8's CPU profiler, and adds up the samples taken while the bundle's code was on the stack
 * by the source file of the line running: our own modules, bundled packages, the AWS SDK (loaded at run
 * time), Node's module loader. BENCH_PROFILE_RUNS sets the number of cold imports profiled (default 10).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleFunctionsAsync, REPO_ROOT } from '../../infra/build/bundle-functions.ts';
import type { FunctionName } from '../../shared/system/functions.ts';

const RUNS = Number(process.env.BENCH_PROFILE_RUNS ?? 10);
const INTERVAL_US = 100;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
  positionTicks?: { line: number; ticks: number }[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A source path as people know it: our own file, or the package it belongs to. */
function owner(source: string): string {
  const path = source.startsWith('file:') ? new URL(source).pathname : source;
  const rel = relative(REPO_ROOT, path.startsWith('/') ? path : join(REPO_ROOT, '.build', 'x', path));
  const at = rel.lastIndexOf('node_modules/');
  if (at < 0) return rel;
  const parts = rel.slice(at + 'node_modules/'.length).split('/');
  return `package ${parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]}`;
}

/** The source file of a generated line (0-based), or of the nearest mapped position before it. */
function sourceAt(map: SourceMap, line: number, column: number): string {
  const entry = map.findEntry(line, column);
  return 'originalSource' in entry ? owner(entry.originalSource) : 'unmapped';
}

function profileOnce(outfile: string, dir: string): { ms: number; profile: Profile } {
  const url = JSON.stringify(pathToFileURL(outfile).href);
  const out = spawnSync(
    process.execPath,
    [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      `--cpu-prof-interval=${INTERVAL_US}`,
      '--input-type=module',
      '-e',
      `const t = performance.now(); await import(${url}); process.stdout.write(String(performance.now() - t));`,
    ],
    { cwd: REPO_ROOT, env: { ...process.env, AWS_REGION: 'eu-west-2' }, encoding: 'utf8' },
  );
  if (out.status !== 0) throw new Error(`import of ${outfile} failed: ${out.stderr}`);
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  rmSync(join(dir, file));
  return { ms: Number(out.stdout), profile };
}

function attribute(profile: Profile, bundleUrl: string, map: SourceMap, into: Map<string, number>): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const underBundle = new Map<number, boolean>();
  const isUnder = (id: number): boolean => {
    const known = underBundle.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id);
    const up = parent.get(id);
    const result = node?.callFrame.url === bundleUrl || (up !== undefined && isUnder(up));
    underBundle.set(id, result);
    return result;
  };
  const add = (key: string, us: number) => into.set(key, (into.get(key) ?? 0) + us);
  // Self time per node, then split over its lines where V8 recorded them.
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node || !isUnder(id)) continue;
    const { url, functionName } = node.callFrame;
    if (url !== bundleUrl) {
      add(
        url.startsWith('node:') || url === ''
          ? `node ${functionName || '(anonymous)'}`
          : url.includes('node_modules')
            ? `${owner(url)} (loaded at run time)`
            : url,
        us,
      );
      continue;
    }
    const lines = node.positionTicks ?? [];
    const total = lines.reduce((sum, l) => sum + l.ticks, 0);
    if (total === 0) {
      add(sourceAt(map, node.callFrame.lineNumber, 0), us);
      continue;
    }
    for (const l of lines) {
      add(sourceAt(map, l.line - 1, 10_000), (us * l.ticks) / total);
    }
  }
}

async function main() {
  const names = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['assets']) as FunctionName[];
  const outDir = mkdtempSync(join(tmpdir(), 'voltfolio-cold-profile-'));
  const profDir = join(outDir, 'profiles');
  try {
    for (const bundle of await bundleFunctionsAsync({ outDir, names, readable: true })) {
      const map = new SourceMap(JSON.parse(readFileSync(bundle.sourcemap, 'utf8')));
      const bundleUrl = pathToFileURL(bundle.outfile).href;
      const totals = new Map<string, number>();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const { ms, profile } = profileOnce(bundle.outfile, profDir);
        times.push(ms);
        attribute(profile, bundleUrl, map, totals);
      }
      times.sort((a, b) => a - b);
      const attributed = [...totals.values()].reduce((a, b) => a + b, 0) / RUNS / 1000;
      console.log(
        `\n# ${bundle.name}: cold import ${times[Math.floor(RUNS / 2)]?.toFixed(1)} ms (median of ${RUNS}, profiled, unminified); ${attributed.toFixed(1)} ms sampled under the bundle's code`,
      );
      const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 25);
      for (const [key, us] of rows) console.log(`${(us / RUNS / 1000).toFixed(2).padStart(7)} ms  ${key}`);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
