/**
 * The demo's benchmark data. CRREM's pathways are licensed, so the demo ships a small made-up set in
 * CRREM's layout, named and flagged as illustrative so every screen says it is not CRREM's. REEB's and
 * ETN's figures have not been gathered from their sources: their sets are illustrative too, until a
 * customer or staff load the published ones.
 */

/** Property types of the illustrative set: 2020 and 2050 figures (kWh/m², kgCO2e/m²), a straight line between. */
const ILLUSTRATIVE_TYPES: readonly { type: string; kwh: [number, number]; kg: [number, number] }[] = [
  { type: 'Office', kwh: [190, 70], kg: [48, 4] },
  { type: 'Retail', kwh: [260, 95], kg: [62, 5] },
  { type: 'Warehouse', kwh: [95, 40], kg: [22, 2] },
  { type: 'Industrial', kwh: [120, 50], kg: [28, 2.5] },
  { type: 'Residential block', kwh: [140, 55], kg: [30, 2.5] },
  { type: 'Hotel', kwh: [280, 110], kg: [60, 5] },
  { type: 'Leisure', kwh: [300, 115], kg: [65, 5.5] },
  { type: 'Education', kwh: [150, 60], kg: [32, 3] },
  { type: 'Healthcare', kwh: [330, 130], kg: [70, 6] },
];

/** An illustrative UK grid factor falling from 0.233 kg/kWh in 2020 to 0.02 in 2050. */
const GRID: [number, number] = [0.233, 0.02];

const between = ([start, end]: [number, number], year: number) =>
  Math.round((start + ((end - start) * (year - 2020)) / 30) * 1000) / 1000;

export const ILLUSTRATIVE_PATHWAY_SET = {
  name: 'Illustrative pathways (not CRREM)',
  version: 'demo-1',
  source: 'Made up for the demo in the layout of CRREM’s pathway workbook; not CRREM’s figures',
  illustrative: true,
} as const;

/** The illustrative set as the CSV an upload takes. */
export function illustrativePathwayCsv(): string {
  const rows = ['Country,Property type,Year,kWh/m²,kgCO2e/m²,Grid kgCO2e/kWh'];
  for (const t of ILLUSTRATIVE_TYPES) {
    for (let year = 2020; year <= 2050; year++) {
      rows.push(
        ['United Kingdom', t.type, year, between(t.kwh, year), between(t.kg, year), between(GRID, year)].join(
          ',',
        ),
      );
    }
  }
  return rows.join('\n');
}

export interface SeedBenchmark {
  name: string;
  kind: 'leti' | 'reeb' | 'etn';
  propertyType: string;
  values: Record<string, number>;
  source: string;
  period: string;
  illustrative: boolean;
  check?: string;
}

const REEB_SOURCE =
  'Illustrative figures for the demo, not REEB’s (Better Buildings Partnership) published benchmark';
const ETN_SOURCE = 'Illustrative figures for the demo: the ETN benchmark’s source is not yet known';

/** REEB and ETN sets until the published figures are loaded. */
export const ILLUSTRATIVE_ENERGY_BENCHMARKS: readonly SeedBenchmark[] = [
  {
    name: 'REEB offices (illustrative)',
    kind: 'reeb',
    propertyType: 'Office',
    values: { typical: 200, goodPractice: 120 },
    source: REEB_SOURCE,
    period: 'illustrative, no period',
    illustrative: true,
  },
  {
    name: 'REEB retail (illustrative)',
    kind: 'reeb',
    propertyType: 'Retail',
    values: { typical: 300, goodPractice: 180 },
    source: REEB_SOURCE,
    period: 'illustrative, no period',
    illustrative: true,
  },
  {
    name: 'ETN offices (illustrative)',
    kind: 'etn',
    propertyType: 'Office',
    values: { typical: 190, goodPractice: 110 },
    source: ETN_SOURCE,
    period: 'illustrative, no period',
    illustrative: true,
  },
  {
    name: 'ETN warehouses (illustrative)',
    kind: 'etn',
    propertyType: 'Warehouse',
    values: { typical: 110, goodPractice: 60 },
    source: ETN_SOURCE,
    period: 'illustrative, no period',
    illustrative: true,
  },
];
