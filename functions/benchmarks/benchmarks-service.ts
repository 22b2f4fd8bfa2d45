import type { Caller } from '../../shared/access/caller.ts';
import {
  assessAgainstPathway,
  type CrremAssessment,
  type FloorAreaPeriod,
  type IntensityPoint,
  intensities,
  type MissingField,
  PATHWAY_FIRST_YEAR,
  PATHWAY_LAST_YEAR,
} from '../../shared/benchmarks/crrem.ts';
import {
  compareEnergy,
  type EnergyBenchmarkKind,
  figuresFor,
} from '../../shared/benchmarks/energy-benchmarks.ts';
import {
  normaliseCountry,
  type Pathway,
  parsePathwayCsv,
  pathwayKeysFor,
} from '../../shared/benchmarks/pathways.ts';
import { isUkCountry } from '../../shared/schemas/asset-wizard-values.ts';
import {
  type CrremSitesQuery,
  crremSiteQuery,
  crremSitesQuery,
  energyKindSchema,
  energySitesQuery,
  pathwayUploadSchema,
} from '../../shared/schemas/benchmarks.ts';
import { floorAreaPeriodSchema } from '../../shared/schemas/floor-area-history.ts';
import type {
  CrremRow,
  CrremSiteDetail,
  CrremTable,
  EnergyBenchmarkView,
  EnergyRow,
  EnergyTable,
  PathwaySetView,
} from '../../shared/schemas/responses/benchmarks.ts';
import { type SiteYear, siteYearFigures } from '../analytics/index.ts';
import type { StoredAsset } from '../assets/index.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import {
  listEnergyBenchmarks,
  listPathwaySets,
  type PathwaySet,
  type PathwayTables,
  readPathwayTables,
  type StoredEnergyBenchmark,
  writePathwaySet,
} from './benchmark-repository.ts';

const round = (v: number, places = 2) => Math.round(v * 10 ** places) / 10 ** places;
const text = (v: unknown) => (typeof v === 'string' && v.trim().length > 0 ? v.trim() : undefined);

/** Measured years run to the last whole calendar year: a year under way would read as a fall in use. */
export const lastWholeYear = (now = new Date()) => now.getUTCFullYear() - 1;

/**
 * Only a year with figures in every month counts: a part year would read as a fall in use and bend the
 * site's trend. A site whose figures start mid-year is benchmarked from its first whole year.
 */
export const isWholeYear = (y: SiteYear) => y.months >= 12;

/** What a site is for benchmarking: its type, country and floor area (m²), each absent when not given. */
export interface SiteFacts {
  _id: string;
  siteName: string;
  entityId?: string;
  propertyType?: string;
  country?: string;
  floorAreaM2: number | null;
  floorAreaHistory: FloorAreaPeriod[];
}

/** The stored floor area, which is in m² whatever unit the site is shown in. */
const areaM2 = (area: unknown) =>
  typeof area === 'number' && Number.isFinite(area) && area > 0 ? area : null;

export function siteFacts(site: StoredItem & Pick<Partial<StoredAsset>, 'address'>): SiteFacts {
  const address = site.address && typeof site.address === 'object' ? site.address : undefined;
  // An address without a country is a UK one, as the site wizard reads it; a site with no address has none.
  const typed = text(address?.country);
  const country = address ? (typed && !isUkCountry(typed) ? typed : 'United Kingdom') : undefined;
  // Stored periods were checked on write; one that no longer reads as a period is left out, not guessed at.
  const history = Array.isArray(site.floorAreaHistory) ? site.floorAreaHistory : [];
  const floorAreaHistory = history.flatMap((h): FloorAreaPeriod[] => {
    const parsed = floorAreaPeriodSchema.safeParse(h);
    return parsed.success ? [parsed.data] : [];
  });
  const propertyType = text(site.assetType);
  const entityId = text(site.entityId);
  return {
    _id: site._id,
    siteName: text(site.siteName) ?? site._id,
    ...(entityId ? { entityId } : {}),
    ...(propertyType ? { propertyType } : {}),
    ...(country ? { country } : {}),
    floorAreaM2: areaM2(site.floorArea),
    floorAreaHistory,
  };
}

const setView = (set: PathwaySet): PathwaySetView => ({
  _id: set._id,
  name: set.name,
  version: set.version,
  source: set.source,
  illustrative: set.illustrative,
});

interface Assessed {
  row: CrremRow;
  points?: IntensityPoint[];
  pathway?: Pathway;
}

/** Pathways found by country and type, per set of tables: thousands of sites share a few of each. */
const foundPathways = new WeakMap<PathwayTables, Map<string, Pathway | undefined>>();

