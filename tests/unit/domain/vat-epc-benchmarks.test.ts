import { describe, expect, it } from 'vitest';
import { LETI_TARGETS } from '../../../shared/domain/benchmarks.ts';
import { domesticEpcBand, nonDomesticEpcBand, typedEpcBand } from '../../../shared/domain/epc.ts';
import { DE_MINIMIS, energyVatRate } from '../../../shared/domain/vat.ts';

describe('VAT on energy', () => {
  it("charges 5% up to HMRC's daily de minimis (33 kWh electricity, 145 kWh gas) and 20% above it", () => {
    expect(DE_MINIMIS.electricity.kwhPerDay).toBe(33);
    expect(DE_MINIMIS.gas.kwhPerDay).toBe(145);
    expect(DE_MINIMIS.gas.source).toMatch(/VFUP2310/);
    expect(energyVatRate({ utility: 'gas', kwhPerDay: 145 })).toBe(5);
    expect(energyVatRate({ utility: 'gas', kwhPerDay: 145.1 })).toBe(20);
    expect(energyVatRate({ utility: 'electricity', kwhPerDay: 1020 / 31 })).toBe(5);
    expect(energyVatRate({ utility: 'electricity', kwhPerDay: 33.1 })).toBe(20);
  });

  it('charges 5% for qualifying use whatever the quantity', () => {
    expect(energyVatRate({ utility: 'electricity', kwhPerDay: 800, qualifyingUse: true })).toBe(5);
  });
});

describe('EPC bands', () => {
  it('bands domestic SAP scores', () => {
    const scores = [92, 91, 81, 80, 69, 68, 55, 54, 39, 38, 21, 20, 1];
    expect(scores.map(domesticEpcBand).join('')).toBe('ABBCCDDEEFFGG');
    expect(domesticEpcBand(0)).toBeUndefined();
  });

  it('bands non-domestic asset ratings, lower being better', () => {
    const ratings = [0, 25, 26, 50, 51, 75, 76, 100, 101, 125, 126, 150, 151];
    expect(ratings.map(nonDomesticEpcBand).join('')).toBe('AABBCCDDEEFFG');
    expect(nonDomesticEpcBand(-1)).toBeUndefined();
  });

  it('reads the band of a rating typed on a site, and none from text that is not a band', () => {
    expect(['C', 'c+', '72C', ' b ', 'G-'].map(typedEpcBand)).toEqual(['C', 'C', 'C', 'B', 'G']);
    // Not band A, E or D: a site marked N/A, exempt or unrated has no rating.
    for (const rating of [undefined, 72, '', 'N/A', 'EX', 'NDA', 'H'])
      expect(typedEpcBand(rating), String(rating)).toBeUndefined();
  });
});

describe('LETI targets', () => {
  it('holds the residential, office and school targets', () => {
    expect(Object.fromEntries(LETI_TARGETS.map((t) => [t.propertyType, t.kwhPerM2Year]))).toEqual({
      Residential: 35,
      Office: 55,
      School: 65,
    });
  });
});
