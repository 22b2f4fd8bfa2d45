import { describe, expect, it } from 'vitest';
import {
  assessAgainstPathway,
  floorAreaInForce,
  intensities,
  misalignmentYear,
  type PathwayPoint,
  type SiteYearFigures,
} from '../../../shared/benchmarks/crrem.ts';
import { parsePathwayCsv, pathwayKeysFor } from '../../../shared/benchmarks/pathways.ts';

/** A straight-line pathway: `start` kgCO2e/m² and kWh/m² in 2020, falling `step` a year. */
function linearPathway(start: number, step: number): PathwayPoint[] {
  return Array.from({ length: 31 }, (_, i) => ({
    year: 2020 + i,
    kwhM2: start - step * i,
    kgCo2eM2: start - step * i,
  }));
}

/** A year of a 1,000 m² site whose energy is all gas at `kgPerKwh`. */
const gasYear = (year: number, kwhM2: number, kgM2 = kwhM2): SiteYearFigures => ({
  year,
  energyKwh: kwhM2 * 1000,
  emissionsKg: kgM2 * 1000,
  electricityKwh: 0,
  electricityKg: 0,
});

const area1000 = { current: 1000 };

describe('CRREM misalignment', () => {
  it('crosses mid-way: flat at 40 against a pathway falling from 60 by 2 a year crosses in 2031', () => {
    // Pathway 2030 = 60 − 20 = 40 (equal, not above); 2031 = 38 < 40, and it keeps falling.
    const points = intensities([gasYear(2020, 40), gasYear(2021, 40)], area1000);
    const result = assessAgainstPathway(points, linearPathway(60, 2));
    expect(result.misalignment).toEqual({ year: 2031, carbon: 2031, energy: 2031 });
    expect(points.find((p) => p.year === 2031)).toMatchObject({ kwhM2: 40, projected: true });
  });

  it('never crosses: halving each year stays under a pathway that ends at 10', () => {
    // 40, 20, 10, 5 … against 70, 68, 66 … 10 in 2050: below in every year.
    const points = intensities([gasYear(2020, 40), gasYear(2021, 20)], area1000);
    expect(points.find((p) => p.year === 2023)?.kwhM2).toBeCloseTo(5);
    const result = assessAgainstPathway(points, linearPathway(70, 2));
    expect(result.misalignment).toEqual({ year: null, carbon: null, energy: null });
    expect(result.latest).toMatchObject({ year: 2021, kgCo2eM2: 20, pathwayKgCo2eM2: 68, carbonGap: -48 });
  });

  it('already misaligned: above the pathway from its first measured year', () => {
    const points = intensities([gasYear(2020, 80), gasYear(2021, 80)], area1000);
    const result = assessAgainstPathway(points, linearPathway(60, 2));
    expect(result.misalignment.year).toBe(2020);
    expect(result.latest?.carbonGap).toBe(80 - 58);
  });

  it('a site above the pathway for a while that comes back under is not misaligned', () => {
    expect(
      misalignmentYear(
        [
          { year: 2020, value: 50 },
          { year: 2021, value: 30 },
        ],
        new Map([
          [2020, 40],
          [2021, 40],
        ]),
      ),
    ).toBeNull();
  });

  it("follows the grid factor's decline for the electricity part of the emissions", () => {
    // All electricity: 100 kWh/m² at 0.2 kg/kWh = 20 kg/m² in 2022. The grid falls 0.01 a year to 0.1 in
    // 2032 and stays there, so carbon is 100 × factor: 10 kg/m² from 2032. The pathway is 15 to 2040, 8 after.
    const grid = new Map<number, number>();
    for (let year = 2022; year <= 2050; year++) grid.set(year, Math.max(0.1, 0.2 - 0.01 * (year - 2022)));
    const points = intensities(
      [
        {
          year: 2022,
          energyKwh: 100_000,
          emissionsKg: 20_000,
          electricityKwh: 100_000,
          electricityKg: 20_000,
        },
      ],
      area1000,
      grid,
    );
    expect(points.find((p) => p.year === 2027)?.kgCo2eM2).toBeCloseTo(15);
    expect(points.find((p) => p.year === 2035)?.kgCo2eM2).toBeCloseTo(10);
    const pathway = Array.from({ length: 31 }, (_, i) => ({
      year: 2020 + i,
      kwhM2: 200,
      kgCo2eM2: 2020 + i <= 2040 ? 15 : 8,
    }));
    expect(assessAgainstPathway(points, pathway).misalignment).toEqual({
      year: 2041,
      carbon: 2041,
      energy: null,
    });
  });

  it('divides each year by the floor area in force that year', () => {
    const history = [
      { from: '2020-01-01', to: '2021-12-31', floorAreaM2: 500 },
      { from: '2022-01-01', floorAreaM2: 1000 },
    ];
    expect(floorAreaInForce(2021, 1000, history)).toBe(500);
    expect(floorAreaInForce(2023, 1000, history)).toBe(1000);
    const points = intensities([gasYear(2021, 40), gasYear(2022, 40)], { current: 1000, history });
    // 40,000 kWh over 500 m² in 2021, over 1,000 m² in 2022.
    expect(points.slice(0, 2).map((p) => [p.year, p.kwhM2, p.floorAreaM2])).toEqual([
      [2021, 80, 500],
      [2022, 40, 1000],
    ]);
  });

  it('weights a year by the days each area was in force, and fills uncovered days with the current area', () => {
    // 2023 has 365 days: 1 January to 1 July is 182 days at 600 m², the other 183 at 1,200 m².
    const extended = [
      { from: '2019-01-01', to: '2023-07-01', floorAreaM2: 600 },
      { from: '2023-07-02', floorAreaM2: 1200 },
    ];
    expect(floorAreaInForce(2023, 1200, extended)).toBeCloseTo((182 * 600 + 183 * 1200) / 365, 9);
    // A closed period in the middle of 2024 (366 days): 1 March to 31 May is 92 days at 300 m²,
    // the other 274 at the current 900 m².
    const refit = [{ from: '2024-03-01', to: '2024-05-31', floorAreaM2: 300 }];
    expect(floorAreaInForce(2024, 900, refit)).toBeCloseTo((92 * 300 + 274 * 900) / 366, 9);
    // Without a current area only the covered days count.
    expect(floorAreaInForce(2024, null, refit)).toBe(300);
    expect(floorAreaInForce(2025, null, refit)).toBeNull();
  });

  it('has no intensities without a floor area, rather than intensities of zero', () => {
    expect(floorAreaInForce(2022, null)).toBeNull();
    expect(floorAreaInForce(2022, 0)).toBeNull();
    expect(intensities([gasYear(2022, 40)], { current: null })).toEqual([]);
  });
});

describe('pathway CSV', () => {
  it("reads CRREM's layout and names bad rows", () => {
    const csv = [
      'Country,Property type,Year,kWh/m²,kgCO2e/m²',
      'United Kingdom,Office,2020,150,30',
      'UK,Office,2021,145,28',
      'United Kingdom,Office,20x1,1,1',
    ].join('\n');
    const parsed = parsePathwayCsv(csv);
    expect(parsed.pathways).toHaveLength(1);
    expect(parsed.pathways[0]?.points).toEqual([
      { year: 2020, kwhM2: 150, kgCo2eM2: 30 },
      { year: 2021, kwhM2: 145, kgCo2eM2: 28 },
    ]);
    expect(parsed.errors).toEqual([{ row: 4, message: 'year must be a whole year' }]);
  });

  it('refuses a file without the pathway columns', () => {
    expect(parsePathwayCsv('country,year\nUK,2020').errors[0]?.message).toMatch(/property type|propertyType/);
  });

  it("finds a site's pathway under CRREM's name for its type", () => {
    expect(pathwayKeysFor('England', 'Warehouse')).toContain(
      'united kingdom|industrialdistributionwarehouse',
    );
  });
});
