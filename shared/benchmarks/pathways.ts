import { CsvError, parseCsv } from '../files/csv.ts';
import { isUkCountry } from '../schemas/asset-wizard-values.ts';
import { PATHWAY_FIRST_YEAR, PATHWAY_LAST_YEAR, type PathwayPoint } from './crrem.ts';

/** One pathway of a set: a country's and property type's yearly limits. */
export interface Pathway {
  country: string;
  propertyType: string;
  points: PathwayPoint[];
}

/** A pathway set as uploaded: CRREM's published layout, one row per country, property type and year. */
export interface ParsedPathways {
  pathways: Pathway[];
  /** Grid electricity factors (kg CO2e per kWh) by country and year, when the file gives them. */
  gridFactors: { country: string; year: number; kgPerKwh: number }[];
  errors: { row: number; message: string }[];
}

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The header names each column goes by (compared without case, spaces or punctuation). */
const COLUMNS = {
  country: ['country', 'countrycode', 'country/region'],
  propertyType: ['propertytype', 'type', 'assettype', 'usetype'],
  year: ['year'],
  kwhM2: ['kwhm2', 'kwhm2yr', 'kwhm²', 'kwhm²yr', 'energyintensity', 'energy'],
  kgCo2eM2: ['kgco2em2', 'kgco2em2yr', 'kgco2em²', 'kgco2em²yr', 'carbonintensity', 'carbon', 'ghgintensity'],
  gridKgPerKwh: ['gridkgco2ekwh', 'gridfactor', 'emissionfactor', 'kgco2ekwh'],
} as const;
type Column = keyof typeof COLUMNS;

function columnsOf(header: readonly string[]): Partial<Record<Column, number>> {
  const found: Partial<Record<Column, number>> = {};
  header.forEach((name, i) => {
    const key = squash(name);
    for (const [column, names] of Object.entries(COLUMNS) as [Column, readonly string[]][]) {
      if (found[column] === undefined && names.map(squash).includes(key)) found[column] = i;
    }
  });
  return found;
}

const numberOf = (raw: string | undefined) => {
  const text = (raw ?? '').trim().replace(/,/g, '');
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : Number.NaN;
};

/**
 * Reads a pathway CSV (country, property type, year, kWh/m², kgCO2e/m², and optionally the grid factor).
 * Every bad row is named; a file with any error stores nothing, so a set is never half loaded.
 */
export function parsePathwayCsv(text: string): ParsedPathways {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvError)
      return { pathways: [], gridFactors: [], errors: [{ row: err.row, message: err.message }] };
    throw err;
  }
  const [header, ...rows] = records;
  const errors: ParsedPathways['errors'] = [];
  if (!header) return { pathways: [], gridFactors: [], errors: [{ row: 1, message: 'The file is empty' }] };
  const at = columnsOf(header.fields);
  const required: Column[] = ['country', 'propertyType', 'year', 'kwhM2', 'kgCo2eM2'];
  const lacking = required.filter((c) => at[c] === undefined);
  if (lacking.length > 0) {
    return {
      pathways: [],
      gridFactors: [],
      errors: [{ row: 1, message: `Missing columns: ${lacking.join(', ')}` }],
    };
  }
  const byKey = new Map<string, Pathway>();
  const grid = new Map<string, { country: string; year: number; kgPerKwh: number }>();
  for (const record of rows) {
    const field = (c: Column) => {
      const i = at[c];
      return i === undefined ? undefined : record.fields[i];
    };
    const country = (field('country') ?? '').trim();
    const propertyType = (field('propertyType') ?? '').trim();
    const year = numberOf(field('year'));
    const kwhM2 = numberOf(field('kwhM2'));
    const kgCo2eM2 = numberOf(field('kgCo2eM2'));
    const gridKg = numberOf(field('gridKgPerKwh'));
    const problems: string[] = [];
    if (!country) problems.push('country is empty');
    if (!propertyType) problems.push('property type is empty');
    if (
      year === undefined ||
      !Number.isInteger(year) ||
      year < PATHWAY_FIRST_YEAR - 30 ||
      year > PATHWAY_LAST_YEAR + 50
    )
      problems.push('year must be a whole year');
    if (kwhM2 === undefined || Number.isNaN(kwhM2) || kwhM2 < 0)
      problems.push('kWh/m² must be a number, 0 or more');
    if (kgCo2eM2 === undefined || Number.isNaN(kgCo2eM2) || kgCo2eM2 < 0)
      problems.push('kgCO2e/m² must be a number, 0 or more');
    if (gridKg !== undefined && (Number.isNaN(gridKg) || gridKg < 0))
      problems.push('grid factor must be a number, 0 or more');
    if (problems.length > 0) {
      errors.push({ row: record.row, message: problems.join('; ') });
      continue;
    }
    const key = pathwayKey(country, propertyType);
    const pathway = byKey.get(key) ?? { country, propertyType, points: [] };
    if (pathway.points.some((p) => p.year === year)) {
      errors.push({ row: record.row, message: `${country}, ${propertyType}, ${year} is given twice` });
      continue;
    }
    pathway.points.push({ year: year as number, kwhM2: kwhM2 as number, kgCo2eM2: kgCo2eM2 as number });
    byKey.set(key, pathway);
    if (gridKg !== undefined)
      grid.set(`${normaliseCountry(country)}|${year}`, { country, year: year as number, kgPerKwh: gridKg });
  }
  if (rows.length === 0) errors.push({ row: 1, message: 'The file has no pathway rows' });
  const pathways = [...byKey.values()].map((p) => ({
    ...p,
    points: p.points.sort((a, b) => a.year - b.year),
  }));
  return { pathways, gridFactors: [...grid.values()], errors };
}

/** Countries as a site and a pathway file may spell them: the United Kingdom by any of its usual names. */
export function normaliseCountry(country: string): string {
  const text = country.trim().toLowerCase();
  return isUkCountry(text) ? 'united kingdom' : text;
}

/**
 * The names a site type may go by in a pathway set: its own, and CRREM's labels for the same kind of
 * building. A type with no counterpart (mixed use, other) matches only a pathway of its own name.
 */
const PROPERTY_TYPE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  office: ['office'],
  retail: [
    'retail',
    'retail high street',
    'retail, high street',
    'retail shopping centre',
    'retail, shopping center',
  ],
  warehouse: [
    'warehouse',
    'industrial distribution warehouse',
    'industrial, distribution warehouse',
    'distribution warehouse',
  ],
  industrial: ['industrial', 'industrial distribution warehouse', 'industrial, distribution warehouse'],
  'residential block': ['residential block', 'residential', 'residential multi-family'],
  hotel: ['hotel'],
  leisure: ['leisure', 'lodging, leisure & recreation', 'lodging leisure recreation'],
  education: ['education'],
  healthcare: ['healthcare', 'health care'],
};

export const pathwayKey = (country: string, propertyType: string) =>
  `${normaliseCountry(country)}|${squash(propertyType)}`;

/** The keys a site's pathway may be stored under, best match first. */
export function pathwayKeysFor(country: string, propertyType: string): string[] {
  const own = propertyType.trim().toLowerCase();
  const names = [own, ...(PROPERTY_TYPE_ALIASES[own] ?? [])];
  return [...new Set(names.map((n) => pathwayKey(country, n)))];
}
