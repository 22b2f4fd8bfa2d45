import { mpanError } from '../domain/mpan.ts';
import { mprnError } from '../domain/mprn.ts';
import type { UtilityType } from './common.ts';

/** Rules for utility accounts (meters) that the browser and the API both apply. */

export const ACCOUNT_STATUSES = ['active', 'inactive'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

export const ACCOUNT_MESSAGES = {
  meterPointRequired: 'A meter point number is required for this utility',
  assetNotFound: 'Asset not found',
  parentNotFound: 'Parent account not found',
  parentOtherAsset: 'The parent account must be in the same asset',
  parentOtherType: 'The parent account must be of the same utility',
  parentSelf: 'An account cannot be its own parent',
  supplierNotFound: 'Supplier not found',
  duplicateMeterPoint: 'An account with this meter point number already exists',
  moveSubMetersFirst: 'This account has sub-meters: move or remove them first',
  statusValue: 'Must be active or inactive',
  meterUserTenantOnly: 'Only a meter a tenant uses can name its tenant: choose Tenant as its user',
  meterUserTenantOfSite: "Must be one of the tenants of the meter's site",
} as const;

/** Waste streams an account can carry (GET /accounts/waste-categories). */
export const WASTE_CATEGORIES = [
  'General waste',
  'Dry mixed recycling',
  'Food waste',
  'Glass',
  'Paper and cardboard',
  'Confidential waste',
  'Hazardous waste',
  'WEEE',
  'Construction and demolition',
] as const;

/** Units an account can record its consumption in, the default first. */
export const ACCOUNT_UNITS: Readonly<Record<UtilityType, readonly string[]>> = {
  electricity: ['kWh', 'MWh'],
  gas: ['kWh', 'MWh'],
  water: ['m³', 'L'],
  waste: ['kg', 't'],
  heating: ['kWh', 'MWh'],
  cooling: ['kWh', 'MWh'],
  solar: ['kWh', 'MWh'],
};

export const UTILITY_LABELS: Readonly<Record<UtilityType, string>> = {
  electricity: 'Electricity',
  gas: 'Gas',
  water: 'Water',
  waste: 'Waste',
  heating: 'Heating',
  cooling: 'Cooling',
  solar: 'Solar',
};

/** Utilities whose supplies carry a national meter point number that has a checkable form. */
export function meterPointKind(type: string | undefined): 'MPAN' | 'MPRN' | undefined {
  if (type === 'electricity') return 'MPAN';
  if (type === 'gas') return 'MPRN';
  return undefined;
}

/** The field message for a meter point number of a utility, or undefined when it is acceptable. */
export function meterPointNumberError(
  type: string | undefined,
  value: string | undefined,
): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const kind = meterPointKind(type);
  if (kind === 'MPAN') return mpanError(value);
  if (kind === 'MPRN') return mprnError(value);
  return undefined;
}

/** MPANs and MPRNs are stored as bare digits, however they were typed. */
export function normaliseMeterPointNumber(type: string | undefined, value: string): string {
  return meterPointKind(type) ? value.replace(/\s+/g, '') : value.trim();
}

/**
 * Field errors of a whole account as it will be stored: after a PATCH is merged with the stored account,
 * so changing the utility alone re-checks the number it already has.
 */
export function accountFieldErrors(
  item: Readonly<Record<string, unknown>>,
): Record<string, string> | undefined {
  const type = typeof item.type === 'string' ? item.type : undefined;
  const number = typeof item.meterPointNumber === 'string' ? item.meterPointNumber : undefined;
  const message = meterPointNumberError(type, number);
  return message ? { meterPointNumber: message } : undefined;
}

/** A sub-meter hangs off a parent account of the same asset; its parent's bills already count it. */
export function isSubMeter(account: { readonly parentAccountId?: unknown } & object): boolean {
  return typeof account.parentAccountId === 'string' && account.parentAccountId.length > 0;
}

const UNIT_SCALES: readonly Readonly<Record<string, number>>[] = [
  { Wh: 0.001, kWh: 1, MWh: 1000, GWh: 1_000_000 },
  // Imperial gas meters read cubic feet, usually in hundreds (0.0283168 m³ a cubic foot).
  {
    L: 0.001,
    l: 0.001,
    'm³': 1,
    m3: 1,
    'ft³': 0.0283168,
    ocuf: 0.0283168,
    tcuf: 0.283168,
    hcf: 2.83168,
    hcuf: 2.83168,
    mcuf: 28.3168,
  },
  { g: 0.001, kg: 1, t: 1000, tonnes: 1000 },
];

/** A quantity in another unit of the same dimension, or undefined when the two cannot be converted. */
export function convertQuantity(value: number, from: string, to: string): number | undefined {
  if (from === to) return value;
  for (const scales of UNIT_SCALES) {
    const a = scales[from];
    const b = scales[to];
    if (a !== undefined && b !== undefined) return (value * a) / b;
  }
  return undefined;
}
