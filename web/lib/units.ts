import { DEFAULT_UNITS } from '../../shared/domain/units.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { formatNumber } from './format.ts';

/** The units the product knows (01 §3), in the order pickers list them. */
export const UNITS = [
  'Wh',
  'kWh',
  'MWh',
  'kg',
  'm³',
  'm²',
  'lbs',
  'tonnes',
  'ft³',
  'hcf',
  'm³/h',
  'qty',
  'l',
  '°C',
  'mcuf',
  'hcuf',
  'tcuf',
  'ocuf',
  'hm³',
  'tm³',
  'nm³',
  'kg CO₂e',
  't CO₂e',
] as const;

export type Unit = (typeof UNITS)[number];

export function isUnit(value: unknown): value is Unit {
  return typeof value === 'string' && (UNITS as readonly string[]).includes(value);
}

/** The unit a utility's consumption is shown in when the account names none. */
export function defaultUnitOf(utility: UtilityType): string {
  return DEFAULT_UNITS[utility];
}

/** A quantity with its unit, en-GB style: `12,345.6 kWh`. Nothing for values that are not numbers. */
export function formatQuantity(
  value: number | null | undefined,
  unit: string,
  options: { maximumFractionDigits?: number } = {},
): string {
  const number = formatNumber(value, options);
  return number ? `${number} ${unit}` : '';
}
