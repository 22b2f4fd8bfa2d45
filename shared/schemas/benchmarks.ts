import * as z from 'zod/mini';
import { ENERGY_BENCHMARK_KINDS } from '../benchmarks/energy-benchmarks.ts';
import { idField, nonEmptyField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

/** The largest pathway file taken in one call: CRREM's full set is about 1 MB as CSV. */
export const MAX_PATHWAY_CSV_BYTES = 4_000_000;

// The schemas are built on the first call that parses one, with zod's small build: the function declaring
// the routes starts without them and without zod's full build.

/** What narrows a benchmark table: a portfolio, an entity, a property type. */
const benchmarkFilters = () => ({
  assetGroupId: z.optional(idField()),
  entityId: z.optional(idField()),
  propertyType: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
});

/** GET /benchmarks/crrem/sites and /benchmarks/crrem/sites/{id}: which pathway set (the newest by default). */
export const crremSitesQuery = onFirstUse(() =>
  z.object({ setId: z.optional(idField()), ...benchmarkFilters() }),
);
export type CrremSitesQuery = z.output<typeof crremSitesQuery>;

export const crremSiteQuery = onFirstUse(() => z.object({ setId: z.optional(idField()) }));

/** GET /benchmarks/{kind}/sites for LETI, REEB and ETN. */
export const energySitesQuery = onFirstUse(() => z.object(benchmarkFilters()));

export const energyKindSchema = onFirstUse(() => z.enum(ENERGY_BENCHMARK_KINDS));

/** POST /benchmarks/crrem/pathway-sets: a pathway CSV in CRREM's layout with its name, version and source. */
export const pathwayUploadSchema = onFirstUse(() =>
  z.object({
    name: nonEmptyField().check(z.maxLength(200)),
    version: nonEmptyField().check(z.maxLength(50)),
    source: nonEmptyField().check(z.maxLength(500)),
    illustrative: z._default(z.boolean(), false),
    csv: z
      .string()
      .check(
        z.minLength(1, 'This field is required'),
        z.maxLength(MAX_PATHWAY_CSV_BYTES, 'The file is too large'),
      ),
  }),
);
export type PathwayUpload = z.output<typeof pathwayUploadSchema>;
