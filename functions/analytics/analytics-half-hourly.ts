import { halfHourlyProblem } from '../../shared/analytics/index.ts';
import { calculateEmissions, isFactorUtility } from '../../shared/domain/emission-factors.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import { convertQuantity, isSubMeter } from '../../shared/schemas/account-rules.ts';
import {
  addManyToRollups,
  applyIntervalMonth,
  applyIntervalMonths,
  findAccount,
  type SiteMonthDelta,
  sumParts,
  utilityOf,
} from '../accounts/index.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import {
  type IntervalDay,
  putIntervalDays,
  recordIntervalMeter,
  setDayTotals,
  type TotalsWrite,
} from './analytics-half-hourly-repository.ts';
import { announceFiguresChange } from './analytics-live.ts';
import { keepSummedYearsCurrent, type WrittenMeter } from './analytics-summed-years.ts';

/** One local day of a meter's half-hourly readings, as imports and connectors hand them over. */
export interface HalfHourlyInput {
  /** YYYY-MM-DD, the UK local day */
  date: string;
  /** 48 settlement periods (46 when clocks go forward, 50 when they go back); null for a missing one. */
  values: readonly (number | null)[];
  /** The unit the values are in; kWh unless said. */
  unit?: string;
}

export interface HalfHourlyWriteResult {
  accountId: string;
  days: number;
  /** The change the write made to the meter's figures, in the account's unit. */
  consumptionChange: number;
  /** With `deferRollups`: what the site's months are still to take (`addHalfHourlyRollups`). */
  rollups?: SiteMonthDelta[];
  /** The months whose figures changed. */
  months?: string[];
  /** With `deferRollups`: the meter's day totals written, which company sums take with the roll-ups. */
  totals?: { meter: WrittenMeter; writes: TotalsWrite[] };
}

