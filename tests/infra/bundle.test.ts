import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BundleResult,
  bundleFunctions,
  HTTP_BUNDLE_LIMIT_BYTES,
  REPO_ROOT,
} from '../../infra/build/bundle-functions.ts';
import { FUNCTIONS } from '../../shared/system/functions.ts';

describe('function bundles', () => {
  const outRoot = join(REPO_ROOT, '.build', 'tests', `bundle-${process.pid}`);
  let results: BundleResult[];
  beforeAll(() => {
    results = bundleFunctions({ outDir: join(outRoot, 'functions') });
  });
  afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

  it('bundles every declared function into its own folder', () => {
    expect(results.map((r) => r.name)).toEqual(FUNCTIONS.map((f) => f.name));
    for (const r of results) {
      expect(r.outfile).toBe(join(outRoot, 'functions', r.name, 'index.mjs'));
      // What a cold start reads: the entry file and, with it, the chunks it imports statically.
      expect(r.bytes).toBeGreaterThanOrEqual(readFileSync(r.outfile).byteLength);
    }
  });

  it(`keeps every HTTP function at most ${HTTP_BUNDLE_LIMIT_BYTES / 1024} KB`, () => {
    const http = results.filter((r) => r.kind === 'http');
    expect(http.length).toBeGreaterThan(0);
    for (const r of http) expect(r.bytes, r.name).toBeLessThanOrEqual(HTTP_BUNDLE_LIMIT_BYTES);
  });

  it('leaves the AWS SDK to the runtime', () => {
    for (const r of results) {
      const meta = JSON.parse(readFileSync(r.metafile, 'utf8')) as { inputs: Record<string, unknown> };
      expect(
        Object.keys(meta.inputs).filter((p) => p.includes('node_modules/@aws-sdk/')),
        r.name,
      ).toEqual([]);
      expect(readFileSync(r.outfile, 'utf8')).toMatch(/from\s*"@aws-sdk\//);
    }
  });

  it('produces ES modules that load in Node and export the handler', async () => {
    for (const r of results) {
      const loaded = (await import(pathToFileURL(r.outfile).href)) as { handler?: unknown };
      expect(typeof loaded.handler, r.name).toBe('function');
    }
  });
});
