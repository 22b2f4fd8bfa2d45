/**
 * CRREM assessment of one site: its energy and carbon intensity per year against its country's and
 * property type's decarbonisation pathway, projected to 2050, and the year it is misaligned from.
 */

import { type FloorAreaPeriod, floorAreaOfYear } from '../schemas/floor-area-history.ts';

export type { FloorAreaPeriod } from '../schemas/floor-area-history.ts';

export const PATHWAY_FIRST_YEAR = 2020;
export const PATHWAY_LAST_YEAR = 2050;

/** One year of a pathway: the most a square metre may use and emit that year. */
export interface PathwayPoint {
  year: number;
  kwhM2: number;
  kgCo2eM2: number;
}

/** A site's measured year: energy (kWh) and emissions (kg CO2e), the electricity part on its own. */
export interface SiteYearFigures {
  year: number;
  energyKwh: number;
  emissionsKg: number;
  electricityKwh: number;
  electricityKg: number;
}

export interface IntensityPoint {
  year: number;
  kwhM2: number;
  kgCo2eM2: number;
  /** The floor area the year was divided by. */
  floorAreaM2: number;
  /** Worked forward from the site's trend rather than measured. */
  projected: boolean;
}

/** The floor area in force in a year (the day-weighted mean over its periods), else the site's current area. */
export function floorAreaInForce(
  year: number,
  current: number | null,
  history: readonly FloorAreaPeriod[] = [],
): number | null {
  const area = floorAreaOfYear(
    year,
    current !== null && Number.isFinite(current) && current > 0 ? current : null,
    history,
  );
  return area !== null && Number.isFinite(area) && area > 0 ? area : null;
}

/**
 * The yearly change of a site's energy intensity: the compound rate between its first and last measured
 * years, so one good or bad year in the middle does not swing the projection. One year gives no trend.
 */
export function intensityTrend(points: readonly IntensityPoint[]): number {
  const measured = points.filter((p) => !p.projected && p.kwhM2 > 0);
  const first = measured[0];
  const last = measured[measured.length - 1];
  if (!first || !last || last.year === first.year) return 0;
  return (last.kwhM2 / first.kwhM2) ** (1 / (last.year - first.year)) - 1;
}

/**
 * A site's intensities: each measured year over the floor area in force that year, then each later year
 * to 2050 projected from the last measured one. Energy follows the site's own trend; the electricity part
 * of its emissions also follows the grid factor's decline (`gridFactors`, kg CO2e per kWh by year, from the
 * last measured year on), the rest keeps its last factor. Without grid factors for both years the
 * electricity factor is held where it was.
 */
export function intensities(
  years: readonly SiteYearFigures[],
  floorArea: { current: number | null; history?: readonly FloorAreaPeriod[] },
  gridFactors: ReadonlyMap<number, number> = new Map(),
  lastYear = PATHWAY_LAST_YEAR,
): IntensityPoint[] {
  const measured: (IntensityPoint & { electricityKwhM2: number; electricityKgM2: number })[] = [];
  for (const y of [...years].sort((a, b) => a.year - b.year)) {
    const area = floorAreaInForce(y.year, floorArea.current, floorArea.history);
    if (area === null || y.energyKwh <= 0) continue;
    measured.push({
      year: y.year,
      kwhM2: y.energyKwh / area,
      kgCo2eM2: y.emissionsKg / area,
      floorAreaM2: area,
      projected: false,
      electricityKwhM2: y.electricityKwh / area,
      electricityKgM2: y.electricityKg / area,
    });
  }
  const last = measured[measured.length - 1];
  if (!last) return [];
  const trend = intensityTrend(measured);
  const baseGrid = gridFactors.get(last.year);
  const otherKgM2 = last.kgCo2eM2 - last.electricityKgM2;
  const projected: IntensityPoint[] = [];
  for (let year = last.year + 1; year <= lastYear; year++) {
    const scale = (1 + trend) ** (year - last.year);
    const grid = gridFactors.get(year);
    const gridScale = baseGrid && grid !== undefined ? grid / baseGrid : 1;
    projected.push({
      year,
      kwhM2: last.kwhM2 * scale,
      kgCo2eM2: scale * (last.electricityKgM2 * gridScale + otherKgM2),
      floorAreaM2: last.floorAreaM2,
      projected: true,
    });
  }
  return [...measured.map(({ electricityKwhM2: _k, electricityKgM2: _g, ...p }) => p), ...projected];
}

/**
 * The misalignment year: the first year from which the site's intensity stays above the pathway through
 * the pathway's last year. Null when the site ends at or below the pathway (it may rise above it for a
 * while and come back under). Years before the site's first measured one, or without a pathway value,
 * are not judged.
 */
