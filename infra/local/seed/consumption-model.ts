import { cclCharge } from '../../../shared/domain/ccl.ts';
import { calculateEmissions, wasteActivity } from '../../../shared/domain/emission-factors.ts';
import { defaultUnit } from '../../../shared/domain/units.ts';
import { energyVatRate, STANDARD_VAT_RATE } from '../../../shared/domain/vat.ts';
import type { AssetKind } from './portfolio-types.ts';
import type { Prng } from './prng.ts';

/**
 * How much a demo meter uses each month and what its bill comes to: typical UK intensities by building
 * type, seasonal profiles, and contract prices that moved with the market from 2022 on.
 */
export type MeteredUtility = 'electricity' | 'gas' | 'water' | 'waste';

export interface MonthSlot {
  /** YYYY-MM */
  month: string;
  year: number;
  /** 0 = January */
  monthIndex: number;
  days: number;
  /** YYYY-MM-DD */
  start: string;
  end: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The `count` calendar months up to the last complete one before `today`, oldest first. */
export function monthSlots(today: Date, count: number): MonthSlot[] {
  const slots: MonthSlot[] = [];
  for (let back = count; back >= 1; back--) {
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1));
    const year = first.getUTCFullYear();
    const monthIndex = first.getUTCMonth();
    const days = new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
    const month = `${year}-${pad(monthIndex + 1)}`;
    slots.push({ month, year, monthIndex, days, start: `${month}-01`, end: `${month}-${pad(days)}` });
  }
  return slots;
}

/** Typical yearly use per m² of floor area: kWh (electricity, gas), m³ (water), kg (waste). */
const ANNUAL_PER_M2: Readonly<Record<AssetKind, Readonly<Record<MeteredUtility, number>>>> = {
  Office: { electricity: 110, gas: 85, water: 0.55, waste: 9 },
  Retail: { electricity: 165, gas: 60, water: 0.4, waste: 16 },
  Industrial: { electricity: 95, gas: 120, water: 0.7, waste: 12 },
  Warehouse: { electricity: 48, gas: 45, water: 0.18, waste: 5 },
  'Residential block': { electricity: 28, gas: 95, water: 1.4, waste: 7 },
};

/** Share of a year's space-heating gas by month, January first (heating degree days, roughly). */
const HEATING_SHARE = [0.165, 0.14, 0.12, 0.08, 0.05, 0.025, 0.02, 0.02, 0.035, 0.075, 0.12, 0.15] as const;

/** Share of an asset's waste by stream, before scaling to the streams it has. */
export const WASTE_STREAM_SHARE: Readonly<Record<string, number>> = {
  'General waste': 0.55,
  'Dry mixed recycling': 0.35,
  'Food waste': 0.1,
};

export interface MeterProfile {
  utility: MeteredUtility;
  assetType: AssetKind;
  floorArea: number;
  /** Share of the asset's use this meter carries (waste streams, sub-meters) */
  share: number;
  wasteCategory?: string;
}

/** What sets one meter apart from another of its kind, drawn once per meter. */
export interface MeterCharacter {
  /** Efficiency of the building against the typical intensity */
  scale: number;
  /** Yearly change in use: positive means falling */
  improvementPerYear: number;
  /** Contract price against the market average */
  priceFactor: number;
}

export function drawCharacter(rng: Prng): MeterCharacter {
  return {
    scale: rng.between(0.8, 1.2),
    improvementPerYear: rng.between(-0.01, 0.05),
    priceFactor: rng.between(0.93, 1.08),
  };
}

const cosine = (monthIndex: number, peakMonth: number) =>
  Math.cos((2 * Math.PI * (monthIndex - peakMonth)) / 12);

function seasonal(profile: MeterProfile, slot: MonthSlot): number {
  const m = slot.monthIndex;
  const dayShare = slot.days / 30.4375;
  switch (profile.utility) {
    case 'gas': {
      const base = profile.assetType === 'Residential block' ? 0.3 : 0.15;
      return 12 * (base / 12 + (1 - base) * (HEATING_SHARE[m] as number));
    }
    case 'electricity': {
      const winter = profile.assetType === 'Warehouse' ? 0.15 : 0.1;
      const cooling = profile.assetType === 'Office' || profile.assetType === 'Retail' ? 0.06 : 0;
      return dayShare * (1 + winter * cosine(m, 0) + cooling * cosine(m, 6.5));
    }
    case 'water':
      return dayShare * (1 + 0.08 * cosine(m, 6.5));
    case 'waste': {
      const festive =
        profile.assetType === 'Retail' ? ([0.95, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1.12, 1.3][m] as number) : 1;
      return dayShare * festive;
    }
  }
}

const roundTo = (value: number, places: number) => {
  const f = 10 ** places;
  return Math.round(value * f) / f;
};