function findPathway(tables: PathwayTables, country: string, propertyType: string): Pathway | undefined {
  let found = foundPathways.get(tables);
  if (!found) {
    found = new Map();
    foundPathways.set(tables, found);
  }
  const asked = `${country}\u0000${propertyType}`;
  if (found.has(asked)) return found.get(asked);
  let pathway: Pathway | undefined;
  for (const key of pathwayKeysFor(country, propertyType)) {
    pathway = tables.pathways.get(key);
    if (pathway) break;
  }
  found.set(asked, pathway);
  return pathway;
}

type Latest = NonNullable<CrremAssessment['latest']>;

const roundLatest = (latest: Latest): Latest => {
  const out: Latest = { ...latest };
  for (const k of Object.keys(out) as (keyof Latest)[]) {
    const v = out[k];
    if (typeof v === 'number' && k !== 'year') out[k] = round(v);
  }
  return out;
};

/** One site against its pathway: its row, and the points behind it. */
export function assessSite(
  facts: SiteFacts,
  years: readonly SiteYear[],
  tables: PathwayTables,
  lastYear: number,
): Assessed {
  const base: CrremRow = {
    _id: facts._id,
    siteName: facts.siteName,
    ...(facts.entityId ? { entityId: facts.entityId } : {}),
    ...(facts.propertyType ? { propertyType: facts.propertyType } : {}),
    ...(facts.country ? { country: facts.country } : {}),
    ...(facts.floorAreaM2 !== null ? { floorAreaM2: round(facts.floorAreaM2) } : {}),
    benchmarked: false,
  };
  const missing: MissingField[] = [];
  if (facts.floorAreaM2 === null && facts.floorAreaHistory.length === 0) missing.push('floorArea');
  if (!facts.propertyType) missing.push('propertyType');
  if (!facts.country) missing.push('country');
  const { country, propertyType } = facts;
  if (missing.length > 0 || !country || !propertyType) return { row: { ...base, missing } };
  const pathway = findPathway(tables, country, propertyType);
  if (!pathway) return { row: { ...base, missing: ['pathway'] } };
  const measured = years.filter((y) => isWholeYear(y) && y.year >= PATHWAY_FIRST_YEAR && y.year <= lastYear);
  const grid = tables.gridFactors.get(normaliseCountry(country));
  const points = intensities(measured, { current: facts.floorAreaM2, history: facts.floorAreaHistory }, grid);
  const view = { country: pathway.country, propertyType: pathway.propertyType };
  if (points.length === 0) return { row: { ...base, pathway: view, missing: ['energyData'] }, pathway };
  const assessed = assessAgainstPathway(points, pathway.points);
  return {
    row: {
      ...base,
      benchmarked: true,
      pathway: view,
      ...(assessed.latest ? { latest: roundLatest(assessed.latest) } : {}),
      misalignment: assessed.misalignment,
    },
    points,
    pathway,
  };
}

/** The pathway set asked for, else the newest; none when no set has been loaded. */
async function chosenSet(setId: string | undefined): Promise<PathwaySet | undefined> {
  const sets = await listPathwaySets();
  if (!setId) return sets[0];
  const found = sets.find((s) => s._id === setId);
  if (!found) throw notFound('There is no such pathway set');
  return found;
}

const matchesType = (facts: SiteFacts, propertyType: string | undefined) =>
  !propertyType || facts.propertyType?.toLowerCase() === propertyType.toLowerCase();

/** The CRREM table of every site the caller may read (in a portfolio or entity when asked). */
export async function crremTable(
  caller: Caller,
  query: CrremSitesQuery,
  now = new Date(),
): Promise<CrremTable> {
  const set = await chosenSet(query.setId);
  const lastYear = lastWholeYear(now);
  const years = { from: PATHWAY_FIRST_YEAR, to: lastYear };
  if (!set) return { pathwaySet: null, years, restricted: false, sites: [] as CrremRow[] };
  const [tables, figures] = await Promise.all([
    readPathwayTables(set._id),
    siteYearFigures(
      caller,
      {
        ...(query.assetGroupId ? { assetGroupId: query.assetGroupId } : {}),
        ...(query.entityId ? { entityId: query.entityId } : {}),
      },
      years,
    ),
  ]);
  const sites: CrremRow[] = [];
  for (const s of figures.sites) {
    const facts = siteFacts(s.site);
    if (!matchesType(facts, query.propertyType)) continue;
    // The pathway's own names are for the site's chart: the table of thousands of sites leaves them out.
    const { pathway: _pathway, ...row } = assessSite(facts, s.years, tables, lastYear).row;
    sites.push(row);
  }
  return { pathwaySet: setView(set), years, restricted: figures.restricted, sites };
}