export function misalignmentYear(
  series: readonly { year: number; value: number }[],
  pathway: ReadonlyMap<number, number>,
): number | null {
  // Walked back from the last year; a series out of year order (never so from `intensities`) is sorted first.
  let ordered = true;
  for (let i = 1; i < series.length && ordered; i++)
    ordered = (series[i - 1] as { year: number }).year <= (series[i] as { year: number }).year;
  const judged = ordered ? series : [...series].sort((a, b) => a.year - b.year);
  let from: number | null = null;
  for (let i = judged.length - 1; i >= 0; i--) {
    const p = judged[i] as { year: number; value: number };
    const limit = pathway.get(p.year);
    if (limit === undefined) continue;
    if (!(p.value > limit)) break;
    from = p.year;
  }
  return from;
}

/** What a site lacks to be benchmarked; it is listed with these rather than dropped or shown as zero. */
export type MissingField = 'floorArea' | 'propertyType' | 'country' | 'pathway' | 'benchmark' | 'energyData';

export const MISSING_FIELD_LABELS: Readonly<Record<MissingField, string>> = {
  floorArea: 'Floor area',
  propertyType: 'Property type',
  country: 'Country',
  pathway: 'No pathway for its country and property type',
  benchmark: 'No benchmark for its property type',
  energyData: 'No whole year of energy figures',
};

export interface CrremAssessment {
  points: IntensityPoint[];
  /** Years carbon and energy intensity stay above the pathway from; the earlier of the two in `year`. */
  misalignment: { year: number | null; carbon: number | null; energy: number | null };
  /** The latest measured year against the pathway that year (positive: above it). */
  latest?: {
    year: number;
    kwhM2: number;
    kgCo2eM2: number;
    floorAreaM2: number;
    pathwayKwhM2?: number;
    pathwayKgCo2eM2?: number;
    carbonGap?: number;
    energyGap?: number;
  };
}

const earliest = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));

/** A pathway's values by year, built once per pathway: a table assesses thousands of sites against a few. */
const pathwayMaps = new WeakMap<
  readonly PathwayPoint[],
  { kwh: ReadonlyMap<number, number>; kg: ReadonlyMap<number, number> }
>();

function byYear(pathway: readonly PathwayPoint[]) {
  let maps = pathwayMaps.get(pathway);
  if (!maps) {
    maps = {
      kwh: new Map(pathway.map((p) => [p.year, p.kwhM2])),
      kg: new Map(pathway.map((p) => [p.year, p.kgCo2eM2])),
    };
    pathwayMaps.set(pathway, maps);
  }
  return maps;
}

/**
 * The first year from which `value` of the points stays above the pathway, as `misalignmentYear` works it
 * out, read straight off the points: a table assesses thousands of sites and needs no series of its own.
 */
function misalignedFrom(
  points: readonly IntensityPoint[],
  value: (p: IntensityPoint) => number,
  pathway: ReadonlyMap<number, number>,
): number | null {
  for (let i = 1; i < points.length; i++)
    if ((points[i - 1] as IntensityPoint).year > (points[i] as IntensityPoint).year)
      return misalignmentYear(
        points.map((p) => ({ year: p.year, value: value(p) })),
        pathway,
      );
  let from: number | null = null;
  for (let i = points.length - 1; i >= 0; i--) {
    const p = points[i] as IntensityPoint;
    const limit = pathway.get(p.year);
    if (limit === undefined) continue;
    if (!(value(p) > limit)) break;
    from = p.year;
  }
  return from;
}

const carbonOf = (p: IntensityPoint) => p.kgCo2eM2;
const energyOf = (p: IntensityPoint) => p.kwhM2;

/** A site's intensities against its pathway, and the years it is misaligned from. */
export function assessAgainstPathway(
  points: readonly IntensityPoint[],
  pathway: readonly PathwayPoint[],
): CrremAssessment {
  const { kwh, kg } = byYear(pathway);
  const carbon = misalignedFrom(points, carbonOf, kg);
  const energy = misalignedFrom(points, energyOf, kwh);
  let last: IntensityPoint | undefined;
  for (let i = points.length - 1; i >= 0 && !last; i--) if (!points[i]?.projected) last = points[i];
  let latest: CrremAssessment['latest'];
  if (last) {
    const pk = kwh.get(last.year);
    const pc = kg.get(last.year);
    latest = {
      year: last.year,
      kwhM2: last.kwhM2,
      kgCo2eM2: last.kgCo2eM2,
      floorAreaM2: last.floorAreaM2,
      ...(pk === undefined ? {} : { pathwayKwhM2: pk, energyGap: last.kwhM2 - pk }),
      ...(pc === undefined ? {} : { pathwayKgCo2eM2: pc, carbonGap: last.kgCo2eM2 - pc }),
    };
  }
  return {
    points: [...points],
    misalignment: { year: earliest(carbon, energy), carbon, energy },
    ...(latest ? { latest } : {}),
  };
}
