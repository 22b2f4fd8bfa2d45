import { formatNumber } from '../../lib/format.ts';

/** Units of consumption, whose rates UK bills print in pence. */
const PENCE_UNITS = /^(k|m)?wh$|^m³$|^m3$|^kvarh$/i;

const pounds = (v: number) => `£${formatNumber(v, { minimumFractionDigits: 2, maximumFractionDigits: 5 })}`;

/**
 * A contract rate as a person reads it, with its price unit. Rates are stored in pounds per `unit`
 * ('kWh', 'day'), which the bill checks compare with: a unit rate reads in pence per kWh, a standing
 * charge in pounds a day. A unit that already names its price ('p/kWh', '£/day') is shown as entered.
 */
export function contractRateText(rate: number, unit: string): string {
  const u = unit.trim().replace(/\s+/g, '');
  if (/^p\//i.test(u)) return `${formatNumber(rate, { maximumFractionDigits: 5 })} ${u}`;
  if (u.startsWith('£/')) return `${pounds(rate)}${u.slice(1)}`;
  const per = u.replace(/^per/i, '');
  if (PENCE_UNITS.test(per)) return `${formatNumber(rate * 100, { maximumFractionDigits: 4 })} p/${per}`;
  return `${pounds(rate)}/${per}`;
}