export interface HalfHourlyWriteOptions {
  /**
   * Leave the site's, portfolios' and company's roll-ups to the caller, who adds many meters' changes
   * at once with `addHalfHourlyRollups`: a hundred meters of one site then cost one roll-up write a
   * month rather than a hundred. Until then, only the meter's own months hold the change.
   */
  deferRollups?: boolean;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** The year's emissions per unit of a utility, and the factor set that gives them ('none' without one). */
export function emissionsOf(
  utilityType: string,
  year: number,
  unit: string,
): { perUnit: number; factorVersion: string } {
  const found = isFactorUtility(utilityType)
    ? calculateEmissions({ utility: utilityType, year, quantity: 1000, unit })
    : undefined;
  return found
    ? { perUnit: found.kgCO2e / 1000, factorVersion: found.factorVersion }
    : { perUnit: 0, factorVersion: 'none' };
}

/**
 * Writes days of a meter's half-hourly data. Each day replaces what was stored for it, so writing a day
 * again (a re-import, a connector's corrected file) changes nothing twice; the meter's month and its
 * site's and company's monthly roll-ups take the difference, so monthly figures always agree with the
 * interval data. Every day is checked before any is written: a day with the wrong number of periods for
 * its clock change, or a value that is not a number, refuses the whole write, named by day.
 */
export async function writeHalfHourlyDays(
  companyId: string,
  accountId: string,
  days: readonly HalfHourlyInput[],
  opts: HalfHourlyWriteOptions = {},
): Promise<HalfHourlyWriteResult> {
  const account = await findAccount(companyId, accountId);
  if (!account) throw notFound('There is no such meter');
  const utilityType = utilityOf(account);
  const accountUnit =
    typeof account.unit === 'string' && account.unit ? account.unit : defaultUnit(utilityType);
  const assetId = !isSubMeter(account) && typeof account.assetId === 'string' ? account.assetId : undefined;

  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  days.forEach((day, i) => {
    let problem: string | undefined;
    try {
      problem = halfHourlyProblem({ date: day.date, values: day.values });
    } catch {
      problem = `${day.date} is not a date as YYYY-MM-DD`;
    }
    if (!problem && day.values.some((v) => v !== null && (typeof v !== 'number' || !Number.isFinite(v))))
      problem = `${day.date} has a value that is not a number`;
    if (!problem && seen.has(day.date)) problem = `${day.date} is given twice`;
    if (!problem && convertQuantity(1, day.unit ?? 'kWh', accountUnit) === undefined)
      problem = `${day.unit} cannot be converted to the meter's unit ${accountUnit}`;
    seen.add(day.date);
    if (problem) errors[`days.${i}`] = problem;
  });
  if (Object.keys(errors).length > 0) throw formError(errors);

  const sorted = [...days].sort((a, b) => (a.date < b.date ? -1 : 1));
  const stored: IntervalDay[] = sorted.map((day) => {
    const scale = convertQuantity(1, day.unit ?? 'kWh', accountUnit) ?? 1;
    const values = day.values.map((v) => (v === null ? null : round3(v * scale)));
    return {
      accountId,
      date: day.date,
      values,
      total: round3(values.reduce<number>((sum, v) => sum + (v ?? 0), 0)),
      missing: values.filter((v) => v === null).length,
      unit: accountUnit,
    };
  });
  await putIntervalDays(companyId, stored);
  const totalsWritten: TotalsWrite[] = [];
  for (const [year, ofYear] of groupBy(stored, (d) => d.date.slice(0, 4))) {
    const w = await setDayTotals(companyId, accountId, year, new Map(ofYear.map((d) => [d.date, d.total])));
    if (w) totalsWritten.push(w);
  }
  // The meter's month takes the days' change, and through it the site's and company's roll-ups.
  const months = [...groupBy(stored, (d) => d.date.slice(0, 7))].map(([month, ofMonth]) => {
    const emissions = emissionsOf(utilityType, Number(month.slice(0, 4)), accountUnit);
    return {
      month,
      utilityType,
      unit: accountUnit,
      factorVersion: emissions.factorVersion,
      days: ofMonth.map((d) => ({
        date: d.date,
        consumption: d.total,
        emissionsKg: round3(d.total * emissions.perUnit),
      })),
    };
  });
  let change = 0;
  const rollups: SiteMonthDelta[] = [];
  if (opts.deferRollups) {
    // Without a site the months reach no roll-up: the deferred changes are handed back instead.
    const deltas = await applyIntervalMonths(companyId, accountId, months);
    deltas.forEach((delta, i) => {
      change += delta.consumption;
      const month = months[i]?.month as string;
      if (assetId && (delta.consumption !== 0 || delta.emissionsKg !== 0))
        rollups.push({ ...delta, assetId, month, utilityType });
    });
  } else
    for (const figures of months)
      change += (await applyIntervalMonth(companyId, accountId, assetId, figures)).consumption;
  if (sorted.length > 0) {
    await recordIntervalMeter(companyId, {
      accountId,
      ...(assetId ? { assetId } : {}),
      utilityType,
      unit: accountUnit,
    });
  }
  const changed = months.map((m) => m.month);
  const meter = { accountId, ...(assetId ? { assetId } : {}), utilityType, unit: accountUnit };
  if (opts.deferRollups)
    return {
      accountId,
      days: sorted.length,
      consumptionChange: round3(change),
      rollups,
      months: changed,
      totals: { meter, writes: totalsWritten },
    };
  await keepSummedYearsCurrent(companyId, [{ meter, writes: totalsWritten }]);
  await announceFiguresChange(companyId, { accountId, ...(assetId ? { assetId } : {}), months: changed });
  return { accountId, days: sorted.length, consumptionChange: round3(change), months: changed };
}

/**
 * Adds deferred writes' changes to the roll-ups, summed by site, month and utility first, and then tells
 * open pages which meters' figures changed.
 */
export async function addHalfHourlyRollups(
  companyId: string,
  written: readonly HalfHourlyWriteResult[],
): Promise<void> {
  const sums = new Map<string, SiteMonthDelta>();
  for (const d of written.flatMap((w) => w.rollups ?? [])) {
    const key = `${d.assetId}#${d.month}#${d.utilityType}#${d.unit}`;
    const sum = sums.get(key);
    if (!sum) sums.set(key, { ...d });
    else {
      sum.consumption = round3(sum.consumption + d.consumption);
      sum.cost += d.cost;
      sum.emissionsKg = round3(sum.emissionsKg + d.emissionsKg);
      sumParts(sum, d);
    }
  }
  if (sums.size > 0) await addManyToRollups(companyId, [...sums.values()]);
  await keepSummedYearsCurrent(
    companyId,
    written.flatMap((w) => (w.totals ? [w.totals] : [])),
  );
  for (const w of written) {
    const assetId = w.rollups?.[0]?.assetId;
    if (w.months && w.months.length > 0)
      await announceFiguresChange(companyId, {
        accountId: w.accountId,
        ...(assetId ? { assetId } : {}),
        months: w.months,
      });
  }
}
