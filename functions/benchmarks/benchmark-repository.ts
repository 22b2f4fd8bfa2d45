/**
 * CRREM pathway sets, loaded by staff from the licensed workbook, and the published energy benchmark sets
 * (LETI, REEB, ETN) the generic `benchmarks` resource keeps. Both are shared by every company.
 *
 * | pattern                                    | key condition                                         | index |
 * | ------------------------------------------ | ----------------------------------------------------- | ----- |
 * | every pathway set (name, version, source)  | pk = G#crrem-pathway-sets                             | table |
 * | write a pathway set (after its pathways)   | pk = G#crrem-pathway-sets, sk = setId                 | table |
 * | every pathway and grid factor of a set     | pk = G#crrem-pathways#{setId}                         | table |
 * | write a set's pathways and grid factors    | pk = G#crrem-pathways#{setId}, sk = path#… / grid#…   | table |
 * | every energy benchmark of every kind       | pk = G#benchmarks                                     | table |
 */
import type { PathwayPoint } from '../../shared/benchmarks/crrem.ts';
import { normaliseCountry, type Pathway, pathwayKey } from '../../shared/benchmarks/pathways.ts';
import { putRaw, queryAll, queryEvery, type StoredItem } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { inPool } from '../core/lib/in-pool.ts';

const SETS_PK = keys.collection({}, 'crrem-pathway-sets');
const pathwaysPk = (setId: string) => keys.collection({}, `crrem-pathways#${setId}`);
const BENCHMARKS_PK = keys.collection({}, 'benchmarks');

/** A pathway set as listed: every result computed from it names it by name and version. */
export interface PathwaySet {
  _id: string;
  name: string;
  version: string;
  source: string;
  /** Made up for the demo, not CRREM's figures: shown as such wherever it is used. */
  illustrative: boolean;
  countries: string[];
  propertyTypes: string[];
  pathways: number;
  uploadedAt: string;
  uploadedBy: string;
}

/** A set's pathways by key (`pathwayKey`) and its grid factors by country and year. */
export interface PathwayTables {
  pathways: Map<string, Pathway>;
  gridFactors: Map<string, Map<number, number>>;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const texts = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

function setOf(item: StoredItem): PathwaySet {
  return {
    _id: item._id,
    name: text(item.name),
    version: text(item.version),
    source: text(item.source),
    illustrative: item.illustrative === true,
    countries: texts(item.countries),
    propertyTypes: texts(item.propertyTypes),
    pathways: Number(item.pathways) || 0,
    uploadedAt: text(item.uploadedAt),
    uploadedBy: text(item.uploadedBy),
  };
}

/** Every pathway set, newest first. */
export async function listPathwaySets(): Promise<PathwaySet[]> {
  const items = await queryAll(SETS_PK);
  return items.map(setOf).sort((a, b) => b.uploadedAt.localeCompare(a.uploadedAt));
}

/** Points are stored as [year, kWh/m², kgCO2e/m²] triples: a whole pathway is a few hundred bytes. */
type StoredPoint = [number, number, number];

/** A set's pathways and grid factors, in one partition read. */
export async function readPathwayTables(setId: string): Promise<PathwayTables> {
  const items = await queryEvery({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pathwaysPk(setId) },
  });
  const pathways = new Map<string, Pathway>();
  const gridFactors = new Map<string, Map<number, number>>();
  for (const item of items) {
    const points = (Array.isArray(item.points) ? item.points : []) as StoredPoint[];
    if (item.kind === 'grid') {
      gridFactors.set(text(item.country), new Map(points.map(([year, kg]) => [year, kg])));
      continue;
    }
    const pathway: Pathway = {
      country: text(item.country),
      propertyType: text(item.propertyType),
      points: points.map(([year, kwhM2, kgCo2eM2]): PathwayPoint => ({ year, kwhM2, kgCo2eM2 })),
    };
    pathways.set(pathwayKey(pathway.country, pathway.propertyType), pathway);
  }
  return { pathways, gridFactors };
}

/**
 * Stores a set: its pathways and grid factors first, the set's own item last, so a set is listed only
 * once it is whole.
 */
export async function writePathwaySet(
  set: PathwaySet,
  pathways: readonly Pathway[],
  gridFactors: readonly { country: string; year: number; kgPerKwh: number }[],
): Promise<void> {
  const pk = pathwaysPk(set._id);
  const grid = new Map<string, { country: string; points: [number, number][] }>();
  for (const g of gridFactors) {
    const country = normaliseCountry(g.country);
    const entry = grid.get(country) ?? { country, points: [] };
    entry.points.push([g.year, g.kgPerKwh]);
    grid.set(country, entry);
  }
  const items = [
    ...pathways.map((p) => ({
      pk,
      sk: `path#${pathwayKey(p.country, p.propertyType)}`,
      _id: pathwayKey(p.country, p.propertyType),
      kind: 'pathway',
      country: p.country,
      propertyType: p.propertyType,
      points: p.points.map((q): StoredPoint => [q.year, q.kwhM2, q.kgCo2eM2]),
    })),
    ...[...grid.values()].map((g) => ({
      pk,
      sk: `grid#${g.country}`,
      _id: `grid#${g.country}`,
      kind: 'grid',
      country: g.country,
      points: g.points.sort((a, b) => a[0] - b[0]),
    })),
  ];
  await inPool(items, 8, putRaw);
  await putRaw({ pk: SETS_PK, sk: set._id, ...set });
}

/** An energy benchmark as the generic resource stores it: its figures by name, as the source gives them. */
export type StoredEnergyBenchmark = StoredItem & { values?: Record<string, unknown> };

/** Figures that are not an object read as none, as if the benchmark had no figures. */
const toEnergyBenchmark = (item: StoredItem): StoredEnergyBenchmark =>
  item.values && typeof item.values === 'object' ? item : { ...item, values: {} };

/** Every live energy benchmark (LETI, REEB, ETN and the rest) as the generic resource stores them. */
export async function listEnergyBenchmarks(): Promise<StoredEnergyBenchmark[]> {
  return (await queryAll(BENCHMARKS_PK)).filter((b) => b.deleted !== true).map(toEnergyBenchmark);
}
