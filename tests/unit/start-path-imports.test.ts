import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What some modules a function reads at start load in turn. Reading zod's full build costs every cold start
 * ~3 ms even when no schema is built, so route and query declarations and the figures' arithmetic reach
 * zod's small build only; the schemas of writes stay in the full build, in modules loaded when a write
 * first needs them.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Imports that load a module: `import type` and `import()` load nothing at start. */
const LOADING = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[\w*{}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/gm;

interface Walk {
  /** Every project module reached, with the module that first imported it. */
  via: Map<string, string | undefined>;
  /** Each package import: the importing module and the package named. */
  packages: [string, string][];
}

function walk(entries: readonly string[]): Walk {
  const via = new Map<string, string | undefined>();
  const packages: [string, string][] = [];
  const queue: [string, string | undefined][] = entries.map((e) => [e, undefined]);
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [file, from] = next;
    if (via.has(file)) continue;
    via.set(file, from);
    for (const [, spec = ''] of readFileSync(join(ROOT, file), 'utf8').matchAll(LOADING)) {
      if (spec.startsWith('.')) queue.push([relative(ROOT, resolve(ROOT, dirname(file), spec)), file]);
      else packages.push([file, spec]);
    }
  }
  return { via, packages };
}

/** Each module reached from `entries` that imports zod's full build, with the chain that reaches it. */
function fullBuildImporters(entries: readonly string[]): string[] {
  const { via, packages } = walk(entries);
  const chain = (file: string): string => {
    const from = via.get(file);
    return from ? `${chain(from)} -> ${file}` : file;
  };
  return packages
    .filter(([, spec]) => spec === 'zod' || spec.startsWith('zod/v4/classic'))
    .map(([file]) => chain(file));
}

describe("zod's full build at start", () => {
  it.each([
    ['imports', 'shared/system/areas/imports.ts'],
    ['marketplace', 'shared/system/areas/marketplace.ts'],
    ['discussions', 'shared/system/areas/collaboration.ts'],
    ['search', 'shared/system/areas/search.ts'],
    ['kiosks', 'shared/system/areas/kiosk.ts'],
    ['staff tools', 'shared/system/areas/staff-tools.ts'],
    ['benchmarks', 'shared/system/areas/benchmarks.ts'],
    ['staff utilities', 'shared/schemas/util-staff-queries.ts'],
    ['regulatory calendar', 'shared/schemas/calendar-queries.ts'],
  ])('is not read by the %s routes and their queries', (_name, entry) => {
    expect(fullBuildImporters([entry])).toEqual([]);
  });

  it("is not read by the benchmarks' arithmetic, pathways and the site facts they read", () => {
    expect(
      fullBuildImporters([
        'shared/benchmarks/crrem.ts',
        'shared/benchmarks/pathways.ts',
        'shared/schemas/floor-area-history.ts',
        'shared/schemas/asset-wizard-values.ts',
      ]),
    ).toEqual([]);
  });

  it('finds a module that imports it', () => {
    expect(fullBuildImporters(['shared/schemas/fields.ts'])).toEqual(['shared/schemas/fields.ts']);
  });
});

describe('the yearly figures of targets', () => {
  // A bundle's start holds whatever its start reaches that any of its calls runs: the targets function's
  // progress reads yearly figures, and its benchmarks reach the analytics area, so the yearly figures must
  // not bring the analytics calls (half-hourly answers and the rest), which that function never runs.
  it('read the stored figures without loading the analytics calls', () => {
    const { via } = walk(['functions/analytics/analytics-yearly.ts']);
    expect(via.has('functions/analytics/analytics-read-figures.ts')).toBe(true);
    expect(via.has('functions/analytics/analytics-service.ts')).toBe(false);
  });
});
