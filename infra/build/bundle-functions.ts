import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync, type Metafile } from 'esbuild';
import { FUNCTIONS, type FunctionDecl, type FunctionName } from '../../shared/system/functions.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where `cdk synth` takes the function code from (one folder per function, the Lambda asset). */
export const DEFAULT_BUNDLE_DIR = join(REPO_ROOT, '.build', 'functions');

/** Cold starts grow with the code Lambda has to load; an HTTP function above this has taken in too much. */
export const HTTP_BUNDLE_LIMIT_BYTES = 300 * 1024;

// ESM output cannot call `require`, yet bundled CommonJS dependencies do (for Node built-ins, say).
const REQUIRE_BANNER =
  "import { createRequire as __voltfolioCreateRequire } from 'node:module';\n" +
  'const require = __voltfolioCreateRequire(import.meta.url);';

export interface BundleOptions {
  /** Folder that receives `<name>/index.mjs`; metafiles and source maps go beside it, outside the assets. */
  outDir?: string;
  /** Bundle only these functions. */
  names?: readonly FunctionName[];
}

export interface BundleResult {
  name: FunctionName;
  kind: FunctionDecl['kind'];
  /** The Lambda asset folder (holds index.mjs only). */
  dir: string;
  outfile: string;
  bytes: number;
  metafile: string;
  sourcemap: string;
}

/** Writes via a temporary file and a rename, so a reader never sees half a bundle. */
function writeAtomically(path: string, contents: Uint8Array | string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

export function bundleFunction(decl: FunctionDecl, outDir: string = DEFAULT_BUNDLE_DIR): BundleResult {
  const entry = resolve(REPO_ROOT, decl.entry);
  const dir = join(outDir, decl.name);
  const outfile = join(dir, 'index.mjs');
  const metaRoot = join(dirname(outDir), `${basename(outDir)}-meta`);
  const metafile = join(metaRoot, `${decl.name}.json`);
  const sourcemap = join(metaRoot, `${decl.name}.mjs.map`);

  if (!existsSync(entry)) throw new Error(`Function ${decl.name}: entry ${decl.entry} does not exist`);

  // Code a function loads only for some requests (PDF stamping) goes into chunks beside index.mjs and is
  // read when first imported, so it does not weigh on every cold start.
  rmSync(dir, { recursive: true, force: true });
  const result = buildSync({
    entryPoints: [entry],
    outdir: dir,
    entryNames: 'index',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    splitting: true,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    mainFields: ['module', 'main'],
    minify: true,
    treeShaking: true,
    sourcemap: 'external',
    sourcesContent: false,
    legalComments: 'none',
    external: ['@aws-sdk/*'],
    banner: { js: REQUIRE_BANNER },
    metafile: true,
    write: false,
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
  });

  for (const file of result.outputFiles) {
    if (!file.path.endsWith('.map')) writeAtomically(file.path, file.contents);
    else if (file.path === `${outfile}.map`) writeAtomically(sourcemap, file.contents);
    else writeAtomically(join(metaRoot, `${decl.name}-${basename(file.path)}`), file.contents);
  }
  writeAtomically(metafile, JSON.stringify(result.metafile));

  return {
    name: decl.name,
    kind: decl.kind,
    dir,
    outfile,
    bytes: loadedAtStart(result.metafile, outfile),
    metafile,
    sourcemap,
  };
}

/** The bytes a cold start reads: the entry and every chunk it imports statically, not those imported on demand. */
function loadedAtStart(meta: Metafile, outfile: string): number {
  const key = (path: string) =>
    Object.keys(meta.outputs).find((k) => resolve(REPO_ROOT, k) === resolve(path));
  const seen = new Set<string>();
  const visit = (k: string | undefined) => {
    if (!k || seen.has(k)) return;
    seen.add(k);
    for (const i of meta.outputs[k]?.imports ?? [])
      if (i.kind === 'import-statement' && !i.external) visit(key(i.path));
  };
  visit(key(outfile));
  return [...seen].reduce((sum, k) => sum + statSync(resolve(REPO_ROOT, k)).size, 0);
}

/** Bundles the declared functions; their folders are what the CDK app deploys. */
export function bundleFunctions(options: BundleOptions = {}): BundleResult[] {
  const outDir = options.outDir ?? DEFAULT_BUNDLE_DIR;
  const wanted = options.names ? new Set<FunctionName>(options.names) : undefined;
  return FUNCTIONS.filter((decl) => !wanted || wanted.has(decl.name)).map((decl) =>
    bundleFunction(decl, outDir),
  );
}

/** HTTP bundles above the limit, largest first. */
export function oversizedHttpBundles(results: readonly BundleResult[]): BundleResult[] {
  return results
    .filter((r) => r.kind === 'http' && r.bytes > HTTP_BUNDLE_LIMIT_BYTES)
    .sort((a, b) => b.bytes - a.bytes);
}

function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

if (import.meta.main) {
  const started = performance.now();
  const results = bundleFunctions();
  for (const r of results) {
    console.log(
      `${r.name.padEnd(20)} ${r.kind.padEnd(7)} ${formatKb(r.bytes).padStart(10)}  ${relative(REPO_ROOT, r.outfile)}`,
    );
  }
  console.log(`bundled ${results.length} functions in ${Math.round(performance.now() - started)} ms`);
  const oversized = oversizedHttpBundles(results);
  if (oversized.length > 0) {
    console.error(`over ${formatKb(HTTP_BUNDLE_LIMIT_BYTES)}: ${oversized.map((r) => r.name).join(', ')}`);
    process.exitCode = 1;
  }
}
