import { describe, expect, it } from 'vitest';
import {
  calculateEmissions,
  EMISSION_FACTORS,
  findEmissionFactor,
  wasteActivity,
} from '../../../shared/domain/emission-factors.ts';

describe('emission factor lookup', () => {
  it("uses the consumption year's factor", () => {
    expect(findEmissionFactor('electricity', 'generation', 2023)?.factor).toBe(0.20707);
    expect(findEmissionFactor('electricity', 'generation', 2025)?.factor).toBe(0.177);
    expect(findEmissionFactor('gas', 'combustion', 2024)?.factor).toBe(0.18278);
  });

  it('falls back to the nearest earlier year when a year is missing', () => {
    const td2024 = findEmissionFactor('electricity', 'transmission-distribution', 2024);
    expect(td2024?.year).toBe(2023);
    expect(td2024?.factor).toBe(0.01792);
    expect(findEmissionFactor('electricity', 'generation', 2027)?.year).toBe(2025);
  });

  it('uses the earliest later year only when no earlier year exists', () => {
    expect(findEmissionFactor('water', 'supply', 2023)?.year).toBe(2024);
  });

  it('reads a table passed in place of the built-in one', () => {
    const corrected = EMISSION_FACTORS.map((f) =>
      f.utility === 'gas' && f.year === 2024 ? { ...f, factor: 0.18293, version: 'desnz-2024-v2' } : f,
    );
    const f = findEmissionFactor('gas', 'combustion', 2024, corrected);
    expect(f?.factor).toBe(0.18293);
    expect(f?.version).toBe('desnz-2024-v2');
  });

  it('marks every figure the domain notes as unconfirmed', () => {
    const flagged = EMISSION_FACTORS.filter((f) => f.check).map(
      (f) => `${f.utility}/${f.activity}/${f.year}`,
    );
    expect(flagged.sort()).toEqual(['gas/combustion/2024', 'water/supply/2025', 'water/treatment/2025']);
  });

  it('gives every factor a source and version', () => {
    for (const f of EMISSION_FACTORS) {
      expect(f.source).toMatch(/DESNZ/);
      expect(f.version).toBe(`desnz-${f.year}-v1`);
    }
  });
});

describe('emissions', () => {
  it('multiplies kWh by the year factor and keeps the factor version', () => {
    const r = calculateEmissions({ utility: 'electricity', year: 2024, quantity: 10_000, unit: 'kWh' });
    expect(r?.kgCO2e).toBeCloseTo(2070.5, 2);
    expect(r?.factorVersion).toBe('desnz-2024-v1');
  });

  it('adds supply and treatment for water', () => {
    const r = calculateEmissions({ utility: 'water', year: 2024, quantity: 100, unit: 'm³' });
    expect(r?.kgCO2e).toBeCloseTo(100 * (0.15311 + 0.18574), 2);
  });

  it('converts kg of waste to tonnes and uses the stream factor', () => {
    const landfill = calculateEmissions({ utility: 'waste', year: 2025, quantity: 2000, unit: 'kg' });
    expect(landfill?.kgCO2e).toBeCloseTo(2 * 520.5327, 2);
    const recycled = calculateEmissions({
      utility: 'waste',
      year: 2025,
      quantity: 2000,
      unit: 'kg',
      activities: [wasteActivity('Dry mixed recycling')],
    });
    expect(recycled?.kgCO2e).toBeCloseTo(2 * 4.68568, 2);
  });

  it('includes transmission losses only when asked', () => {
    const r = calculateEmissions({
      utility: 'electricity',
      year: 2025,
      quantity: 1000,
      unit: 'kWh',
      activities: ['generation', 'transmission-distribution'],
    });
    expect(r?.kgCO2e).toBeCloseTo(1000 * (0.177 + 0.01853), 2);
  });

  it('refuses a unit that does not fit the utility', () => {
    expect(calculateEmissions({ utility: 'gas', year: 2024, quantity: 10, unit: 'm³' })).toBeUndefined();
    expect(calculateEmissions({ utility: 'electricity', year: 2024, quantity: 10, unit: 'litres' })).toBe(
      undefined,
    );
  });

  it('classifies waste streams', () => {
    expect(wasteActivity('General waste')).toBe('landfill');
    expect(wasteActivity('Food waste')).toBe('food-composted');
    expect(wasteActivity('Glass recycling')).toBe('recycling');
  });
});
