import { describe, expect, it } from 'vitest';
import { calendariseBill } from '../../../shared/analytics/calendarise.ts';
import { emissionsOf, intensityPerSquareMetre, sumEmissions } from '../../../shared/analytics/emissions.ts';
import type { ResidualMixFactor } from '../../../shared/analytics/residual-mix.ts';

describe('emissions by scope', () => {
  it('is consumption × the factor of the consumption year, naming the factor set', () => {
    const e2025 = emissionsOf({ utility: 'electricity', date: '2025-05-01', quantity: 1000, unit: 'kWh' });
    expect(e2025.year).toBe(2025);
    expect(e2025.scope2Location).toBeCloseTo(1000 * 0.177, 9);
    // T&D losses and the well-to-tank of generation and of T&D (DESNZ 2025 flat file).
    expect(e2025.scope3).toBeCloseTo(1000 * (0.01853 + 0.0459 + 0.00397), 9);
    expect(e2025.scope1).toBe(0);
    expect(e2025.factorVersions).toContain('desnz-2025-v1');
    const e2023 = emissionsOf({ utility: 'electricity', date: '2023-12-31', quantity: 1000, unit: 'kWh' });
    expect(e2023.scope2Location).toBeCloseTo(207.07, 9);
    expect(e2023.lines.find((l) => l.method === 'location')?.factorVersion).toBe('desnz-2023-v1');
    expect(
      emissionsOf({ utility: 'electricity', date: '2025-05-01', quantity: 1, unit: 'MWh' }).scope2Location,
    ).toBeCloseTo(177, 9);
  });

  it('takes each month of a bill over a year end at its own year', () => {
    const shares = calendariseBill({ id: 'b', start: '2024-12-17', end: '2025-01-15', quantity: 3000 });
    const total = sumEmissions(
      shares.map((s) =>
        emissionsOf({ utility: 'electricity', date: `${s.month}-01`, quantity: s.quantity, unit: 'kWh' }),
      ),
    );
    // 1500 kWh at the 2024 factor, 1500 at the 2025 one
    expect(total.scope2Location).toBeCloseTo(1500 * 0.20705 + 1500 * 0.177, 9);
    expect(total.factorVersions).toEqual(expect.arrayContaining(['desnz-2024-v1', 'desnz-2025-v1']));
  });

  it('counts gas burnt as scope 1 and water as scope 3', () => {
    const gas = emissionsOf({ utility: 'gas', date: '2024-02-01', quantity: 10_000, unit: 'kWh' });
    // DESNZ 2024 v1.1, Fuels!D42: 0.1829 kg per kWh (gross CV), confirmed, so no check is shown.
    expect(gas.scope1).toBeCloseTo(1829, 9);
    expect(gas.lines[0]).toMatchObject({ factorVersion: 'desnz-2024-v2' });
    expect(gas.lines[0]?.check).toBeUndefined();
    // 2024 well-to-tank from the full set v1.1 (WTT- fuels!D41): 0.03021 kg per kWh, scope 3.
    expect(gas.notCovered).toEqual([]);
    expect(gas.lines.find((l) => l.activity === 'well-to-tank')).toMatchObject({
      scope: 3,
      factorYear: 2024,
      factorVersion: 'desnz-2024-v2',
    });
    expect(gas.scope3).toBeCloseTo(302.1, 9);
    // 2022 has its own figures now (BEIS 2022 condensed set v2.0 Fuels!E42, flat file v3.0): 0.18254 burnt
    // and 0.0311 well-to-tank, with no note; before, 2023's 0.18293 stood in and well-to-tank was not covered.
    const gas2022 = emissionsOf({ utility: 'gas', date: '2022-02-01', quantity: 10_000, unit: 'kWh' });
    expect(gas2022.scope1).toBeCloseTo(1825.4, 9);
    expect(gas2022.scope3).toBeCloseTo(311, 9);
    expect(gas2022.notCovered).toEqual([]);
    expect(gas2022.lines.map((l) => [l.activity, l.factorYear, l.factorVersion, l.check])).toEqual([
      ['combustion', 2022, 'desnz-2022-v2', undefined],
      ['well-to-tank', 2022, 'desnz-2022-v2', undefined],
    ]);
    // No 2021 well-to-tank figure at all: listed, not borrowed from 2022.
    const gas2021 = emissionsOf({ utility: 'gas', date: '2021-02-01', quantity: 10_000, unit: 'kWh' });
    expect(gas2021.notCovered).toEqual([
      { activity: 'well-to-tank', reason: 'no confirmed 2021 gas well-to-tank factor' },
    ]);
    const water = emissionsOf({ utility: 'water', date: '2024-06-01', quantity: 10, unit: 'm³' });
    expect(water.scope3).toBeCloseTo(1.5311 + 1.8574, 9);
    expect(water.scope1 + water.scope2Location + water.scope2Market).toBe(0);
  });

  it('says when an earlier year stands in for a missing one, and when a figure is unconfirmed', () => {
    const e = emissionsOf({ utility: 'electricity', date: '2024-06-01', quantity: 1000, unit: 'kWh' });
    const losses = e.lines.find((l) => l.activity === 'transmission-distribution');
    expect(losses).toMatchObject({ scope: 3, factorYear: 2024, factorVersion: 'desnz-2024-v1' });
    // Confirmed from the 2024 full set (Transmission and distribution!E22), so no check is shown.
    expect(losses?.check).toBeUndefined();
    expect(losses?.kgCO2e).toBeCloseTo(18.3, 9);
    // Water 2023 has its own figures now (DESNZ 2023 v1.1), and so has 2022 (BEIS 2022: supply 0.149,
    // treatment 0.272); 2021 has none, so 2022's stand in, and say so.
    const water2023 = emissionsOf({ utility: 'water', date: '2023-06-01', quantity: 10, unit: 'm³' });
    expect(water2023.lines.map((l) => l.check)).toEqual([undefined, undefined]);
    expect(water2023.scope3).toBeCloseTo(1.76684547 + 2.01318292, 9);
    const water2022 = emissionsOf({ utility: 'water', date: '2022-06-01', quantity: 10, unit: 'm³' });
    expect(water2022.lines.map((l) => [l.factorYear, l.check])).toEqual([
      [2022, undefined],
      [2022, undefined],
    ]);
    expect(water2022.scope3).toBeCloseTo(1.49 + 2.72, 9);
    const water = emissionsOf({ utility: 'water', date: '2021-06-01', quantity: 10, unit: 'm³' });
    expect(water.lines.map((l) => l.check)).toEqual([
      'no 2021 figure: the 2022 factor stands in',
      'no 2021 figure: the 2022 factor stands in',
    ]);
    // A 2022 electricity month: generation 0.19338, T&D 0.01769, well-to-tank 0.04625 and 0.00423, no note.
    const e2022 = emissionsOf({ utility: 'electricity', date: '2022-09-01', quantity: 1000, unit: 'kWh' });
    expect(e2022.scope2Location).toBeCloseTo(193.38, 9);
    expect(e2022.scope3).toBeCloseTo(17.69 + 46.25 + 4.23, 9);
    expect(e2022.notCovered).toEqual([]);
    expect(e2022.lines.filter((l) => l.check && l.method !== 'market')).toEqual([]);
  });

  it('counts a renewable contract backed by REGOs at zero market-based, location-based unchanged', () => {
    const e = emissionsOf({
      utility: 'electricity',
      date: '2025-05-01',
      quantity: 1000,
      unit: 'kWh',
      contract: { renewable: true, regoBacked: true },
    });
    expect(e.scope2Market).toBe(0);
    expect(e.scope2Location).toBeCloseTo(177, 9);
    expect(e.lines.find((l) => l.method === 'market')).toMatchObject({
      activity: 'rego',
      factorVersion: 'rego-zero',
    });
  });

  it('counts other supply at the residual mix, flagged while it is only a stand-in', () => {
    const e = emissionsOf({
      utility: 'electricity',
      date: '2025-05-01',
      quantity: 1000,
      unit: 'kWh',
      contract: { renewable: true, regoBacked: false },
    });
    const market = e.lines.find((l) => l.method === 'market');
    expect(market).toMatchObject({
      activity: 'residual-mix',
      factorVersion: 'residual-stand-in-desnz-2025-v1',
    });
    expect(market?.check).toMatch(/without REGO/);
    expect(market?.check).toMatch(/No published UK residual mix/);
    expect(e.factorVersions).toEqual(['desnz-2025-v1', 'residual-stand-in-desnz-2025-v1']);
  });

  it('uses a confirmed residual mix or a supplier factor when given', () => {
    const residualMix: ResidualMixFactor[] = [
      { year: 2025, factor: 0.3, source: 'test table', version: 'rm-2025' },
    ];
    const e = emissionsOf(
      { utility: 'electricity', date: '2025-05-01', quantity: 1000, unit: 'kWh' },
      { residualMix },
    );
    expect(e.scope2Market).toBeCloseTo(300, 9);
    expect(e.lines.find((l) => l.method === 'market')?.check).toBeUndefined();
    const supplier = emissionsOf({
      utility: 'electricity',
      date: '2025-05-01',
      quantity: 1000,
      unit: 'kWh',
      contract: {
        renewable: false,
        regoBacked: false,
        supplierFactor: { factor: 0.1, source: 'Supplier FMD 2025' },
      },
    });
    expect(supplier.scope2Market).toBeCloseTo(100, 9);
  });

  it('shows a unit that does not fit as a gap, not as zero', () => {
    const e = emissionsOf({ utility: 'electricity', date: '2025-05-01', quantity: 5, unit: 'm³' });
    expect(e.lines).toEqual([]);
    expect(e.notCovered.map((n) => n.activity)).toContain('generation');
  });

  it('adds scopes into location- and market-based totals and divides by floor area', () => {
    const totals = sumEmissions([
      emissionsOf({ utility: 'gas', date: '2025-01-01', quantity: 1000, unit: 'kWh' }),
      emissionsOf({
        utility: 'electricity',
        date: '2025-01-01',
        quantity: 1000,
        unit: 'kWh',
        contract: { renewable: true, regoBacked: true },
      }),
    ]);
    // Scope 3: T&D 18.53, well-to-tank of the gas 30.21 and of the electricity 45.9 + 3.97.
    const scope3 = 18.53 + 30.21 + 45.9 + 3.97;
    expect(totals.totalLocation).toBeCloseTo(182.96 + 177 + scope3, 9);
    expect(totals.totalMarket).toBeCloseTo(182.96 + 0 + scope3, 9);
    expect(intensityPerSquareMetre(totals.totalLocation, 100)).toBeCloseTo(4.5857, 9);
    expect(intensityPerSquareMetre(10, 0)).toBeUndefined();
    expect(intensityPerSquareMetre(10, undefined)).toBeUndefined();
  });

  it('takes waste factors by category', () => {
    const e = emissionsOf({
      utility: 'waste',
      date: '2025-03-01',
      quantity: 500,
      unit: 'kg',
      wasteCategory: 'Food',
    });
    expect(e.scope3).toBeCloseTo(0.5 * 8.98311, 9);
  });

  it("takes 2023 and 2024 waste at their own year's figures, with no note; 2022 borrows 2023's and says so", () => {
    const waste = (date: string, wasteCategory: string) =>
      emissionsOf({ utility: 'waste', date, quantity: 2000, unit: 'kg', wasteCategory });
    // DESNZ 2024 Waste disposal!I52 (commercial and industrial waste to landfill) and H49 (food composted).
    const general2024 = waste('2024-05-01', 'General waste');
    expect(general2024.scope3).toBeCloseTo(2 * 520.3342, 9);
    expect(general2024.lines.map((l) => [l.factorYear, l.factorVersion, l.check])).toEqual([
      [2024, 'desnz-2024-v2', undefined],
    ]);
    expect(waste('2024-05-01', 'Food').scope3).toBeCloseTo(2 * 8.88386, 9);
    // DESNZ 2023 Waste disposal!G53 (combustion; most recycling prints the same) and I50 (food to landfill).
    const recycled2023 = waste('2023-05-01', 'Dry mixed recycling');
    expect(recycled2023.scope3).toBeCloseTo(2 * 21.28080724, 9);
    expect(recycled2023.lines[0]?.check).toBeUndefined();
    expect(waste('2023-05-01', 'Food waste to landfill').scope3).toBeCloseTo(2 * 700.2098818, 9);
    expect(waste('2022-05-01', 'General waste').lines[0]).toMatchObject({
      factorYear: 2023,
      check: 'no 2022 figure: the 2023 factor stands in',
    });
  });
});
