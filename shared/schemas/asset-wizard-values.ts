/**
 * The site wizard's kinds, statuses and address checks, apart from its schemas (`asset-wizard.ts`): the
 * functions that read a site's country or type at start (benchmarks, pathways) load these without zod's
 * full build.
 */

/** Kinds of site offered by the wizard and the list filter. */
export const ASSET_TYPES = [
  'Office',
  'Retail',
  'Warehouse',
  'Industrial',
  'Residential block',
  'Hotel',
  'Leisure',
  'Education',
  'Healthcare',
  'Mixed use',
  'Other',
] as const;

export const ASSET_STATUSES = ['active', 'inactive', 'sold', 'development'] as const;
export type AssetStatus = (typeof ASSET_STATUSES)[number];

export const UK = 'United Kingdom';
const UK_NAMES = new Set(['', 'uk', 'gb', 'united kingdom', 'great britain', 'england', 'scotland', 'wales']);

/** Outward code (area, district) and inward code (sector, unit), e.g. `EC3N 1DL`. */
const UK_POSTCODE = /^([A-Z]{1,2}[0-9][A-Z0-9]?|GIR)([0-9][A-Z]{2})$/;

/** A UK postcode in its usual form (upper case, one space before the inward code), or undefined if it is none. */
export function normalisePostcode(raw: string): string | undefined {
  const compact = raw.replace(/\s+/g, '').toUpperCase();
  const match = UK_POSTCODE.exec(compact);
  return match ? `${match[1]} ${match[2]}` : undefined;
}

export const isUkCountry = (country: string | undefined) =>
  UK_NAMES.has((country ?? '').trim().toLowerCase());
