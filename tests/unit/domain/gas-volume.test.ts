import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CALORIFIC_VALUE,
  gasVolumeToKwh,
  isGasVolumeUnit,
} from '../../../shared/domain/gas-volume.ts';

describe('gas read by volume', () => {
  it('turns m³ into kWh: volume × calorific value × 1.02264 ÷ 3.6', () => {
    const g = gasVolumeToKwh(1000, 'm³', 39.2);
    expect(g?.kwh).toBeCloseTo(11_135.41, 2);
    expect(g?.assumed).toBe(false);
    expect(gasVolumeToKwh(1000, 'm3', 39.2)?.kwh).toBeCloseTo(11_135.41, 2);
  });

  it('turns cubic feet into m³ first (0.0283168 m³ a cubic foot, 2.83168 a hundred)', () => {
    expect(gasVolumeToKwh(100, 'ft³', 39.2)?.cubicMetres).toBeCloseTo(2.83168, 6);
    expect(gasVolumeToKwh(1, 'hcf', 39.2)?.cubicMetres).toBeCloseTo(2.83168, 6);
    expect(gasVolumeToKwh(1, 'hcuf', 39.2)?.kwh).toBeCloseTo((2.83168 * 39.2 * 1.02264) / 3.6, 6);
  });

  it('assumes the default calorific value, and says so, when the bill prints none', () => {
    const g = gasVolumeToKwh(100, 'm³');
    expect(g).toMatchObject({ calorificValue: DEFAULT_CALORIFIC_VALUE.value, assumed: true });
    expect(DEFAULT_CALORIFIC_VALUE.value).toBe(39.5);
    expect(DEFAULT_CALORIFIC_VALUE.check).toBeTruthy();
  });

  it('converts nothing that is not a gas volume', () => {
    expect(gasVolumeToKwh(100, 'kWh')).toBeUndefined();
    expect(isGasVolumeUnit('kg')).toBe(false);
  });
});