/** A month's consumption in the utility's default unit. */
export function monthlyQuantity(
  profile: MeterProfile,
  character: MeterCharacter,
  slot: MonthSlot,
  yearsFromStart: number,
  rng: Prng,
): number {
  const annual = ANNUAL_PER_M2[profile.assetType][profile.utility] * profile.floorArea * profile.share;
  const trend = (1 - character.improvementPerYear) ** yearsFromStart;
  const noise = 1 + rng.between(-0.05, 0.05);
  const value = (annual / 12) * character.scale * seasonal(profile, slot) * trend * noise;
  return roundTo(Math.max(0, value), profile.utility === 'water' ? 1 : 0);
}

/** Average contract unit prices by the year a contract started (each April): £/kWh, £/m³, £/kg. */
const UNIT_PRICE: Readonly<Record<MeteredUtility, Readonly<Record<number, number>>>> = {
  electricity: { 2022: 0.34, 2023: 0.305, 2024: 0.262, 2025: 0.243, 2026: 0.251 },
  gas: { 2022: 0.105, 2023: 0.082, 2024: 0.066, 2025: 0.061, 2026: 0.063 },
  water: { 2022: 2.95, 2023: 3.05, 2024: 3.3, 2025: 3.72, 2026: 3.88 },
  waste: { 2022: 0.195, 2023: 0.205, 2024: 0.214, 2025: 0.228, 2026: 0.236 },
};

function contractPrice(utility: MeteredUtility, slot: MonthSlot): number {
  const contractYear = slot.monthIndex >= 3 ? slot.year : slot.year - 1;
  const table = UNIT_PRICE[utility];
  const years = Object.keys(table).map(Number);
  const year = Math.max(Math.min(contractYear, Math.max(...years)), Math.min(...years));
  return table[year] as number;
}

/** Daily standing charge (£) grows with the size of the supply. */
function standingChargePerDay(profile: MeterProfile): number {
  const area = profile.floorArea * profile.share;
  switch (profile.utility) {
    case 'electricity':
      return 0.9 + area / 5000;
    case 'gas':
      return 0.6 + area / 12000;
    case 'water':
      return 0.45 + area / 40000;
    case 'waste':
      return 0.35 + area / 50000;
  }
}

export interface MonthBill {
  consumption: number;
  unit: string;
  unitRate: number;
  standingChargePerDay: number;
  days: number;
  energyCharge: number;
  standingCharge: number;
  cclAmount: number;
  netAmount: number;
  vatRate: number;
  vatAmount: number;
  totalAmount: number;
  emissionsKg: number;
  factorVersion: string;
}

/**
 * A month's bill. Communal supply to a residential block is domestic: no levy and the reduced VAT rate.
 * Water to non-industrial business premises is zero-rated; waste collection bears standard VAT.
 */
export function monthBill(
  profile: MeterProfile,
  character: MeterCharacter,
  slot: MonthSlot,
  consumption: number,
): MonthBill {
  const unit = defaultUnit(profile.utility);
  const unitRate = roundTo(contractPrice(profile.utility, slot) * character.priceFactor, 5);
  const perDay = roundTo(standingChargePerDay(profile) * character.priceFactor, 4);
  const domestic = profile.assetType === 'Residential block';
  const energyCharge = roundTo(consumption * unitRate, 2);
  const standingCharge = roundTo(perDay * slot.days, 2);
  const energy = profile.utility === 'electricity' || profile.utility === 'gas' ? profile.utility : undefined;
  // The de minimis is measured per day of the bill, as HMRC (and the bill checks) measure it.
  const kwhPerDay = consumption / slot.days;
  const vatRate = energy
    ? energyVatRate({ utility: energy, kwhPerDay, qualifyingUse: domestic })
    : profile.utility === 'water'
      ? 0
      : STANDARD_VAT_RATE;
  // A supply at the reduced rate under the de minimis counts as domestic use for the levy too.
  const levyFree = domestic || (energy !== undefined && vatRate !== STANDARD_VAT_RATE);
  const cclAmount = energy ? (cclCharge(energy, consumption, slot.start, { domestic: levyFree }) ?? 0) : 0;
  const netAmount = roundTo(energyCharge + standingCharge + cclAmount, 2);
  const vatAmount = roundTo((netAmount * vatRate) / 100, 2);
  const emissions = calculateEmissions({
    utility: profile.utility,
    year: slot.year,
    quantity: consumption,
    unit,
    ...(profile.utility === 'waste' ? { activities: [wasteActivity(profile.wasteCategory)] } : {}),
  });
  if (!emissions) throw new Error(`No emission factor for ${profile.utility} in ${slot.year}`);
  return {
    consumption,
    unit,
    unitRate,
    standingChargePerDay: perDay,
    days: slot.days,
    energyCharge,
    standingCharge,
    cclAmount,
    netAmount,
    vatRate,
    vatAmount,
    totalAmount: roundTo(netAmount + vatAmount, 2),
    emissionsKg: roundTo(emissions.kgCO2e, 1),
    factorVersion: emissions.factorVersion,
  };
}
