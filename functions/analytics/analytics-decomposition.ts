import { type DateRange, decomposeEmissionsChange } from '../../shared/analytics/index.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import type { EmissionsChange } from '../../shared/schemas/responses/analytics.ts';
import { floorAreaM2 } from './analytics-epc.ts';
import type { MonthFigure, Totals } from './analytics-figures.ts';

export type { EmissionsChange };

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The window's and the comparison's floor area. A site counts in a year when it holds figures in it, so
 * a site added or sold shows as floor area gained or lost. Figures read from a company's or portfolio's
 * own roll-up do not say which sites they came from: then every site of the scope counts in both years,
 * and the area effect is nil (sites' floor area has no history of its own).
 */
export function floorAreas(
  sites: readonly Readonly<Record<string, unknown>>[],
  rows: readonly MonthFigure[],
  window: DateRange,
  compared: DateRange,
): { previous: number; current: number } {
  const bySite = rows.some((r) => r.assetId !== undefined);
  const within = (w: DateRange) => {
    const [from, to] = [w.start.slice(0, 7), w.end.slice(0, 7)];
    return new Set(
      rows
        .filter((r) => r.assetId && r.month >= from && r.month <= to && r.emissionsKg !== 0)
        .map((r) => r.assetId),
    );
  };
  const areaOf = (held: Set<string | undefined> | undefined) =>
    sites.reduce(
      (n, s) => (s.deleted !== true && (!held || held.has(String(s._id))) ? n + floorAreaM2(s) : n),
      0,
    );
  return {
    previous: areaOf(bySite ? within(compared) : undefined),
    current: areaOf(bySite ? within(window) : undefined),
  };
}

/**
 * Splits the change between two totals into consumption, factor and floor-area effects (LMDI-I, see
 * shared/analytics/decomposition.ts), one item per utility, each utility's factor its emissions per unit.
 * The effects are rounded to grams and consumption takes what rounding left, so the three add up to the
 * change between the totals the answer shows, to the gram.
 */
export function emissionsChangeOf(
  previous: Totals,
  current: Totals,
  area: { previous: number; current: number },
): EmissionsChange {
  const utilities = [
    ...new Set([...Object.keys(previous.utilities), ...Object.keys(current.utilities)]),
  ] as UtilityType[];
  const items = utilities.map((u) => {
    const before = previous.utilities[u];
    const now = current.utilities[u];
    // A utility without a consumption figure (units that would not convert) is carried by its emissions.
    const side = (f: typeof before) => {
      const kg = f?.emissionsKg ?? 0;
      const quantity = f?.consumption ?? 0;
      return quantity > 0
        ? { consumption: quantity, factor: kg / quantity }
        : { consumption: kg, factor: kg ? 1 : 0 };
    };
    const [a, b] = [side(before), side(now)];
    return {
      key: u,
      consumption0: a.consumption,
      consumption1: b.consumption,
      factor0: a.factor,
      factor1: b.factor,
    };
  });
  const d = decomposeEmissionsChange({ items, area0: area.previous, area1: area.current });
  const changeKg = round3(current.emissionsKg - previous.emissionsKg);
  const areaKg = round3(d.area);
  const factorKg = round3(d.factor);
  return {
    previousKg: previous.emissionsKg,
    currentKg: current.emissionsKg,
    changeKg,
    consumptionKg: round3(changeKg - areaKg - factorKg),
    factorKg,
    areaKg,
    floorAreaM2: { previous: round3(area.previous), current: round3(area.current) },
    areaUsed: d.areaUsed,
  };
}
