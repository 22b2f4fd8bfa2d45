import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The modules these functions read at start (route and query declarations, the figures' arithmetic) reach
 * zod's small build only: reading zod's full build costs every cold start ~3 ms even when no schema is
 * built. The schemas of writes stay in the full build, in modules loaded when a write first needs them.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Imports that load a module: `import type` and `import()` load nothing at start. */
const LOADING = /(?:^|[\s;])(?:import|export)\s+(?!type\s)(?:[\w*{}\s,]+?\s+from\s+)?['"]([^'"]+)['"]/gm;

/** Each module reached from `entries` that imports zod's full build, with the chain that reaches it. */
function fullBuildImporters(entries: readonly string[]): string[] {
  const via = new Map<string, string | undefined>();
  const queue: [string, string | undefined][] = entries.map((e) => [e, undefined]);
  const importers: string[] = [];
  for (let next = queue.shift(); next; next = queue.shift()) {
    const [file, from] = next;
    if (via.has(file)) continue;
    via.set(file, from);
    for (const [, spec = ''] of readFileSync(join(ROOT, file), 'utf8').matchAll(LOADING)) {
      if (spec.startsWith('.')) queue.push([relative(ROOT, resolve(ROOT, dirname(file), spec)), file]);
      else if (spec === 'zod' || spec.startsWith('zod/v4/classic')) importers.push(file);
    }
  }
  const chain = (file: string): string => {
    const from = via.get(file);
    return from ? `${chain(from)} -> ${file}` : file;
  };
  return importers.map(chain);
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
