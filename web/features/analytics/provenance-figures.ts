import type { ProvenanceFigure, ProvenanceTotals } from '../../../shared/schemas/provenance.ts';
import { formatNumber } from '../../lib/format.ts';

/** What a row of the drill-down shows: consumption when it is in one unit, cost and emissions. */
export interface Shown {
  consumption?: { value: number; unit: string } | undefined;
  cost?: number | undefined;
  emissionsKg: number;
}

export const fromFigure = (f: ProvenanceFigure): Shown => ({
  consumption: { value: f.consumption, unit: f.unit },
  cost: f.cost,
  emissionsKg: f.emissionsKg,
});

/** A figure over utilities shows consumption only when there is one utility (units differ otherwise). */
export function fromTotals(t: ProvenanceTotals): Shown {
  const utilities = Object.values(t.utilities).filter((u): u is ProvenanceFigure => u !== undefined);
  const only = utilities.length === 1 ? utilities[0] : undefined;
  return {
    consumption: only ? { value: only.consumption, unit: only.unit } : undefined,
    cost: t.cost,
    emissionsKg: t.emissionsKg,
  };
}

const r = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

/** The parts added up, at the precision the figures are given in. */
export function sumOf(parts: readonly Shown[]): Shown {
  const units = new Set(parts.map((p) => p.consumption?.unit));
  const unit = units.size === 1 ? [...units][0] : undefined;
  const withCost = parts.some((p) => p.cost !== undefined);
  return {
    consumption:
      unit !== undefined
        ? {
            value: r(
              parts.reduce((s, p) => s + (p.consumption?.value ?? 0), 0),
              3,
            ),
            unit,
          }
        : undefined,
    cost: withCost
      ? r(
          parts.reduce((s, p) => s + (p.cost ?? 0), 0),
          2,
        )
      : undefined,
    emissionsKg: r(
      parts.reduce((s, p) => s + p.emissionsKg, 0),
      3,
    ),
  };
}

/** True when the parts make the figure: each shown measure equal to a thousandth. */
export function addsUp(sum: Shown, figure: Shown): boolean {
  const close = (a: number | undefined, b: number | undefined) =>
    a === undefined || b === undefined || Math.abs(a - b) < 0.0015;
  return (
    close(sum.emissionsKg, figure.emissionsKg) &&
    close(sum.cost, figure.cost) &&
    (sum.consumption === undefined ||
      figure.consumption === undefined ||
      close(sum.consumption.value, figure.consumption.value))
  );
}

export const showMoney = (v: number | undefined) =>
  v === undefined ? '' : `£${formatNumber(v, { maximumFractionDigits: 2, minimumFractionDigits: 2 })}`;
export const showKg = (v: number) => `${formatNumber(v, { maximumFractionDigits: 3 })} kgCO₂e`;
export const showQuantity = (c: Shown['consumption']) =>
  c ? `${formatNumber(c.value, { maximumFractionDigits: 3 })} ${c.unit}` : '';
export const showShare = (share: number) => `${formatNumber(share * 100, { maximumFractionDigits: 1 })}%`;
