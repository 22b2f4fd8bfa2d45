/**
 * Gas metered by volume, turned into the kWh it is billed and taxed in: volume in m³ × calorific value
 * (MJ/m³) × the volume correction factor ÷ 3.6 MJ per kWh. Imperial meters count cubic feet, usually in
 * hundreds. The calorific value is the one printed on the bill where there is one.
 */

/** Corrects a metered volume to standard temperature and pressure (Gas (Calculation of Thermal Energy) Regulations). */
export const VOLUME_CORRECTION = 1.02264;
export const MJ_PER_KWH = 3.6;
export const CUBIC_METRES_PER_CUBIC_FOOT = 0.0283168;

export interface CalorificValueDefault {
  /** MJ per m³ */
  value: number;
  source: string;
  /** Why the figure is not an official one */
  check?: string;
}

/**
 * Used only when a bill prints no calorific value; the result then says it was assumed. Suppliers print
 * the average of the period, which stays within about 38 to 40 MJ/m³ on the national grid.
 */
export const DEFAULT_CALORIFIC_VALUE: CalorificValueDefault = {
  value: 39.5,
  source: 'typical UK natural gas calorific value as printed on suppliers’ bills (about 39 to 40 MJ/m³)',
  check: 'not an official figure: the period’s calorific value from the bill or the transporter is better',
};

/** m³ in one of each volume unit a gas meter reads. */
const CUBIC_METRES: Readonly<Record<string, number>> = {
  'm³': 1,
  m3: 1,
  'hm³': 100,
  'tm³': 1000,
  'ft³': CUBIC_METRES_PER_CUBIC_FOOT,
  ft3: CUBIC_METRES_PER_CUBIC_FOOT,
  ocuf: CUBIC_METRES_PER_CUBIC_FOOT,
  tcuf: CUBIC_METRES_PER_CUBIC_FOOT * 10,
  hcf: CUBIC_METRES_PER_CUBIC_FOOT * 100,
  hcuf: CUBIC_METRES_PER_CUBIC_FOOT * 100,
  mcuf: CUBIC_METRES_PER_CUBIC_FOOT * 1000,
};

function volumeKey(unit: string): string {
  const u = unit.trim().toLowerCase().replace(/\s+/g, '');
  if (u === 'cubicmetres' || u === 'cubicmeters') return 'm³';
  if (u === 'cubicfeet' || u === 'cuft') return 'ft³';
  if (u === 'hundredcubicfeet' || u === 'ccf') return 'hcf';
  return u;
}

/** m³ in one `unit`, or undefined when the unit is not a volume a gas meter reads. */
export function cubicMetresPer(unit: string): number | undefined {
  return CUBIC_METRES[volumeKey(unit)];
}

export function isGasVolumeUnit(unit: string): boolean {
  return cubicMetresPer(unit) !== undefined;
}

export interface GasEnergy {
  kwh: number;
  cubicMetres: number;
  /** MJ/m³ used */
  calorificValue: number;
  /** True when the bill printed none and the default stood in */
  assumed: boolean;
}

/** kWh of a metered gas volume, or undefined when the unit is not a gas volume. */
export function gasVolumeToKwh(volume: number, unit: string, calorificValue?: number): GasEnergy | undefined {
  const perUnit = cubicMetresPer(unit);
  if (perUnit === undefined) return undefined;
  const printed = calorificValue !== undefined && calorificValue > 0 ? calorificValue : undefined;
  const cv = printed ?? DEFAULT_CALORIFIC_VALUE.value;
  const cubicMetres = volume * perUnit;
  return {
    kwh: (cubicMetres * cv * VOLUME_CORRECTION) / MJ_PER_KWH,
    cubicMetres,
    calorificValue: cv,
    assumed: printed === undefined,
  };
}
