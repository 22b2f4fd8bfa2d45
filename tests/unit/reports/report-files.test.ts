import { describe, expect, it } from 'vitest';
import {
  coverageReport,
  type PeriodFigures,
  type SiteFigures,
  secrReport,
  summaryReport,
} from '../../../shared/reports/report-builders.ts';
import { reportCsv, reportXlsx } from '../../../shared/reports/report-files.ts';
import { reportPdf } from '../../../shared/reports/report-pdf.ts';
import { pdfInfo, pdfPages, xlsxSheets } from '../../support/report-files.ts';

const period = (year: number, scale: number): PeriodFigures => ({
  start: `${year}-01-01`,
  end: `${year}-12-31`,
  utilities: {
    electricity: {
      consumption: 120_000 * scale,
      unit: 'kWh',
      emissionsKg: 24_840 * scale,
      cost: 30_000 * scale,
    },
    gas: { consumption: 80_000 * scale, unit: 'kWh', emissionsKg: 14_640 * scale, cost: 6_000 * scale },
    water: { consumption: 900 * scale, unit: 'm³', emissionsKg: 150 * scale },
  },
  cost: 36_000 * scale,
  emissionsKg: 39_630 * scale,
  scope1Kg: 14_640 * scale,
  scope2LocationKg: 24_840 * scale,
  scope2MarketKg: 9_000 * scale,
  scope3Kg: 150 * scale,
});

const basics = {
  companyName: 'Acme Estates',
  scopeName: 'the whole company',
  dataDate: new Date('2025-12-31T00:00:00Z'),
  factorSets: ['DESNZ 2025'],
};

const secr = () =>
  secrReport({
    ...basics,
    current: period(2025, 1),
    previous: period(2024, 1.25),
    intensity: { metric: 'floor-area', value: 12_500, previousValue: 12_000 },
  });

describe('the SECR report', () => {
  it('writes its figures into the PDF: cover, contents, key figures, tables and page numbers', async () => {
    const { bytes, pages } = await reportPdf(secr());
    const text = await pdfPages(bytes);
    expect(text).toHaveLength(pages);
    expect(text[0]).toContain('Streamlined Energy and Carbon Reporting');
    expect(text[0]).toContain('DESNZ 2025');
    expect(text[1]).toContain('Contents');
    expect(text[1]).toMatch(/Methodology\s+\d/);
    const all = text.join('\n');
    // 120,000 + 80,000 kWh of energy; water is no energy.
    expect(all).toContain('200,000 kWh');
    expect(all).toContain('14.64 tCO2e');
    // Market-based scope 2 beside location-based, previous year beside this one.
    expect(all).toContain('9.00');
    expect(all).toContain('250,000');
    // (14.64 + 24.84) t over 12,500 m².
    expect(all).toContain('0.0032 tCO2e');
    for (const [i, page] of text.entries()) expect(page).toContain(`Page ${i + 1} of ${pages}`);
  });

  it('dates the PDF with the data, so the same figures give the same bytes', async () => {
    const first = await reportPdf(secr());
    const second = await reportPdf(secr());
    expect(Buffer.from(first.bytes).equals(Buffer.from(second.bytes))).toBe(true);
    const info = await pdfInfo(first.bytes);
    expect(String(info.CreationDate)).toContain('20251231');
    expect(String(info.ModDate)).toContain('20251231');
    expect(Buffer.from(reportXlsx(secr())).equals(Buffer.from(reportXlsx(secr())))).toBe(true);
  });

  it('writes one sheet per table with number cells', () => {
    const sheets = xlsxSheets(reportXlsx(secr()));
    expect([...sheets.keys()]).toEqual(['Energy use', 'Emissions', 'Intensity']);
    const energy = sheets.get('Energy use') ?? [];
    expect(energy[0]).toEqual(['Source', '2025', '2024', 'Change']);
    expect(energy.find((r) => r[0] === 'Electricity')).toEqual(['Electricity', 120_000, 150_000, -0.2]);
    expect(energy.at(-1)?.slice(0, 3)).toEqual(['Total energy use', 200_000, 250_000]);
    const emissions = sheets.get('Emissions') ?? [];
    expect(emissions[1]?.[1]).toBeCloseTo(14.64, 9);
    expect(emissions[3]?.[1]).toBeCloseTo(9, 9);
    const intensity = sheets.get('Intensity') ?? [];
    expect(intensity[2]?.[1]).toBeCloseTo((14.64 + 24.84) / 12_500, 12);
  });

  it('writes every table into the CSV under its title', () => {
    const csv = new TextDecoder().decode(reportCsv(secr()));
    expect(csv).toContain('UK energy use (kWh)\r\nSource,2025,2024,Change\r\nElectricity,120000,150000,-0.2');
    expect(csv).toContain('Greenhouse gas emissions (tCO2e)');
  });
});

