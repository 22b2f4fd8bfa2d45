import * as z from 'zod';
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

// The catalogue's query and the interest form are built on the first call that parses one, so the
// functions declaring their routes start without them.
const optionalNumber = () => z.coerce.number().nonnegative().optional();

/** GET /marketplace/carbon: the catalogue's filters. */
export const carbonProjectsQuery = onFirstUse(() =>
  z.object({
    projectType: z.enum(CARBON_PROJECT_TYPE_KEYS).optional(),
    approach: z.enum(CARBON_APPROACHES).optional(),
    registry: z.enum(CARBON_REGISTRIES).optional(),
    country: z.string().max(100).optional(),
    minVintage: z.coerce.number().int().min(2000).max(2100).optional(),
    maxPrice: optionalNumber(),
    minTonnes: optionalNumber(),
    query: z.string().max(100).optional(),
  }),
);

/** POST /marketplace/carbon/{id}/interest: a company's interest in buying some of a project's tonnes. */
export const carbonInterestSchema = onFirstUse(() =>
  z.object({
    tonnes: z.number({ error: 'Must be a number' }).positive('Must be more than 0').max(10_000_000),
    note: z.string().max(2000).default(''),
  }),
);

export const approachOf = (type: string): CarbonApproach | undefined =>
  CARBON_PROJECT_TYPES.find((t) => t.key === type)?.approach;
