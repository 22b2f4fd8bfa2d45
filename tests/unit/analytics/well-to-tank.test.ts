import { describe, expect, it } from 'vitest';
import { ScopeSum } from '../../../shared/analytics/emission-scopes.ts';
import { emissionsOf } from '../../../shared/analytics/emissions.ts';
import {
  EMISSION_FACTORS,
  FIRST_EDITION_FACTORS,
  findWellToTankFactor,
} from '../../../shared/domain/emission-factors.ts';

/**
 * The well-to-tank rows as DESNZ's flat files print them ("Factors by Category", kg CO2e per kWh):
 *   2023 v1.1 and 2025 v1: natural gas, kWh (Gross CV), ID 11_100_1004_6_1: 0.03021;
 *   UK electricity generation, ID 15_917_4000_5_1: 0.0459; T&D, ID 15_918_4000_5_1: 0.00397.
 * 2024 (current edition only): the full set v1.1 prints the same three figures, WTT- fuels!D41 and
 * WTT- UK electricity!E19 and E24.
 * 2022 (current edition only): BEIS's 2022 flat file v3.0 (no factor IDs; lines 3261, 3720, 3721): natural
 * gas 0.0311, generation 0.04625, T&D 0.00423.
 */
describe('well-to-tank factors', () => {
  it('hold the published figures, each with its sheet, file and factor ID', () => {
    const rows = EMISSION_FACTORS.filter((f) => f.activity.startsWith('well-to-tank')).map((f) => [
      f.year,
      f.utility,
      f.activity,
      f.scope,
      f.unit,
      f.factor,
      f.version,
    ]);
    expect(rows).toEqual([
      [2023, 'gas', 'well-to-tank', 3, 'kWh', 0.03021, 'desnz-2023-v1'],
      [2023, 'electricity', 'well-to-tank-generation', 3, 'kWh', 0.0459, 'desnz-2023-v1'],
      [2023, 'electricity', 'well-to-tank-transmission-distribution', 3, 'kWh', 0.00397, 'desnz-2023-v1'],
      [2025, 'gas', 'well-to-tank', 3, 'kWh', 0.03021, 'desnz-2025-v1'],
      [2025, 'electricity', 'well-to-tank-generation', 3, 'kWh', 0.0459, 'desnz-2025-v1'],
      [2025, 'electricity', 'well-to-tank-transmission-distribution', 3, 'kWh', 0.00397, 'desnz-2025-v1'],
      [2024, 'gas', 'well-to-tank', 3, 'kWh', 0.03021, 'desnz-2024-v2'],
      [2024, 'electricity', 'well-to-tank-generation', 3, 'kWh', 0.0459, 'desnz-2024-v2'],
      [2024, 'electricity', 'well-to-tank-transmission-distribution', 3, 'kWh', 0.00397, 'desnz-2024-v2'],
      [2022, 'gas', 'well-to-tank', 3, 'kWh', 0.0311, 'desnz-2022-v2'],
      [2022, 'electricity', 'well-to-tank-generation', 3, 'kWh', 0.04625, 'desnz-2022-v2'],
      [2022, 'electricity', 'well-to-tank-transmission-distribution', 3, 'kWh', 0.00423, 'desnz-2022-v2'],
    ]);
    // 2022 is read from one copy, the flat file, and says so; the first edition still has no 2022 row.
    const gas2022 = findWellToTankFactor('gas', 'well-to-tank', 2022);
    expect(gas2022?.sheet).toMatch(/^flat file line 3261: .*Natural gas, kWh \(Gross CV\)/);
    expect(gas2022?.confirmedBy).toMatch(/2022 flat file v3\.0.*filcuk.*one copy only/);
    expect(gas2022?.period).toBe('2022-01-01/2022-12-31');
    expect(findWellToTankFactor('gas', 'well-to-tank', 2022, FIRST_EDITION_FACTORS)).toBeUndefined();
    const gas2024 = findWellToTankFactor('gas', 'well-to-tank', 2024);
    expect(gas2024?.source).toMatch(/DESNZ.*2024, full set v1\.1/);
    expect(gas2024?.sheet).toMatch(/^WTT- fuels!D41/);
    expect(gas2024?.confirmedBy).toMatch(/themisiq.*defraEnergy2024/);
    // The first edition had none, so a company still on it sees 2024 as not covered.
    expect(findWellToTankFactor('gas', 'well-to-tank', 2024, FIRST_EDITION_FACTORS)).toBeUndefined();
    const gas2025 = findWellToTankFactor('gas', 'well-to-tank', 2025);
    expect(gas2025?.source).toMatch(/DESNZ.*2025, sheet "WTT- fuels" \(natural gas, kWh gross CV\)/);
    expect(gas2025?.confirmedBy).toMatch(/flat file 2025 v1.*factor ID 11_100_1004_6_1/);
    expect(findWellToTankFactor('electricity', 'well-to-tank-generation', 2023)?.confirmedBy).toMatch(
      /flat file 2023 v1\.1.*factor ID 15_917_4000_5_1/,
    );
  });

  it('uses no other year for one without a confirmed figure', () => {
    expect(findWellToTankFactor('gas', 'well-to-tank', 2021)).toBeUndefined();
    expect(findWellToTankFactor('electricity', 'well-to-tank-generation', 2026)).toBeUndefined();
  });

  it('counts 2025, 2024 and 2022 months in scope 3 and lists a 2021 month as not covered', () => {
    const sum = new ScopeSum();
    // 1,000 kWh of gas and 2,000 kWh of electricity in 2025: 30.21 + 2000 × 0.04987 = 30.21 + 99.74.
    sum.add(
      {
        month: '2025-03',
        utilityType: 'gas',
        emissionsKg: 182.31,
        factorVersion: 'desnz-2025-v1',
        kwh: 1000,
      },
      1,
    );
    sum.add(
      {
        month: '2025-03',
        utilityType: 'electricity',
        emissionsKg: 354,
        factorVersion: 'desnz-2025-v1',
        kwh: 2000,
      },
      1,
    );
    const y2025 = sum.result();
    expect(y2025.scope3Parts.wellToTank).toBe(129.95);
    expect(y2025.scope3).toBeCloseTo(129.95 + 2000 * 0.01853, 9);
    expect(y2025.notCovered).toEqual([]);

    // A 2024 month counts at the 2024 figure: 500 kWh × 0.03021 = 15.105.
    sum.add({ month: '2024-11', utilityType: 'gas', emissionsKg: 100, kwh: 500 }, 1);
    expect(sum.result().scope3Parts.wellToTank).toBe(145.055);
    // A 2022 month counts at BEIS's 2022 figure: 500 kWh × 0.0311 = 15.55 (it was listed as not covered).
    sum.add({ month: '2022-11', utilityType: 'gas', emissionsKg: 100, kwh: 500 }, 1);
    expect(sum.result().scope3Parts.wellToTank).toBe(160.605);
    expect(sum.result().notCovered).toEqual([]);
    // A 2021 month adds nothing and says so; gas by volume cannot be put in kWh and says that.
    sum.add({ month: '2021-11', utilityType: 'gas', emissionsKg: 100, kwh: 500 }, 1);
    sum.add({ month: '2025-04', utilityType: 'gas', emissionsKg: 100 }, 1);
    const mixed = sum.result();
    expect(mixed.scope3Parts.wellToTank).toBe(160.605);
    expect(mixed.notCovered).toEqual(['well-to-tank (gas not in kWh)', 'well-to-tank 2021']);
    // A company still on the first edition keeps seeing a 2022 month as not covered until it restates.
    const first = new ScopeSum({ factors: FIRST_EDITION_FACTORS });
    first.add({ month: '2022-11', utilityType: 'gas', emissionsKg: 100, kwh: 500 }, 1);
    expect(first.result().notCovered).toEqual(['well-to-tank 2022']);
  });

  it('gives a 2023 electricity figure its well-to-tank lines at that year', () => {
    const e = emissionsOf({ utility: 'electricity', date: '2023-05-01', quantity: 1000, unit: 'kWh' });
    const wtt = e.lines.filter((l) => l.activity.startsWith('well-to-tank'));
    expect(wtt.map((l) => [l.activity, l.factorYear])).toEqual([
      ['well-to-tank-generation', 2023],
      ['well-to-tank-transmission-distribution', 2023],
    ]);
    expect(wtt[0]?.kgCO2e).toBeCloseTo(45.9, 9);
    expect(wtt[1]?.kgCO2e).toBeCloseTo(3.97, 9);
    expect(e.notCovered).toEqual([]);
  });
});
