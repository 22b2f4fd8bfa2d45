/**
 * `node tests/bench/cold-profile.ts [function…]` (default: assets): where a function's cold import spends
 * its time. Bundles the function unminified (one source line per output line), imports it cold in fresh
 * processes under V8's CPU profiler, and adds up the samples taken while the bundle's code was on the stack
 * by the source file of the line running: our own modules, bundled packages, the AWS SDK (loaded at run
 * time), Node's module loader. BENCH_PROFILE_RUNS sets the number of cold imports profiled (default 10).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleFunctionsAsync, REPO_ROOT } from '../../infra/build/bundle-functions.ts';
import type { FunctionName } from '../../shared/system/functions.ts';

const RUNS = Number(process.env.BENCH_PROFILE_RUNS ?? 10);
const INTERVAL_US = 100;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
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

/** The nearest function of our own above a node: its source file, or the bundle's top level. */
function callerOf(
  id: number,
  byId: Map<number, ProfileNode>,
  parent: Map<number, number>,
  maps: Map<string, SourceMap>,
): string {
  for (let at = parent.get(id); at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)?.callFrame;
    const map = frame && maps.get(frame.url);
    if (!frame || !map) continue;
    if (frame.functionName === '' && frame.lineNumber === 0) return 'top level';
    const source = sourceAt(map, frame.lineNumber, frame.columnNumber);
    if (!source.startsWith('package ')) return `${source} ${frame.functionName || '(anonymous)'}`;
  }
  return 'top level';
}

/**
 * Adds each sampled node's self time to a bucket: the runtime package (AWS SDK) it runs inside of, when
 * the bundle called into one; else the source file of the bundle's line; else Node's function by name.
 */
function attribute(profile: Profile, maps: Map<string, SourceMap>, into: Map<string, number>): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const add = (key: string, us: number) => into.set(key, (into.get(key) ?? 0) + us);
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  for (const [id, us] of self) {
    const leaf = byId.get(id);
    if (!leaf) continue;
    // Walk up to the bundle; the outermost runtime package on the way is what the bundle asked for.
    let runtimePackage: string | undefined;
    let underBundle = false;
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)?.callFrame.url ?? '';
      if (maps.has(url)) {
        underBundle = true;
        break;
      }
      if (url.includes('/node_modules/')) runtimePackage = owner(url);
    }
    if (!underBundle) continue;
    if (runtimePackage) {
      add(`${runtimePackage} (loaded at run time)`, us);
      continue;
    }
    const map = maps.get(leaf.callFrame.url);
    if (!map) {
      add(`node ${leaf.callFrame.functionName || '(anonymous)'}`, us);
      continue;
    }
    const lines = leaf.positionTicks ?? [];
    const total = lines.reduce((sum, l) => sum + l.ticks, 0);
    const spread: [string, number][] =
      total === 0
        ? [[sourceAt(map, leaf.callFrame.lineNumber, 0), us]]
        : lines.map((l) => [sourceAt(map, l.line - 1, 10_000), (us * l.ticks) / total]);
    for (const [source, share] of spread) {
      // A bundled package (zod building a schema) is charged with the function of ours that called it.
      add(source.startsWith('package ') ? `${source} ← ${callerOf(id, byId, parent, maps)}` : source, share);
    }
  }
}

async function main() {
  const names = (process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['assets']) as FunctionName[];
  // Inside the repository, so the bundle's `require` finds the SDK in node_modules as the real ones do.
  const outDir = join(REPO_ROOT, '.build', 'cold-profile');
  mkdirSync(outDir, { recursive: true });
  const profDir = join(outDir, 'profiles');
  try {
    for (const bundle of await bundleFunctionsAsync({ outDir, names, readable: true })) {
      // The entry and its chunks, each with its source map (written beside the entry's, see bundleFunction).
      const maps = new Map<string, SourceMap>();
      const readMap = (file: string) => new SourceMap(JSON.parse(readFileSync(file, 'utf8')));
      maps.set(pathToFileURL(bundle.outfile).href, readMap(bundle.sourcemap));
      const chunkDir = join(bundle.dir, 'chunks');
      for (const chunk of existsSync(chunkDir) ? readdirSync(chunkDir) : []) {
        const map = join(dirname(bundle.sourcemap), `${bundle.name}-${chunk}.map`);
        if (existsSync(map)) maps.set(pathToFileURL(join(chunkDir, chunk)).href, readMap(map));
      }
      const totals = new Map<string, number>();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const { ms, profile } = profileOnce(bundle.outfile, profDir);
        times.push(ms);
        attribute(profile, maps, totals);
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
