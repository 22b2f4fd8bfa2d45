import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, type WebBuild } from '../../web/build.ts';
import { measureBundle, outputOf, staticClosure } from '../../web/bundle-size.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let outDir: string;
let build: WebBuild;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'voltfolio-web-'));
  build = await buildWeb({
    outDir,
    watch: false,
    env: {
      issuer: 'http://localhost:3000/oidc',
      clientId: 'voltfolio-web',
      apiBase: 'http://localhost:3000/api',
      wsUrl: 'ws://localhost:3000/ws',
    },
  });
});

afterAll(async () => {
  await build?.dispose();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('the production build', () => {
  it('writes an index.html whose hashed script and styles exist', async () => {
    const html = await readFile(path.join(outDir, 'index.html'), 'utf8');
    const script = /<script type="module" src="\/(assets\/main-[A-Z0-9]+\.js)"><\/script>/.exec(html)?.[1];
    const css = /<link rel="stylesheet" href="\/(assets\/main-[A-Z0-9]+\.css)">/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(css).toBeDefined();
    await expect(stat(path.join(outDir, script ?? ''))).resolves.toBeTruthy();
    await expect(stat(path.join(outDir, css ?? ''))).resolves.toBeTruthy();
    for (const [, href] of html.matchAll(/rel="modulepreload" href="\/([^"]+)"/g)) {
      await expect(stat(path.join(outDir, href ?? ''))).resolves.toBeTruthy();
    }
  });

  it('writes the runtime configuration and the static files', async () => {
    const config = JSON.parse(await readFile(path.join(outDir, 'config.json'), 'utf8'));
    expect(config).toEqual({
      issuer: 'http://localhost:3000/oidc',
      clientId: 'voltfolio-web',
      apiBase: 'http://localhost:3000/api',
      wsUrl: 'ws://localhost:3000/ws',
      resource: 'http://localhost:3000/api',
    });
    await expect(stat(path.join(outDir, 'favicon.svg'))).resolves.toBeTruthy();
  });

  // The page loaders of every area come in a chunk of their own when first needed, not with the shell.
  it('keeps the JS of the signed-in dashboard within 200 KB gzipped', async () => {
    if (!build.metafile) throw new Error('no metafile');
    const report = await measureBundle(
      build.metafile,
      ROOT,
      'web/app/main.tsx',
      'web/features/dashboard/dashboard-page.tsx',
    );
    console.log(`Dashboard first load: ${report.dashboardInitialJs.gzip} B gzipped`);
    expect(report.dashboardInitialJs.gzip).toBeLessThanOrEqual(200 * 1024);
    // Lazy pages are split off: the build holds more JS than the dashboard needs.
    expect(report.totalJs.raw).toBeGreaterThan(report.dashboardInitialJs.raw);
  });

  it('keeps the lazily loaded Insights chunk within 150 KB gzipped', async () => {
    const metafile = build.metafile;
    if (!metafile) throw new Error('no metafile');
    const main = outputOf(metafile, 'web/app/main.tsx');
    const dashboard = outputOf(metafile, 'web/features/dashboard/dashboard-page.tsx');
    const insights = outputOf(metafile, 'web/features/analytics/insights-page.tsx');
    if (!main || !dashboard || !insights) throw new Error('an entry is missing from the build');
    // What opening Insights fetches beyond what the signed-in dashboard already loaded.
    const loaded = new Set([...staticClosure(metafile, main), ...staticClosure(metafile, dashboard)]);
    const lazy = [...staticClosure(metafile, insights)].filter((f) => !loaded.has(f));
    expect(lazy).toContain(insights);
    let gzip = 0;
    for (const file of lazy) gzip += gzipSync(await readFile(path.resolve(ROOT, file)), { level: 9 }).length;
    console.log(`Insights chunk: ${(gzip / 1024).toFixed(1)} KB gzipped in ${lazy.length} files`);
    expect(gzip).toBeLessThanOrEqual(150 * 1024);
  });
});
