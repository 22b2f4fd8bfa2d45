import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWeb, type WebBuild } from '../../web/build.ts';
import { outputOf, staticClosure } from '../../web/bundle-size.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let outDir: string;
let build: WebBuild;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'voltfolio-insights-'));
  build = await buildWeb({
    outDir,
    watch: false,
    env: { issuer: 'http://localhost:3000/oidc', clientId: 'voltfolio-web', apiBase: '/api', wsUrl: '/ws' },
  });
}, 120_000);

afterAll(async () => {
  await build?.dispose();
  if (outDir) await rm(outDir, { recursive: true, force: true });
});

describe('the Insights pages', () => {
  it('load in a lazy chunk of at most 150 KB gzipped beyond what the first load already has', async () => {
    const metafile = build.metafile;
    if (!metafile) throw new Error('no metafile');
    const main = outputOf(metafile, 'web/app/main.tsx');
    const dashboard = outputOf(metafile, 'web/features/dashboard/dashboard-page.tsx');
    const page = outputOf(metafile, 'web/features/analytics/insights-page.tsx');
    if (!main || !dashboard || !page) throw new Error('an entry is missing from the build');
    const initial = new Set([...staticClosure(metafile, main), ...staticClosure(metafile, dashboard)]);
    expect(initial.has(page)).toBe(false);
    let gzip = 0;
    for (const file of staticClosure(metafile, page)) {
      if (!initial.has(file)) gzip += gzipSync(await readFile(path.resolve(ROOT, file)), { level: 9 }).length;
    }
    expect(gzip).toBeGreaterThan(0);
    expect(gzip).toBeLessThanOrEqual(150 * 1024);
  });
});
