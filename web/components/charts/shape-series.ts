import { formatNumber } from '../../lib/format.ts';

/** One point of a series; a null `y` is a gap, drawn as nothing rather than as zero. */
export interface SeriesPoint {
  x: string;
  y: number | null;
}

export interface Series {
  name: string;
  points: SeriesPoint[];
  /** The series whose estimated part this is: drawn hatched in that series' colour, under one "Estimated" legend entry. */
  estimatedOf?: string;
}

export interface ShapeOptions<R> {
  x: (row: R) => string;
  y: (row: R) => number | null | undefined;
  /** Splits rows into one series per group (stacked bars); one series named '' when absent. */
  group?: (row: R) => string;
  /** A missing value drawn as 0 (bars, totals) or as a gap (a line that should break). */
  missing?: 'zero' | 'gap';
  /** The order of the x values; the order they first appear in otherwise. Values not listed follow. */
  xOrder?: readonly string[];
  /** The order of the groups (the stacking order); the order they first appear in otherwise. */
  groupOrder?: readonly string[];
}

function ordered(seen: readonly string[], order: readonly string[] | undefined): string[] {
  if (!order) return [...seen];
  const listed = order.filter((v) => seen.includes(v));
  return [...listed, ...seen.filter((v) => !order.includes(v))];
}

/**
 * Rows as series for a chart: one per group, each with a point at every x value, so stacked bars line up.
 * Rows sharing an x and group add up; an x a group lacks, or only has empty values for, is 0 or a gap.
 */
export function shapeSeries<R>(
  rows: readonly R[],
  options: ShapeOptions<R>,
): { xs: string[]; series: Series[] } {
  const xsSeen: string[] = [];
  const groupsSeen: string[] = [];
  const sums = new Map<string, Map<string, number>>();
  for (const row of rows) {
    const x = options.x(row);
    const group = options.group?.(row) ?? '';
    if (!xsSeen.includes(x)) xsSeen.push(x);
    if (!groupsSeen.includes(group)) groupsSeen.push(group);
    const y = options.y(row);
    if (y === null || y === undefined || !Number.isFinite(y)) continue;
    const byX = sums.get(group) ?? new Map<string, number>();
    byX.set(x, (byX.get(x) ?? 0) + y);
    sums.set(group, byX);
  }
  const xs = ordered(xsSeen, options.xOrder);
  const fill = options.missing === 'gap' ? null : 0;
  const series = ordered(groupsSeen, options.groupOrder).map((name) => ({
    name,
    points: xs.map((x) => ({ x, y: sums.get(name)?.get(x) ?? fill })),
  }));
  return { xs, series };
}

/** What a chart's values are in: a currency (ISO code) or a unit such as kWh. */
export type ValueUnit = { currency: string } | { unit: string } | undefined;

function currencySymbol(currency: string): string {
  const parts = new Intl.NumberFormat('en-GB', { style: 'currency', currency }).formatToParts(0);
  return parts.find((p) => p.type === 'currency')?.value ?? currency;
}

/** An axis title with its unit: 'Cost (£)', 'Consumption (kWh)'. */
export function axisTitle(label: string, unit: ValueUnit): string {
  if (!unit) return label;
  return `${label} (${'currency' in unit ? currencySymbol(unit.currency) : unit.unit})`;
}

/** A value tick: '£1,200', '-£5', '1,200 kWh', whole numbers unless the axis spans less than a few units. */
export function tickLabel(value: number, unit: ValueUnit, fractionDigits = 0): string {
  const number = formatNumber(Math.abs(value), { maximumFractionDigits: fractionDigits });
  const sign = value < 0 ? '-' : '';
  if (!unit) return `${sign}${number}`;
  if ('currency' in unit) return `${sign}${currencySymbol(unit.currency)}${number}`;
  return `${sign}${number} ${unit.unit}`;
}
