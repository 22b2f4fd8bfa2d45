import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { barrelImports } from './barrel-imports.ts';
import { formatReport, measureBundle, outputOf, staticClosure } from './bundle-size.ts';
import type { WebConfig } from './lib/config.ts';

/** What the SPA needs to know about its environment; written to `/config.json`, read at start. */
export interface WebEnv {
  issuer: string;
  clientId: string;
  apiBase: string;
  wsUrl: string;
  /** The API resource indicator; defaults to `apiBase` except for Cognito issuers; null leaves it out. */
  resource?: string | null;
  /** Defaults to `openid email profile offline_access`, or COGNITO_SCOPE for Cognito. */
  scope?: string;
  endSessionEndpoint?: string;
  logoutParams?: Record<string, string>;
}

export interface BuildWebOptions {
  outDir: string;
  watch: boolean;
  env: WebEnv;
  minify?: boolean;
  /** Called after every build with its errors (none when it succeeded). */
  onBuild?: (errors: esbuild.Message[]) => void;
}

export interface WebBuild {
  dispose(): Promise<void>;
  /** The esbuild metafile of the first build (paths relative to the repository root). */
  metafile: esbuild.Metafile | undefined;
}

const WEB_DIR = import.meta.dirname;
const ROOT = path.dirname(WEB_DIR);
const ENTRY = 'web/app/main.tsx';
const DASHBOARD_PAGE = 'web/features/dashboard/dashboard-page.tsx';
const PUBLIC_DIR = path.join(WEB_DIR, 'public');
const ASSETS_DIR = 'assets';

const COGNITO_ISSUER = /^https:\/\/cognito-idp\.[a-z0-9-]+\.amazonaws\.com\//;

/**
 * Cognito knows no `offline_access` scope (it always issues refresh tokens) and would refuse the request.
 * `aws.cognito.signin.user.admin` lets the user's access token enrol an authenticator app.
 */
export const COGNITO_SCOPE = 'openid email profile aws.cognito.signin.user.admin';

/** The runtime configuration for an environment. Cognito takes no resource indicator. */
export function webConfigOf(env: WebEnv): WebConfig {
  const cognito = COGNITO_ISSUER.test(env.issuer);
  const resource = env.resource === null ? undefined : (env.resource ?? (cognito ? undefined : env.apiBase));
  const scope = env.scope ?? (cognito ? COGNITO_SCOPE : undefined);
  return {
    issuer: env.issuer,
    clientId: env.clientId,
    apiBase: env.apiBase,
    wsUrl: env.wsUrl,
    ...(resource ? { resource } : {}),
    ...(scope ? { scope } : {}),
    ...(env.endSessionEndpoint ? { endSessionEndpoint: env.endSessionEndpoint } : {}),
    ...(env.logoutParams ? { logoutParams: env.logoutParams } : {}),
  };
}

