import * as z from 'zod';
import { CARBON_PROJECT_TYPE_KEYS, CARBON_REGISTRIES } from './carbon-marketplace.ts';
import { nonEmpty } from './common.ts';

/**
 * A project of the catalogue, as staff keep it: the resource's schema, apart from the catalogue's query and
 * interest form, so that only the functions storing projects build it.
 */
const documentSchema = z.object({ name: nonEmpty.max(200), url: z.string().url().max(1000) });

export const carbonProjectSchema = z.object({
  name: nonEmpty.max(200),
  projectType: z.enum(CARBON_PROJECT_TYPE_KEYS),
  registry: z.enum(CARBON_REGISTRIES),
  registryId: z.string().max(100).optional(),
  vintage: z.number().int().min(2000).max(2100),
  country: z.string().max(100),
  location: z.string().max(200).optional(),
  description: z.string().max(5000).default(''),
  pricePerTonne: z.number().nonnegative(),
  currency: z.enum(['GBP', 'EUR', 'USD']).default('GBP'),
  availableTonnes: z.number().nonnegative(),
  documents: z.array(documentSchema).max(20).default([]),
  /** Demo data: shown with an "example" label and never offered for sale. */
  isExample: z.boolean().default(false),
});
export type CarbonProject = z.output<typeof carbonProjectSchema> & { _id: string };
