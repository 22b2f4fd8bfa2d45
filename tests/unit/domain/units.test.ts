import { describe, expect, it } from 'vitest';
import {
  convertArea,
  DEFAULT_UNITS,
  squareFeetToSquareMetres,
  squareMetresToSquareFeet,
  toSquareMetres,
} from '../../../shared/domain/units.ts';

describe('units', () => {
  it('defaults electricity and gas to kWh, water to m³ and waste to kg', () => {
    expect(DEFAULT_UNITS.electricity).toBe('kWh');
    expect(DEFAULT_UNITS.gas).toBe('kWh');
    expect(DEFAULT_UNITS.water).toBe('m³');
    expect(DEFAULT_UNITS.waste).toBe('kg');
  });

  it('converts floor areas with 0.092903 m² per ft²', () => {
    expect(squareFeetToSquareMetres(10_000)).toBeCloseTo(929.03, 6);
    expect(squareMetresToSquareFeet(929.03)).toBeCloseTo(10_000, 6);
    expect(toSquareMetres(1000, 'ft2')).toBeCloseTo(92.903, 6);
    expect(toSquareMetres(1000, 'm2')).toBe(1000);
    expect(convertArea(100, 'm2', 'ft2')).toBeCloseTo(1076.39, 2);
    expect(convertArea(42, 'ft2', 'ft2')).toBe(42);
  });
});