export async function writeWebConfig(outDir: string, env: WebEnv): Promise<void> {
  await writeFile(path.join(outDir, 'config.json'), `${JSON.stringify(webConfigOf(env), null, 2)}\n`);
}

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export function renderIndexHtml(files: { script: string; css: string[]; preload: string[] }): string {
  const tags = [
    ...files.css.map((href) => `<link rel="stylesheet" href="${escapeAttr(href)}">`),
    ...files.preload.map((href) => `<link rel="modulepreload" href="${escapeAttr(href)}">`),
    `<script type="module" src="${escapeAttr(files.script)}"></script>`,
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Voltfolio</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${tags.join('\n')}
</head>
<body>
<div id="root"></div>
<noscript>Voltfolio needs JavaScript.</noscript>
</body>
</html>
`;
}

/** Writes index.html for this build's hashed files and removes files of earlier builds. */
async function finishBuild(outDir: string, metafile: esbuild.Metafile, env: WebEnv): Promise<void> {
  const url = (file: string) =>
    `/${path.relative(outDir, path.resolve(ROOT, file)).split(path.sep).join('/')}`;
  const main = outputOf(metafile, ENTRY);
  if (!main) throw new Error(`No output for ${ENTRY}`);
  const preload = [...staticClosure(metafile, main)].filter((f) => f !== main);
  const cssBundle = metafile.outputs[main]?.cssBundle;
  await writeFile(
    path.join(outDir, 'index.html'),
    renderIndexHtml({ script: url(main), css: cssBundle ? [url(cssBundle)] : [], preload: preload.map(url) }),
  );
  await writeWebConfig(outDir, env);
  await cp(PUBLIC_DIR, outDir, { recursive: true });
  const current = new Set(Object.keys(metafile.outputs).map((f) => path.resolve(ROOT, f)));
  const assets = path.join(outDir, ASSETS_DIR);
  for (const name of await readdir(assets)) {
    const file = path.join(assets, name);
    if (!current.has(file)) await rm(file, { force: true });
  }
}

function esbuildOptions(opts: BuildWebOptions, plugins: esbuild.Plugin[]): esbuild.BuildOptions {
  const minify = opts.minify ?? true;
  return {
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outdir: path.join(opts.outDir, ASSETS_DIR),
    bundle: true,
    format: 'esm',
    splitting: true,
    platform: 'browser',
    target: ['chrome111', 'edge111', 'firefox114', 'safari16.4'],
    jsx: 'automatic',
    minify,
    sourcemap: 'linked',
    legalComments: 'linked',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    define: { 'process.env.NODE_ENV': JSON.stringify(minify ? 'production' : 'development') },
    logLevel: 'silent',
    plugins: [barrelImports(WEB_DIR, path.join(ROOT, 'node_modules')), ...plugins],
  };
}

/**
 * Builds the SPA into `outDir`: hashed ESM chunks under `assets/`, `index.html`, `config.json` and the
 * static files of web/public. With `watch`, rebuilds on every change until disposed.
 */
export async function buildWeb(opts: BuildWebOptions): Promise<WebBuild> {
  await rm(path.join(opts.outDir, ASSETS_DIR), { recursive: true, force: true });
  await mkdir(path.join(opts.outDir, ASSETS_DIR), { recursive: true });

  if (!opts.watch) {
    const result = await esbuild.build(esbuildOptions(opts, []));
    await finishBuild(opts.outDir, result.metafile as esbuild.Metafile, opts.env);
    opts.onBuild?.([]);
    return { dispose: async () => undefined, metafile: result.metafile };
  }

  let firstBuild: ((metafile: esbuild.Metafile | undefined) => void) | undefined;
  const firstDone = new Promise<esbuild.Metafile | undefined>((resolve) => {
    firstBuild = resolve;
  });
  const finish: esbuild.Plugin = {
    name: 'voltfolio-finish',
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length === 0 && result.metafile)
          await finishBuild(opts.outDir, result.metafile, opts.env);
        else
          for (const message of await esbuild.formatMessages(result.errors, { kind: 'error' }))
            console.error(message);
        opts.onBuild?.(result.errors);
        firstBuild?.(result.metafile);
        firstBuild = undefined;
      });
    },
  };
  const context = await esbuild.context(esbuildOptions(opts, [finish]));
  await context.watch();
  return { dispose: () => context.dispose(), metafile: await firstDone };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: path.join(WEB_DIR, 'dist') },
      watch: { type: 'boolean', default: false },
      'no-minify': { type: 'boolean', default: false },
      issuer: { type: 'string', default: 'http://localhost:3000/oidc' },
      'client-id': { type: 'string', default: 'voltfolio-web' },
      'api-base': { type: 'string', default: '/api' },
      'ws-url': { type: 'string', default: '/ws' },
      resource: { type: 'string' },
    },
  });
  const outDir = path.resolve(values.out);
  const env: WebEnv = {
    issuer: values.issuer,
    clientId: values['client-id'],
    apiBase: values['api-base'],
    wsUrl: values['ws-url'],
    ...(values.resource !== undefined ? { resource: values.resource || null } : {}),
  };
  const started = Date.now();
  const handle = await buildWeb({ outDir, watch: values.watch, env, minify: !values['no-minify'] });
  console.log(`Built ${outDir} in ${Date.now() - started} ms`);
  if (values.watch) {
    console.log('Watching for changes (Ctrl+C to stop)');
    process.once('SIGINT', () => void handle.dispose());
    return;
  }
  if (handle.metafile)
    console.log(formatReport(await measureBundle(handle.metafile, ROOT, ENTRY, DASHBOARD_PAGE)));
}

if (import.meta.main) await main();
