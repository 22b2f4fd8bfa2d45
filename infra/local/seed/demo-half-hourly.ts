import { writeHalfHourlyDays } from '../../../functions/analytics/index.ts';
import { putNewItems } from '../../../functions/core/imports/import-batch-repository.ts';
import { indexNewItems } from '../../../functions/core/imports/register-import-service.ts';
import { newId } from '../../../functions/core/lib/ids.ts';
import { inPool } from '../../../functions/core/lib/in-pool.ts';
import { resourceRef } from '../../../functions/core/resources/resource-refs.ts';
import { addDays, dayNumber, eachDay, settlementPeriods } from '../../../shared/analytics/index.ts';
import { mpanCheckDigit } from '../../../shared/domain/mpan.ts';
import type { PlannedCompany } from './plan-company.ts';
import { stamped } from './plan-items.ts';

const mpanOf = (first12: string) => first12 + String(mpanCheckDigit(first12));

/** Sites given a half-hourly electricity meter, and the year of data each holds. */
const HALF_HOURLY_SITES = 3;
const DAYS = 365;

/**
 * A smart meter's day in kWh per half hour: a base load all day, the working day on weekdays (08:00 to
 * 18:00, lighter on Saturdays, none on Sundays), more in winter, and a little noise that is the same on
 * every seed.
 */
export function halfHourlyProfile(date: string, baseKw: number): number[] {
  const day = dayNumber(date);
  const weekday = (day + 4) % 7; // 0 = Sunday
  const month = Number(date.slice(5, 7));
  const winter = 1 + 0.25 * Math.cos(((month - 1) / 12) * 2 * Math.PI);
  const busy = weekday === 0 ? 0 : weekday === 6 ? 0.3 : 1;
  const n = settlementPeriods(date);
  // On the clock-change days the periods still run from local midnight: the hour of a period is its
  // place in the day, shifted by the hour gained or lost after 01:00.
  const [shift, from] = n === 46 ? [1, 2] : n === 50 ? [-1, 4] : [0, 0];
  return Array.from({ length: n }, (_, i) => {
    const hour = i / 2 + (i >= from ? shift : 0);
    const working = hour >= 8 && hour < 18 ? busy * 2.5 : 0;
    const noise = 1 + 0.08 * Math.sin(day * 7.13 + i * 1.7);
    return Math.round(((baseKw * (1 + working) * winter * noise) / 2) * 10) / 10;
  });
}

/**
 * Gives the first few demo sites a half-hourly electricity meter with a year of readings to the end of
 * last month, written as an import writes them (so the sites' and company's monthly roll-ups hold them).
 * Meters of their own, not the billed ones, so no month is counted twice.
 */
export async function seedDemoHalfHourly(
  company: PlannedCompany,
  today: Date,
  createdBy: string,
): Promise<{ meters: number; days: number; months: number }> {
  // Sites with an electricity supply already: the smart meter is with the same supplier.
  const supplierOf = new Map<string, unknown>();
  const distributorOf = new Map<string, string>();
  for (const a of company.accounts) {
    if (a.type !== 'electricity' || a.isSubMeter) continue;
    supplierOf.set(a.assetId, a.item.supplierId);
    distributorOf.set(a.assetId, String(a.item.meterPointNumber).slice(0, 2));
  }
  const sites = company.assets.filter((a) => supplierOf.has(a.item._id)).slice(0, HALF_HOURLY_SITES);
  const meters = sites.map((site, i) =>
    stamped(
      'accounts',
      {
        name: `${String(site.item.siteName)} half-hourly electricity`,
        type: 'electricity',
        assetId: site.item._id,
        entityId: site.item.entityId,
        supplierId: supplierOf.get(site.item._id),
        meterPointNumber: mpanOf(`${distributorOf.get(site.item._id)}98765${String(i).padStart(5, '0')}`),
        status: 'active',
        unit: 'kWh',
        tags: ['half-hourly'],
      },
      { id: newId(), companyId: company.companyId, createdBy, createdAt: today.toISOString() },
    ),
  );
  await putNewItems(meters.map((item) => ({ ref: resourceRef(company.companyId, 'accounts'), item })));
  await indexNewItems(company.companyId, 'accounts', meters);
  const firstOfMonth = `${today.toISOString().slice(0, 7)}-01`;
  const end = addDays(firstOfMonth, -1);
  const days = eachDay(addDays(end, -(DAYS - 1)), end);
  await inPool(meters, 3, async (meter) => {
    const baseKw = 6 + meters.indexOf(meter) * 4;
    await writeHalfHourlyDays(
      company.companyId,
      meter._id,
      days.map((date) => ({ date, values: halfHourlyProfile(date, baseKw) })),
    );
  });
  return {
    meters: meters.length,
    days: meters.length * days.length,
    months: meters.length * new Set(days.map((d) => d.slice(0, 7))).size,
  };
}
