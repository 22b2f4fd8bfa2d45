import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { FUNCTIONS, type FunctionDecl, type FunctionName } from '../../shared/system/functions.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where `cdk synth` takes the function code from (one folder per function, the Lambda asset). */
export const DEFAULT_BUNDLE_DIR = join(REPO_ROOT, '.build', 'functions');

/**
 * Cold starts grow with the code Lambda has to load; an HTTP function above this has taken in too much.
 * Each function carries only the routes and query schemas of the areas that declare its own (see
 * `httpFunction`), not the whole system declaration, which with sixteen areas is about 40 KB.
 */
export const HTTP_BUNDLE_LIMIT_BYTES = 300 * 1024;

// ESM output cannot call `require`, yet bundled CommonJS dependencies do (for Node built-ins, say).
const REQUIRE_BANNER =
  "import { createRequire as __voltfolioCreateRequire } from 'node:module';\n" +
  'const require = __voltfolioCreateRequire(import.meta.url);';

const RUNTIME_REQUIRE = 'runtime-require';
const runtimeRequire = createRequire(import.meta.url);
const RUNTIME_MODULE = new RegExp(
  `^(@aws-sdk/.+|node:.+|${builtinModules.filter((m) => /^[a-z]/.test(m)).join('|')})$`,
);

/**
 * Loads the runtime's AWS SDK and Node's built-ins through `require`, not ESM `import`. An ESM import of
 * an SDK package makes Node parse its CommonJS entry once more to detect its format, and one of `node:http`
 * builds an ESM facade whose getters load Node's internal fetch; both cost a cold start milliseconds that
 * `require` does not. esbuild's CommonJS interop then provides the named imports. `require` also resolves
 * through NODE_PATH, which is where Lambda's runtime keeps its SDK.
 */
const requireRuntimeModules: Plugin = {
  name: 'require-runtime-modules',
  setup(build) {
    build.onResolve({ filter: RUNTIME_MODULE }, (args) => {
      // A dynamic import stays one, loaded on first use: esbuild would put a required module in a chunk
      // whose namespace holds only `default`, losing the named exports the importer reads.
      if (args.kind === 'require-call' || args.kind === 'dynamic-import')
        return { path: args.path, external: true };
      return { path: args.path, namespace: RUNTIME_REQUIRE };
    });
    // Each named import is read from the required module itself: esbuild's CommonJS interop would copy
    // every export of the module (hundreds, for an SDK client) into a namespace, once per importing module.
    build.onLoad({ filter: /.*/, namespace: RUNTIME_REQUIRE }, (args) => {
      const names = Object.keys(runtimeRequire(args.path) as object).filter((k) => k !== 'default');
      return {
        contents: [
          `const __module = require(${JSON.stringify(args.path)});`,
          'const __read = (name) => __module[name];',
          ...names.map((k, i) => `const __export${i} = /* @__PURE__ */ __read(${JSON.stringify(k)});`),
          `export { ${names.map((k, i) => `__export${i} as ${JSON.stringify(k)}`).join(', ')} };`,
          'export default __module;',
        ].join('\n'),
        loader: 'js',
      };
    });
  },
};

/**
 * The function code is free of load-time side effects, so a module none of whose exports a function uses
 * is left out of its bundle: an area's `index.ts` names every call other areas and the handlers may make,
 * and without this each handler would carry the whole area behind it (image codecs, PDF readers). The
 * schema modules are too: every schema of a module a function reaches is built when it loads, used or not.
 */
const FUNCTION_SOURCES = /^\.\.?\//;
const functionsWithoutSideEffects: Plugin = {
  name: 'functions-without-side-effects',
  setup(build) {
    const dirs = [join(REPO_ROOT, 'functions'), join(REPO_ROOT, 'shared', 'schemas')];
    build.onResolve({ filter: FUNCTION_SOURCES }, (args) => {
      const path = resolve(args.resolveDir, args.path);
      if (!dirs.some((d) => path.startsWith(`${d}/`)) || args.kind === 'entry-point') return undefined;
      return { path, sideEffects: false };
    });
  },
};

/**
 * zod's JSON Schema writer (~21 KB) is re-exported by the entry modules of zod's core and of `zod/mini`,
 * which every function reads at start. esbuild puts a module in the chunk of each entry that reaches it by
 * any import, used or not, so once anything in a bundle uses the writer (the full build's schemas, loaded
 * on their first call, do) every cold start would read it. Those re-exports are left out here: code that
 * writes JSON Schema takes `toJSONSchema` from `zod`, the full build, on demand.
 */
const ZOD_ENTRIES_WITH_JSON_SCHEMA =
  /[\\/]node_modules[\\/]zod[\\/]v4[\\/](core[\\/]index|mini[\\/]external)\.js$/;