/**
 * The CRREM misalignment year of each of the given sites the caller may read, against the default pathway
 * set; a site that cannot be benchmarked, or stays below its pathway, has none.
 */
export async function crremMisalignmentYears(
  caller: Caller,
  siteIds: readonly string[],
  now = new Date(),
): Promise<ReadonlyMap<string, number>> {
  const set = await chosenSet(undefined);
  const years = new Map<string, number>();
  if (!set || siteIds.length === 0) return years;
  const lastYear = lastWholeYear(now);
  const tables = await readPathwayTables(set._id);
  // A site's calendar asks for one site; a portfolio's for many, read as the table reads them.
  const figures =
    siteIds.length === 1
      ? await siteYearFigures(caller, { assetId: siteIds[0] }, { from: PATHWAY_FIRST_YEAR, to: lastYear })
      : await siteYearFigures(caller, {}, { from: PATHWAY_FIRST_YEAR, to: lastYear });
  const wanted = new Set(siteIds);
  for (const s of figures.sites) {
    if (!wanted.has(s.site._id)) continue;
    const year = assessSite(siteFacts(s.site), s.years, tables, lastYear).row.misalignment?.year;
    if (typeof year === 'number') years.set(s.site._id, year);
  }
  return years;
}

/** GET /benchmarks/crrem/sites */
const crremSites = operation(
  { query: crremSitesQuery },
  async (ctx): Promise<OpResult> => ({
    body: await crremTable(ctx.caller, ctx.query),
  }),
);

/** GET /benchmarks/crrem/sites/{id}: one site's intensities 2020–2050 against its pathway. */
const crremSite = operation({ params: ['id'], query: crremSiteQuery }, async (ctx): Promise<OpResult> => {
  const set = await chosenSet(ctx.query.setId);
  if (!set) throw notFound('No pathway set has been loaded');
  const lastYear = lastWholeYear();
  const [tables, figures] = await Promise.all([
    readPathwayTables(set._id),
    siteYearFigures(ctx.caller, { assetId: ctx.params.id }, { from: PATHWAY_FIRST_YEAR, to: lastYear }),
  ]);
  const found = figures.sites.find((s) => s.site._id === ctx.params.id);
  if (!found) throw notFound();
  const assessed = assessSite(siteFacts(found.site), found.years, tables, lastYear);
  return {
    body: {
      pathwaySet: setView(set),
      site: assessed.row,
      points: (assessed.points ?? [])
        .filter((p) => p.year >= PATHWAY_FIRST_YEAR && p.year <= PATHWAY_LAST_YEAR)
        .map((p) => ({
          ...p,
          kwhM2: round(p.kwhM2),
          kgCo2eM2: round(p.kgCo2eM2),
          floorAreaM2: round(p.floorAreaM2),
        })),
      pathway:
        assessed.pathway?.points.filter((p) => p.year >= PATHWAY_FIRST_YEAR && p.year <= PATHWAY_LAST_YEAR) ??
        [],
    } satisfies CrremSiteDetail,
  };
});

/** GET /benchmarks/crrem/pathway-sets */
const pathwaySets = operation(
  {},
  async (): Promise<OpResult> => ({ body: { data: await listPathwaySets() } }),
);

/** POST /benchmarks/crrem/pathway-sets: staff load a pathway set from CRREM's layout; any bad row refuses it. */
const uploadPathways = operation({}, async (ctx): Promise<OpResult> => {
  const upload = parseOrThrow(pathwayUploadSchema, ctx.body);
  const parsed = parsePathwayCsv(upload.csv);
  if (parsed.errors.length > 0) {
    const shown = parsed.errors.slice(0, 10).map((e) => `Row ${e.row}: ${e.message}`);
    const more = parsed.errors.length - shown.length;
    throw formError(
      { csv: [...shown, ...(more > 0 ? [`and ${more} more`] : [])].join('; ') },
      'The pathway file has errors',
    );
  }
  const set: PathwaySet = {
    _id: newId(),
    name: upload.name,
    version: upload.version,
    source: upload.source,
    illustrative: upload.illustrative,
    countries: [...new Set(parsed.pathways.map((p) => p.country))].sort(),
    propertyTypes: [...new Set(parsed.pathways.map((p) => p.propertyType))].sort(),
    pathways: parsed.pathways.length,
    uploadedAt: new Date().toISOString(),
    uploadedBy: ctx.caller.sub,
  };
  await writePathwaySet(set, parsed.pathways, parsed.gridFactors);
  return { status: 201, body: set };
});

