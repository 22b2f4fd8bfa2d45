import * as z from 'zod';
import { ENERGY_BENCHMARK_KINDS } from '../benchmarks/energy-benchmarks.ts';
import { idSchema, nonEmpty } from './common.ts';

/** The largest pathway file taken in one call: CRREM's full set is about 1 MB as CSV. */
export const MAX_PATHWAY_CSV_BYTES = 4_000_000;

/** What narrows a benchmark table: a portfolio, an entity, a property type. */
const benchmarkFilters = {
  assetGroupId: idSchema.optional(),
  entityId: idSchema.optional(),
  propertyType: z.string().trim().min(1).max(100).optional(),
};

/** GET /benchmarks/crrem/sites and /benchmarks/crrem/sites/{id}: which pathway set (the newest by default). */
export const crremSitesQuery = z.object({ setId: idSchema.optional(), ...benchmarkFilters });
export type CrremSitesQuery = z.output<typeof crremSitesQuery>;

export const crremSiteQuery = z.object({ setId: idSchema.optional() });

/** GET /benchmarks/{kind}/sites for LETI, REEB and ETN. */
export const energySitesQuery = z.object(benchmarkFilters);

export const energyKindSchema = z.enum(ENERGY_BENCHMARK_KINDS);

/** POST /benchmarks/crrem/pathway-sets: a pathway CSV in CRREM's layout with its name, version and source. */
export const pathwayUploadSchema = z.object({
  name: nonEmpty.max(200),
  version: nonEmpty.max(50),
  source: nonEmpty.max(500),
  illustrative: z.boolean().default(false),
  csv: z.string().min(1, 'This field is required').max(MAX_PATHWAY_CSV_BYTES, 'The file is too large'),
});
export type PathwayUpload = z.output<typeof pathwayUploadSchema>;
