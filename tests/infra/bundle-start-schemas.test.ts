import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleResult, bundleFunctions, REPO_ROOT } from '../../infra/build/bundle-functions.ts';

/**
 * How many schemas of zod's full build, and of zod/mini, a bundle builds while it loads, in a process of
 * its own (as a cold start loads it), through the hook zod runs on every schema it builds.
 */
function schemasBuiltLoading(bundle: BundleResult): { full: number; mini: number } {
  const code = `
const counts = { full: 0, mini: 0 };
globalThis.__zod_globalConfig = {
  postProcessor: (schema) => {
    if (schema._zod.traits.has('ZodType')) counts.full++;
    if (schema._zod.traits.has('ZodMiniType')) counts.mini++;
  },
};
await import(${JSON.stringify(pathToFileURL(bundle.outfile).href)});
process.stdout.write(JSON.stringify(counts));`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    cwd: REPO_ROOT,
    env: { ...process.env, AWS_REGION: 'eu-west-2' },
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`Loading ${bundle.name} failed: ${out.stderr}`);
  return JSON.parse(out.stdout) as { full: number; mini: number };
}

describe('schemas a function bundle builds at start', () => {
  const names = ['insights', 'targets', 'collaboration'] as const;
  const outRoot = join(REPO_ROOT, '.build', 'tests', `bundle-start-schemas-${process.pid}`);
  let results: BundleResult[];
  beforeAll(() => {
    results = bundleFunctions({ outDir: join(outRoot, 'functions'), names });
  });
  afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

  // A schema of zod's full build costs a cold start zod's one-time setup, and each one more its share:
  // these functions build theirs on the first call that parses with one.
  it.each(names)("starts the %s function without building a schema of zod's full build", (name) => {
    const bundle = results.find((r) => r.name === name);
    if (!bundle) throw new Error(`${name} was not bundled`);
    const { full, mini } = schemasBuiltLoading(bundle);
    expect(full).toBe(0);
    // The route checks are zod/mini's: a bundle that built nothing at all would not be checking them.
    expect(mini).toBeGreaterThan(0);
  });
});
