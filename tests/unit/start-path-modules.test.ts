import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunctionsAsync, REPO_ROOT } from '../../infra/build/bundle-functions.ts';
import type { FunctionName } from '../../shared/system/functions.ts';

/**
 * What a function reads when it starts, from its bundle: the source files in the chunks its entry imports
 * statically (a module loaded on first call sits in a chunk imported with `import()`). Every file read at
 * start is parsed and run on each cold start, whether or not the request needs it.
 */
const NAMES = ['assets', 'asset-groups', 'insights'] as const satisfies readonly FunctionName[];
const BUNDLED = [
  ...NAMES,
  'targets',
  'invoices',
  'session',
  'invoice-validation',
] as const satisfies readonly FunctionName[];
const OUT_DIR = join(REPO_ROOT, '.build', `start-path-${process.pid}`);
const metas = new Map<string, Metafile>();

beforeAll(async () => {
  for (const bundle of await bundleFunctionsAsync({ outDir: OUT_DIR, names: BUNDLED }))
    metas.set(bundle.name, JSON.parse(readFileSync(bundle.metafile, 'utf8')) as Metafile);
}, 120_000);

afterAll(() => {
  rmSync(OUT_DIR, { recursive: true, force: true });
  rmSync(`${OUT_DIR}-meta`, { recursive: true, force: true });
});

function startInputs(name: string): { files: Set<string>; meta: Metafile } {
  const meta = metas.get(name);
  if (!meta) throw new Error(`${name} was not bundled`);
  const entry = Object.keys(meta.outputs).find((k) => k.endsWith(`/${name}/index.mjs`));
  const seen = new Set<string>();
  const visit = (k: string | undefined) => {
    if (!k || seen.has(k)) return;
    seen.add(k);
    for (const i of meta.outputs[k]?.imports ?? [])
      if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  const files = new Set([...seen].flatMap((k) => Object.keys(meta.outputs[k]?.inputs ?? {})));
  return { files, meta };
}

// Whether a start reads zod's full build is checked for every function in tests/infra/bundle.test.ts.
describe('what a function reads at start', () => {
  // The tables are ~12 KB of source (with the analytics modules the barrel brings, more); only the calls
  // that work out emissions need them.
  it.each(['assets', 'asset-groups', 'session'])('starts %s without the emission factor tables', (name) => {
    const { files } = startInputs(name);
    const tables = ['shared/domain/emission-factors.ts', 'shared/analytics/index.ts'];
    expect(tables.filter((f) => files.has(f))).toEqual([]);
  });

  it('reads the tables at start where the figures are the frequent calls (insights)', () => {
    expect(startInputs('insights').files.has('shared/domain/emission-factors.ts')).toBe(true);
  });

  // Interval figures answer only daily, hourly and half-hourly queries; factor sets and restatements are
  // an administrator's calls. The dashboard's figures and widgets read none of them.
  it('starts insights without the interval figures and the factor sets, which load on first use', () => {
    const { files, meta } = startInputs('insights');
    const later = [
      'functions/analytics/analytics-half-hourly-figures.ts',
      'functions/analytics/analytics-half-hourly-repository.ts',
      'functions/analytics/factor-set-service.ts',
      'functions/analytics/factor-set-repository.ts',
    ];
    expect(later.filter((f) => files.has(f))).toEqual([]);
    // Still in the bundle: loaded by the calls that need them.
    expect(later.filter((f) => !meta.inputs[f])).toEqual([]);
    expect(files.has('functions/analytics/analytics-service.ts')).toBe(true);
    expect(files.has('functions/analytics/dashboard-widget-service.ts')).toBe(true);
  });

  // The targets page (list, scopes, progress) is most of the function's calls; benchmarks are pages of
  // their own, the calendar and the targets' writes are seldom.
  it("starts targets with the targets page's reads, without the benchmarks, the calendar and the writes", () => {
    const { files, meta } = startInputs('targets');
    const later = [
      'functions/benchmarks/benchmarks-service.ts',
      'functions/benchmarks/benchmark-repository.ts',
      'shared/benchmarks/pathways.ts',
      'functions/targets/calendar-service.ts',
      'functions/targets/target-service.ts',
      'functions/analytics/analytics-service.ts',
      'functions/analytics/analytics-half-hourly-figures.ts',
    ];
    expect(later.filter((f) => files.has(f))).toEqual([]);
    expect(later.slice(0, 5).filter((f) => !meta.inputs[f])).toEqual([]);
    expect(files.has('functions/targets/target-progress.ts')).toBe(true);
  });

  // A bill's deletion, restore and import rollback rebuild its meter's figures through the analytics area and
  // its factor tables; listing, reading, checking and confirming bills do not, and are most of the calls.
  it.each(['invoices', 'invoice-validation'])(
    'starts %s without the figures a deleted bill rebuilds, nor the bill imports',
    (name) => {
      const { files, meta } = startInputs(name);
      const later = [
        'functions/invoices/invoice-deletion.ts',
        'functions/analytics/index.ts',
        'shared/domain/emission-factors.ts',
        'functions/invoices/invoice-import-service.ts',
      ];
      expect(later.filter((f) => files.has(f))).toEqual([]);
      expect(meta.inputs['functions/invoices/invoice-deletion.ts']).toBeDefined();
      expect(files.has('functions/invoices/invoice-deletion-later.ts')).toBe(true);
    },
  );
});
