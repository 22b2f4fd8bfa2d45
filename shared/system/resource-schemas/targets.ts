import { benchmarkSchema } from '../../schemas/insights.ts';
import { targetFields } from '../../schemas/targets.ts';
import { registerResourceSchemas } from '../resource-schemas.ts';

/** The schemas of the resources the targets function serves. */
export const RESOURCE_SCHEMAS = registerResourceSchemas('targets', {
  targets: { schema: targetFields() },
  benchmarks: { schema: benchmarkSchema },
});