function benchmarkView(item: StoredEnergyBenchmark): EnergyBenchmarkView | undefined {
  const values = item.values ?? {};
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const target = num(values.target) ?? num(values.energyUseIntensityKwhPerM2);
  const goodPractice = num(values.goodPractice);
  const typical = num(values.typical);
  const propertyType = text(item.propertyType);
  if (!propertyType) return undefined;
  const optional = (k: 'source' | 'period' | 'version' | 'check') => {
    const v = text(item[k]);
    return v ? { [k]: v } : {};
  };
  return {
    _id: item._id,
    name: text(item.name) ?? '',
    propertyType,
    ...(target === undefined ? {} : { target }),
    ...(goodPractice === undefined ? {} : { goodPractice }),
    ...(typical === undefined ? {} : { typical }),
    ...optional('source'),
    ...optional('period'),
    ...optional('version'),
    ...optional('check'),
    // A figure not confirmed against its source is illustrative, whatever the item says.
    illustrative: item.illustrative === true || text(item.check) !== undefined,
  };
}

/** The sites the caller may read against an energy benchmark set, on their latest whole year. */
export async function energyTable(
  caller: Caller,
  kind: EnergyBenchmarkKind,
  query: { assetGroupId?: string; entityId?: string; propertyType?: string },
  now = new Date(),
): Promise<EnergyTable> {
  const lastYear = lastWholeYear(now);
  const [items, figures] = await Promise.all([
    listEnergyBenchmarks(),
    siteYearFigures(
      caller,
      {
        ...(query.assetGroupId ? { assetGroupId: query.assetGroupId } : {}),
        ...(query.entityId ? { entityId: query.entityId } : {}),
      },
      { from: lastYear - 2, to: lastYear },
    ),
  ]);
  const benchmarks = items
    .filter((b) => b.kind === kind)
    .flatMap((b) => benchmarkView(b) ?? [])
    .sort((a, b) => a.propertyType.localeCompare(b.propertyType));
  const sites: EnergyRow[] = [];
  for (const s of figures.sites) {
    const facts = siteFacts(s.site);
    if (!matchesType(facts, query.propertyType)) continue;
    const base: EnergyRow = {
      _id: facts._id,
      siteName: facts.siteName,
      ...(facts.entityId ? { entityId: facts.entityId } : {}),
      ...(facts.propertyType ? { propertyType: facts.propertyType } : {}),
      ...(facts.floorAreaM2 !== null ? { floorAreaM2: round(facts.floorAreaM2) } : {}),
      benchmarked: false,
    };
    const missing: MissingField[] = [];
    if (facts.floorAreaM2 === null) missing.push('floorArea');
    if (!facts.propertyType) missing.push('propertyType');
    const { floorAreaM2, propertyType } = facts;
    if (missing.length > 0 || floorAreaM2 === null || !propertyType) {
      sites.push({ ...base, missing });
      continue;
    }
    const figuresOfType = figuresFor(benchmarks, propertyType) as EnergyBenchmarkView | undefined;
    if (!figuresOfType) {
      sites.push({ ...base, missing: ['benchmark'] });
      continue;
    }
    const latest = [...s.years].reverse().find((y) => isWholeYear(y) && y.energyKwh > 0);
    if (!latest) {
      sites.push({ ...base, benchmarkId: figuresOfType._id, missing: ['energyData'] });
      continue;
    }
    const kwhM2 = latest.energyKwh / floorAreaM2;
    const comparison = compareEnergy(kwhM2, figuresOfType);
    sites.push({
      ...base,
      benchmarked: true,
      year: latest.year,
      kwhM2: round(kwhM2),
      benchmarkId: figuresOfType._id,
      comparison: { ...comparison, ...(comparison.gap === undefined ? {} : { gap: round(comparison.gap) }) },
    });
  }
  return { kind, benchmarks, restricted: figures.restricted, sites };
}

/** GET /benchmarks/{kind}/sites for LETI, REEB and ETN. */
const energySites = operation(
  { params: ['kind'], query: energySitesQuery },
  async (ctx): Promise<OpResult> => {
    const kind = energyKindSchema.safeParse(ctx.params.kind);
    if (!kind.success) throw notFound(`There is no benchmark called ${ctx.params.kind}`);
    return { body: await energyTable(ctx.caller, kind.data, ctx.query) };
  },
);

export const BENCHMARK_OPERATIONS: Operations = {
  'benchmarks.crremSites': crremSites,
  'benchmarks.crremSite': crremSite,
  'benchmarks.pathwaySets': pathwaySets,
  'benchmarks.uploadPathways': uploadPathways,
  'benchmarks.energySites': energySites,
};