describe('a portfolio summary of 500 sites', () => {
  const sites: SiteFigures[] = Array.from({ length: 500 }, (_, i) => ({
    id: String(i).padStart(24, '0'),
    name: `Site ${String(i + 1).padStart(3, '0')}`,
    current: { energyKwh: 1000 + i, emissionsKg: 200 + i, cost: 300 },
    previous: { energyKwh: 1000, emissionsKg: i === 7 ? 5000 : 200, cost: 280 },
  }));
  const doc = summaryReport(
    {
      ...basics,
      current: period(2025, 1),
      previous: period(2024, 1.1),
      sites,
      months: Array.from({ length: 12 }, (_, m) => ({
        month: `2025-${String(m + 1).padStart(2, '0')}`,
        label: `M${m + 1}`,
        utilities: { electricity: { consumption: 10_000, unit: 'kWh', emissionsKg: 2070 } },
        emissionsKg: 2070,
      })),
      costsIncluded: true,
    },
    'portfolio',
  );

  it('breaks the sites table across pages, repeating its header, and names the top movers', async () => {
    const { bytes, pages } = await reportPdf(doc);
    const text = await pdfPages(bytes);
    const continued = text.filter((p) => p.includes('Every site (continued)'));
    expect(continued.length).toBeGreaterThan(5);
    for (const page of continued) expect(page).toContain('tCO2e 2025');
    expect(text.join(' ')).toContain('Site 500');
    const movers = text.find((p) => p.includes('changed most against the year before')) ?? '';
    // Site 008 fell from 5 t to 0.207 t: the largest move.
    expect(movers.indexOf('Site 008')).toBeGreaterThan(-1);
    expect(pages).toBeGreaterThanOrEqual(15);
    const sheets = xlsxSheets(reportXlsx(doc));
    expect(sheets.get('Sites')).toHaveLength(501);
  });
});

describe('the data coverage report', () => {
  const doc = coverageReport({
    ...basics,
    period: { start: '2025-01-01', end: '2025-12-31' },
    meters: [
      {
        site: 'Aldgate House',
        meter: 'Main electricity',
        utilityType: 'electricity',
        months: 12,
        missing: [],
        estimated: [],
      },
      {
        site: 'Temple Quay',
        meter: 'Gas',
        utilityType: 'gas',
        months: 12,
        missing: ['2025-03', '2025-04', '2025-05', '2025-09'],
        estimated: ['2025-12'],
      },
      {
        site: 'Colmore Gate',
        meter: 'Water',
        utilityType: 'water',
        months: 12,
        missing: [],
        estimated: ['2025-01'],
      },
    ],
  });

  it('lists only the meters with gaps or estimates, worst first, their months as ranges', () => {
    const rows = xlsxSheets(reportXlsx(doc)).get('Coverage') ?? [];
    expect(rows.slice(1)).toEqual([
      ['Temple Quay', 'Gas', 'Gas', 4, 1, '2025-03–2025-05, 2025-09', '2025-12'],
      ['Colmore Gate', 'Water', 'Water', 0, 1, undefined, '2025-01'],
    ]);
  });

  it('counts the meters and months in the PDF summary', async () => {
    const text = (await pdfPages((await reportPdf(doc)).bytes)).join(' ');
    expect(text).toMatch(/Meters checked\s+3/);
    expect(text).toMatch(/Meters with every month billed\s+1/);
    expect(text).toMatch(/Meter months missing\s+4/);
    // 36 meter months, 4 missing and 2 estimated: 30 billed.
    expect(text).toContain('83.3%');
  });
});