const zodJsonSchemaOnDemand: Plugin = {
  name: 'zod-json-schema-on-demand',
  setup(build) {
    build.onLoad({ filter: ZOD_ENTRIES_WITH_JSON_SCHEMA }, (args) => ({
      contents: readFileSync(args.path, 'utf8')
        .split('\n')
        .filter((line) => !/json-schema/.test(line))
        .join('\n'),
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/** Asks the command line for the results as JSON, for `bundleFunctions` in another process. */
const JSON_FLAG = '--json';

export interface BundleOptions {
  /** Folder that receives `<name>/index.mjs`; metafiles and source maps go beside it, outside the assets. */
  outDir?: string;
  /** Bundle only these functions. */
  names?: readonly FunctionName[];
  /** Unminified, one source line per output line, so a CPU profile's line ticks name the source file. */
  readable?: boolean;
}

export interface BundleResult {
  name: FunctionName;
  kind: FunctionDecl['kind'];
  /** The Lambda asset folder (holds index.mjs only). */
  dir: string;
  outfile: string;
  bytes: number;
  /** The runtime's modules (AWS SDK, Node built-ins) the bundle reaches, by how it loads them. */
  runtimeModules: RuntimeModules;
  metafile: string;
  sourcemap: string;
}

export interface RuntimeModules {
  /** Loaded with `require` by the files a cold start reads. */
  required: string[];
  /** Loaded with a static ESM `import` by the files a cold start reads. */
  imported: string[];
  /** Loaded with a dynamic `import()`, when first needed. */
  onDemand: string[];
}

/** Writes via a temporary file and a rename, so a reader never sees half a bundle. */
function writeAtomically(path: string, contents: Uint8Array | string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

export async function bundleFunction(
  decl: FunctionDecl,
  outDir: string = DEFAULT_BUNDLE_DIR,
  readable = false,
): Promise<BundleResult> {
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
  const result = await build({
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
    minify: !readable,
    treeShaking: true,
    sourcemap: 'external',
    sourcesContent: false,
    legalComments: 'none',
    external: ['@aws-sdk/*'],
    banner: { js: REQUIRE_BANNER },
    plugins: [requireRuntimeModules, functionsWithoutSideEffects, zodJsonSchemaOnDemand],
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

  const atStart = filesAtStart(result.metafile, outfile);
  return {
    name: decl.name,
    kind: decl.kind,
    dir,
    outfile,
    bytes: atStart.reduce((sum, k) => sum + statSync(resolve(REPO_ROOT, k)).size, 0),
    runtimeModules: runtimeModules(result.metafile, atStart),
    metafile,
    sourcemap,
  };
}

/** What a cold start reads: the entry and every chunk it imports statically, not those imported on demand. */
function filesAtStart(meta: Metafile, outfile: string): string[] {
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
  return [...seen];
}

function runtimeModules(meta: Metafile, atStart: readonly string[]): RuntimeModules {
  const external = (outputs: readonly string[], kind: string) => [
    ...new Set(
      outputs.flatMap((k) =>
        (meta.outputs[k]?.imports ?? []).filter((i) => i.external && i.kind === kind).map((i) => i.path),
      ),
    ),
  ];
  return {
    required: external(atStart, 'require-call'),
    imported: external(atStart, 'import-statement'),
    onDemand: external(Object.keys(meta.outputs), 'dynamic-import'),
  };
}

/** Bundles the declared functions; their folders are what the CDK app deploys. */
export async function bundleFunctionsAsync(options: BundleOptions = {}): Promise<BundleResult[]> {
  const outDir = options.outDir ?? DEFAULT_BUNDLE_DIR;
  const wanted = options.names ? new Set<FunctionName>(options.names) : undefined;
  const results: BundleResult[] = [];
  // One at a time: esbuild already uses every core for each function.
  for (const decl of FUNCTIONS.filter((d) => !wanted || wanted.has(d.name)))
    results.push(await bundleFunction(decl, outDir, options.readable));
  return results;
}

/**
 * The same, for callers that cannot wait (CDK synthesis builds its stacks synchronously). esbuild runs
 * plugins only in an asynchronous build, so this runs one in a child process and waits for it.
 */
export function bundleFunctions(options: BundleOptions = {}): BundleResult[] {
  const out = execFileSync(
    process.execPath,
    [fileURLToPath(import.meta.url), JSON_FLAG, JSON.stringify(options)],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return JSON.parse(out) as BundleResult[];
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

if (import.meta.main && process.argv[2] === JSON_FLAG) {
  const options = JSON.parse(process.argv[3] ?? '{}') as BundleOptions;
  process.stdout.write(JSON.stringify(await bundleFunctionsAsync(options)));
} else if (import.meta.main) {
  const started = performance.now();
  const results = await bundleFunctionsAsync();
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
