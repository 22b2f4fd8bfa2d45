import * as z from 'zod/mini';
import { isoDateField } from './mini-fields.ts';
import { onFirstUse } from './on-first-use.ts';

// The schemas are built when called, or on first use, with zod's small build: the functions importing this
// module for its arithmetic or to read stored periods (benchmarks, intensities) start without zod's full build.

/** A real calendar day: the pattern alone lets 2024-02-30 through. */
const calendarDay = () =>
  isoDateField().check(
    z.refine((v) => {
      const d = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
    }, 'Must be a real date'),
  );

/**
 * A floor area (m²) in force from `from` through `to` (both inclusive); without `to` it holds until a
 * later period starts. Benchmarks and intensities divide each year by the area in force in it.
 */
export const floorAreaPeriodFields = () =>
  z
    .object({
      from: calendarDay(),
      to: z.optional(calendarDay()),
      floorAreaM2: z
        .number()
        .check(z.positive('Must be greater than 0'), z.maximum(10_000_000, 'This area is too large')),
    })
    .check(
      z.refine((p) => p.to === undefined || p.to >= p.from, {
        message: 'Must be on or after the start date',
        path: ['to'],
      }),
    );
export const floorAreaPeriodSchema = /* @__PURE__ */ onFirstUse(floorAreaPeriodFields);

export type FloorAreaPeriod = z.infer<typeof floorAreaPeriodSchema>;

/**
 * A site's floor-area history: periods that do not overlap. Only the latest may be left open, since an
 * open period runs on until the next one starts; an earlier open period is closed by the next start.
 */
export const floorAreaHistoryFields = () =>
  z.array(floorAreaPeriodFields()).check(
    z.maxLength(100, 'At most 100 periods'),
    z.superRefine((periods, ctx) => {
      const order = periods.map((p, i) => ({ p, i })).sort((a, b) => a.p.from.localeCompare(b.p.from));
      for (let k = 1; k < order.length; k++) {
        const prev = order[k - 1] as { p: FloorAreaPeriod; i: number };
        const next = order[k] as { p: FloorAreaPeriod; i: number };
        if (next.p.from === prev.p.from || (prev.p.to !== undefined && next.p.from <= prev.p.to)) {
          ctx.addIssue({
            code: 'custom',
            path: [next.i, 'from'],
            message: `Overlaps the period from ${prev.p.from}`,
          });
        }
      }
    }),
  );
export const floorAreaHistorySchema = /* @__PURE__ */ onFirstUse(floorAreaHistoryFields);

const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;

/**
 * The floor area of a calendar year: the day-weighted mean of the areas in force on its days, so a
 * building extended in July counts half a year at each size. Days no period covers take the site's
 * current area; with no current area they are left out. Null when no day has an area.
 */
export function floorAreaOfYear(
  year: number,
  current: number | null,
  history: readonly FloorAreaPeriod[] = [],
): number | null {
  // Most sites have no history: every day takes the current area (a table of thousands asks per year).
  if (history.length === 0) return current !== null && current > 0 ? current : null;
  const start = dayOf(`${year}-01-01`);
  const end = dayOf(`${year + 1}-01-01`);
  const sorted = [...history].sort((a, b) => a.from.localeCompare(b.from));
  let areaDays = 0;
  let days = 0;
  let cursor = start;
  const add = (from: number, to: number, area: number | null) => {
    const a = Math.max(from, start);
    const b = Math.min(to, end);
    if (b <= a || area === null || !(area > 0)) return;
    areaDays += area * (b - a);
    days += b - a;
  };
  sorted.forEach((p, i) => {
    const from = dayOf(p.from);
    const nextFrom = sorted[i + 1]
      ? dayOf((sorted[i + 1] as FloorAreaPeriod).from)
      : Number.POSITIVE_INFINITY;
    const to = p.to === undefined ? nextFrom : Math.min(dayOf(p.to) + 1, nextFrom);
    add(cursor, from, current);
    add(from, to, p.floorAreaM2);
    cursor = Math.max(cursor, to);
  });
  add(cursor, end, current);
  return days > 0 ? areaDays / days : null;
}
