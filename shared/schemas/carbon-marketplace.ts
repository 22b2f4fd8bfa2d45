import * as z from 'zod/mini';
import { onFirstUse } from './on-first-use.ts';

/** Removal takes carbon out of the air; avoidance keeps it from getting there. */
export const CARBON_APPROACHES = ['removal', 'avoidance'] as const;
export type CarbonApproach = (typeof CARBON_APPROACHES)[number];

/** The project types of the catalogue (GET /marketplace/carbon/project-types), each removal or avoidance. */
export const CARBON_PROJECT_TYPES = [
  { key: 'afforestation', name: 'Afforestation and reforestation', approach: 'removal' },
  { key: 'peatland', name: 'Peatland restoration', approach: 'removal' },
  { key: 'biochar', name: 'Biochar', approach: 'removal' },
  { key: 'direct-air-capture', name: 'Direct air capture', approach: 'removal' },
  { key: 'blue-carbon', name: 'Blue carbon (mangroves, seagrass)', approach: 'removal' },
  { key: 'cookstoves', name: 'Clean cookstoves', approach: 'avoidance' },
  { key: 'renewable-energy', name: 'Renewable energy', approach: 'avoidance' },
  { key: 'redd', name: 'Avoided deforestation (REDD+)', approach: 'avoidance' },
  { key: 'landfill-gas', name: 'Landfill gas capture', approach: 'avoidance' },
] as const satisfies readonly { key: string; name: string; approach: CarbonApproach }[];

export type CarbonProjectTypeKey = (typeof CARBON_PROJECT_TYPES)[number]['key'];
export const CARBON_PROJECT_TYPE_KEYS = CARBON_PROJECT_TYPES.map((t) => t.key) as [
  CarbonProjectTypeKey,
  ...CarbonProjectTypeKey[],
];

export const CARBON_REGISTRIES = [
  'Verra',
  'Gold Standard',
  'Puro.earth',
  'UK Woodland Carbon Code',
  'Peatland Code',
] as const;

export const MARKETPLACE_MESSAGES = {
  interestTooLarge: 'Ask for no more than the tonnes available',
  interestSent: 'Thank you: our team will be in touch about this project.',
  problem: 'There was a problem getting the carbon marketplace.',
  /** Shown beside every figure of emissions the catalogue sits near: offsets are never subtracted. */
  notNetted: 'Offsets are reported beside your emissions, never subtracted from them.',
  example: 'Example project: shown to illustrate the marketplace, not for sale.',
} as const;

/** A project of the catalogue, as staff keep it (its schema: `carbon-project.ts`). */
export type { CarbonProject } from './carbon-project.ts';

// The catalogue's query and the interest form are built on the first call that parses one, with zod's small
// build, so the functions declaring their routes start without them and without zod's full build.
const optionalNumber = () => z.optional(z.coerce.number().check(z.nonnegative()));

/** GET /marketplace/carbon: the catalogue's filters. */
export const carbonProjectsQuery = onFirstUse(() =>
  z.object({
    projectType: z.optional(z.enum(CARBON_PROJECT_TYPE_KEYS)),
    approach: z.optional(z.enum(CARBON_APPROACHES)),
    registry: z.optional(z.enum(CARBON_REGISTRIES)),
    country: z.optional(z.string().check(z.maxLength(100))),
    minVintage: z.optional(z.coerce.number().check(z.int(), z.minimum(2000), z.maximum(2100))),
    maxPrice: optionalNumber(),
    minTonnes: optionalNumber(),
    query: z.optional(z.string().check(z.maxLength(100))),
  }),
);

/** POST /marketplace/carbon/{id}/interest: a company's interest in buying some of a project's tonnes. */
export const carbonInterestSchema = onFirstUse(() =>
  z.object({
    tonnes: z
      .number({ error: 'Must be a number' })
      .check(z.positive('Must be more than 0'), z.maximum(10_000_000)),
    note: z._default(z.string().check(z.maxLength(2000)), ''),
  }),
);

export const approachOf = (type: string): CarbonApproach | undefined =>
  CARBON_PROJECT_TYPES.find((t) => t.key === type)?.approach;
