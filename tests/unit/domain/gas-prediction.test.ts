import { describe, expect, it } from 'vitest';
import { fitGasModel, type GasObservation, predictGas } from '../../../shared/domain/gas-prediction.ts';

const HDD = [390, 330, 300, 220, 140, 60, 25, 30, 80, 190, 290, 360];
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const year = (kwh: (days: number, hdd: number) => number): GasObservation[] =>
  HDD.map((hdd, i) => ({
    month: `2025-${String(i + 1).padStart(2, '0')}`,
    days: DAYS[i] as number,
    degreeDays: hdd,
    kwh: kwh(DAYS[i] as number, hdd),
  }));

describe('the degree-day gas model', () => {
  it('finds the baseload and the use per degree day of a building that follows them', () => {
    const model = fitGasModel(year((d, h) => 55 * d + 18 * h));
    expect(model.method).toBe('baseload-and-heating');
    expect(model.baseloadKwhPerDay).toBeCloseTo(55, 6);
    expect(model.kwhPerDegreeDay).toBeCloseTo(18, 6);
    expect(model.r2).toBeCloseTo(1, 9);
    expect(predictGas(model, 31, 400).total).toBeCloseTo(55 * 31 + 18 * 400, 6);
  });

  it('still fits through noise, and says how well', () => {
    const noise = [1.04, 0.97, 1.02, 0.95, 1.05, 0.99, 1.03, 0.96, 1.01, 0.98, 1.02, 0.97];
    const model = fitGasModel(year((d, h) => (30 * d + 20 * h) * (noise[(h + d) % 12] as number)));
    expect(model.kwhPerDegreeDay).toBeGreaterThan(17);
    expect(model.kwhPerDegreeDay).toBeLessThan(23);
    expect(model.r2).toBeGreaterThan(0.95);
    expect(model.cvRmse).toBeGreaterThan(0);
  });

  it('falls back to use per day when use does not follow the cold', () => {
    const model = fitGasModel(year((d, h) => 100 * d - 2 * h));
    expect(model.method).toBe('baseload-only');
    expect(model.kwhPerDegreeDay).toBe(0);
    const total = year((d, h) => 100 * d - 2 * h).reduce((s, o) => s + o.kwh, 0);
    expect(model.baseloadKwhPerDay).toBeCloseTo(total / 365, 6);
  });

  it('fits through degree days alone when the baseload would come out below zero', () => {
    const model = fitGasModel(year((d, h) => Math.max(0, 25 * h - 20 * d)));
    expect(model.method).toBe('heating-only');
    expect(model.baseloadKwhPerDay).toBe(0);
    expect(model.kwhPerDegreeDay).toBeGreaterThan(0);
  });

  it('needs six months to learn from', () => {
    expect(() => fitGasModel(year((d, h) => d + h).slice(0, 5))).toThrow(/At least 6 months/);
  });
});
