import * as z from 'zod';
import { ENERGY_BENCHMARK_KINDS } from '../benchmarks/energy-benchmarks.ts';
import { idField, nonEmptyField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

/** The largest pathway file taken in one call: CRREM's full set is about 1 MB as CSV. */
export const MAX_PATHWAY_CSV_BYTES = 4_000_000;

// The schemas are built on the first call that parses one: the function declaring the routes starts
// without them.

/** What narrows a benchmark table: a portfolio, an entity, a property type. */
const benchmarkFilters = () => ({
  assetGroupId: idField().optional(),
  entityId: idField().optional(),
  propertyType: z.string().trim().min(1).max(100).optional(),
});

/** GET /benchmarks/crrem/sites and /benchmarks/crrem/sites/{id}: which pathway set (the newest by default). */
export const crremSitesQuery = onFirstUse(() =>
  z.object({ setId: idField().optional(), ...benchmarkFilters() }),
);
export type CrremSitesQuery = z.output<typeof crremSitesQuery>;

export const crremSiteQuery = onFirstUse(() => z.object({ setId: idField().optional() }));

/** GET /benchmarks/{kind}/sites for LETI, REEB and ETN. */
export const energySitesQuery = onFirstUse(() => z.object(benchmarkFilters()));

export const energyKindSchema = onFirstUse(() => z.enum(ENERGY_BENCHMARK_KINDS));

/** POST /benchmarks/crrem/pathway-sets: a pathway CSV in CRREM's layout with its name, version and source. */
export const pathwayUploadSchema = onFirstUse(() =>
  z.object({
    name: nonEmptyField().max(200),
    version: nonEmptyField().max(50),
    source: nonEmptyField().max(500),
    illustrative: z.boolean().default(false),
    csv: z.string().min(1, 'This field is required').max(MAX_PATHWAY_CSV_BYTES, 'The file is too large'),
  }),
);
export type PathwayUpload = z.output<typeof pathwayUploadSchema>;
