import { IMPERIAL_AREA_FACTOR } from '../constants.ts';
import type { UtilityType } from '../schemas/common.ts';

/** The unit a utility's consumption is recorded in unless an account says otherwise. */
export const DEFAULT_UNITS: Readonly<Record<UtilityType, string>> = {
  electricity: 'kWh',
  gas: 'kWh',
  water: 'm³',
  waste: 'kg',
  heating: 'kWh',
  cooling: 'kWh',
  solar: 'kWh',
};

export function defaultUnit(utility: UtilityType): string {
  return DEFAULT_UNITS[utility];
}

export type AreaUnit = 'm2' | 'ft2';

export function squareFeetToSquareMetres(ft2: number): number {
  return ft2 * IMPERIAL_AREA_FACTOR;
}

export function squareMetresToSquareFeet(m2: number): number {
  return m2 / IMPERIAL_AREA_FACTOR;
}

/** A floor area in m², whichever unit it was entered in. */
export function toSquareMetres(value: number, unit: AreaUnit): number {
  return unit === 'ft2' ? squareFeetToSquareMetres(value) : value;
}

export function convertArea(value: number, from: AreaUnit, to: AreaUnit): number {
  if (from === to) return value;
  return to === 'm2' ? squareFeetToSquareMetres(value) : squareMetresToSquareFeet(value);
}

/**
 * A floor area as stored: always m², whatever unit it was entered in (the site's `floorAreaUnit` is the
 * unit it is entered and shown in), to the hundredth of a m² the wizard keeps.
 */
export function storedFloorArea(value: number, unit: AreaUnit): number {
  return Math.round(toSquareMetres(value, unit) * 100) / 100;
}
