import { describe, expect, it } from 'vitest';
import { defaultUnitOf, formatQuantity, isUnit, UNITS } from '../../web/lib/units.ts';

describe('units', () => {
  it('knows the units of the specification', () => {
    expect(UNITS).toHaveLength(23);
    for (const unit of ['Wh', 'kWh', 'MWh', 'm³', 'm²', 'hcf', 'm³/h', '°C', 'nm³', 'kg CO₂e', 't CO₂e']) {
      expect(isUnit(unit)).toBe(true);
    }
    expect(isUnit('furlongs')).toBe(false);
  });

  it('reads electricity and gas in kWh and waste in kg unless an account says otherwise', () => {
    expect(defaultUnitOf('electricity')).toBe('kWh');
    expect(defaultUnitOf('gas')).toBe('kWh');
    expect(defaultUnitOf('waste')).toBe('kg');
  });

  it('shows a quantity en-GB style with its unit, and nothing for a missing value', () => {
    expect(formatQuantity(12345.678, 'kWh')).toBe('12,345.68 kWh');
    expect(formatQuantity(1500, 'kg CO₂e', { maximumFractionDigits: 0 })).toBe('1,500 kg CO₂e');
    expect(formatQuantity(undefined, 'kWh')).toBe('');
  });
});
