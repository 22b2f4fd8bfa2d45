import { describe, expect, it } from 'vitest';
import {
  type DecompositionItem,
  decomposeEmissionsChange,
  logarithmicMean,
} from '../../../shared/analytics/decomposition.ts';

const item = (c0: number, c1: number, f0: number, f1: number, key = 'm'): DecompositionItem => ({
  key,
  consumption0: c0,
  consumption1: c1,
  factor0: f0,
  factor1: f1,
});

const partsSum = (d: { area: number; consumption: number; factor: number }) =>
  d.area + d.consumption + d.factor;

describe('LMDI decomposition of a change in emissions', () => {
  it('has the logarithmic mean of two numbers', () => {
    expect(logarithmicMean(2, 2)).toBe(2);
    expect(logarithmicMean(Math.E, 1)).toBeCloseTo(Math.E - 1, 12);
    expect(logarithmicMean(5, 0)).toBe(0);
  });

  it('puts a change in factor alone on the factor', () => {
    // 1000 kWh at 0.2 then at 0.1: 200 → 100 kg on an unchanged 100 m²
    const d = decomposeEmissionsChange({ items: [item(1000, 1000, 0.2, 0.1)], area0: 100, area1: 100 });
    expect(d.change).toBeCloseTo(-100, 12);
    expect(d.factor).toBeCloseTo(-100, 12);
    expect(d.consumption).toBeCloseTo(0, 12);
    expect(d.area).toBeCloseTo(0, 12);
  });

  it('splits offsetting changes evenly: use doubled, factor halved', () => {
    // E stays 200, so L = 200: consumption +200 ln 2, factor −200 ln 2
    const d = decomposeEmissionsChange({ items: [item(1000, 2000, 0.2, 0.1)], area0: 100, area1: 100 });
    expect(d.change).toBe(0);
    expect(d.consumption).toBeCloseTo(200 * Math.LN2, 12);
    expect(d.factor).toBeCloseTo(-200 * Math.LN2, 12);
  });

  it('gives growth from more floor area at the same use per m² to area', () => {
    const d = decomposeEmissionsChange({ items: [item(1000, 2000, 0.2, 0.2)], area0: 100, area1: 200 });
    expect(d.area).toBeCloseTo(200, 12);
    expect(d.consumption).toBeCloseTo(0, 12);
    expect(d.factor).toBe(0);
  });

  it('works a three-way change by hand', () => {
    // E0 = 1000 × 0.2 = 200; E1 = 1500 × 0.15 = 225; area 100 → 120
    // L = 25 / ln(225/200); area L·ln 1.2; use per m² L·ln(12.5/10); factor L·ln 0.75
    const L = 25 / Math.log(1.125);
    const d = decomposeEmissionsChange({ items: [item(1000, 1500, 0.2, 0.15)], area0: 100, area1: 120 });
    expect(d.area).toBeCloseTo(L * Math.log(1.2), 9);
    expect(d.consumption).toBeCloseTo(L * Math.log(1.25), 9);
    expect(d.factor).toBeCloseTo(L * Math.log(0.75), 9);
    expect(Math.abs(partsSum(d) - 25)).toBeLessThan(1e-9);
  });

  it('sums exactly to the total change over many meters and years', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let run = 0; run < 200; run++) {
      const items = Array.from({ length: 1 + Math.floor(random() * 6) }, (_, i) =>
        item(random() * 200_000, random() * 200_000, 0.05 + random() * 0.3, 0.05 + random() * 0.3, `m${i}`),
      );
      const d = decomposeEmissionsChange({
        items,
        area0: 500 + random() * 5000,
        area1: 500 + random() * 5000,
      });
      expect(Math.abs(partsSum(d) - d.change)).toBeLessThan(1e-9);
      for (const i of d.items)
        expect(Math.abs(partsSum(i) - (i.emissions1 - i.emissions0))).toBeLessThan(1e-9);
    }
  });

  it('gives a new meter to consumption, a new site to area and a REGO switch to the factor', () => {
    const meter = decomposeEmissionsChange({ items: [item(0, 1000, 0.2, 0.2)], area0: 100, area1: 100 });
    expect(meter).toMatchObject({ area: 0, consumption: 200, factor: 0, change: 200 });
    const site = decomposeEmissionsChange({ items: [item(0, 1000, 0.2, 0.2)], area0: 0, area1: 100 });
    expect(site).toMatchObject({ area: 200, consumption: 0, factor: 0, areaUsed: false });
    const rego = decomposeEmissionsChange({ items: [item(1000, 1000, 0.2, 0)], area0: 100, area1: 100 });
    expect(rego).toMatchObject({ area: 0, consumption: 0, factor: -200, change: -200 });
    const none = decomposeEmissionsChange({ items: [item(0, 0, 0.2, 0.2)], area0: 100, area1: 100 });
    expect(partsSum(none)).toBe(0);
  });

  it('leaves area out when it is not known for both years', () => {
    const d = decomposeEmissionsChange({ items: [item(1000, 1500, 0.2, 0.2)] });
    expect(d.areaUsed).toBe(false);
    expect(d.area).toBe(0);
    expect(d.consumption).toBeCloseTo(100, 12);
  });
});
