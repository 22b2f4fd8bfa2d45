import { describe, expect, it } from 'vitest';
import { customReport } from '../../../shared/reports/custom-report.ts';
import { customTemplateSchema, periodDates } from '../../../shared/reports/custom-templates.ts';
import type { PeriodFigures } from '../../../shared/reports/report-builders.ts';
import { reportCsv, reportXlsx } from '../../../shared/reports/report-files.ts';
import { reportPdf } from '../../../shared/reports/report-pdf.ts';
import { pdfPages, xlsxSheets } from '../../support/report-files.ts';

const period = (year: number, scale: number): PeriodFigures => ({
  start: `${year}-01-01`,
  end: `${year}-12-31`,
  utilities: {
    electricity: {
      consumption: 120_000 * scale,
      unit: 'kWh',
      emissionsKg: 24_000 * scale,
      cost: 30_000 * scale,
    },
    gas: { consumption: 80_000 * scale, unit: 'kWh', emissionsKg: 14_000 * scale, cost: 6_000 * scale },
    water: { consumption: 900 * scale, unit: 'm³', emissionsKg: 150 * scale },
  },
  cost: 36_000 * scale,
  emissionsKg: 38_150 * scale,
  scope1Kg: 0,
  scope2LocationKg: 0,
  scope2MarketKg: 0,
  scope3Kg: 0,
});

const template = customTemplateSchema.parse({
  name: 'Board pack',
  sections: [
    { kind: 'text', title: 'Foreword', text: 'Our year in energy.' },
    { kind: 'figures', title: 'Headline', measure: 'emissions' },
    { kind: 'table', title: 'Energy by site', measure: 'energy', grouping: 'site' },
    { kind: 'chart', title: 'Cost by utility', measure: 'cost', grouping: 'utility' },
    { kind: 'table', title: 'Consumption by utility', measure: 'consumption', grouping: 'utility' },
  ],
});

const input = {
  companyName: 'Acme Estates',
  scopeName: 'the whole company',
  dataDate: new Date('2025-12-31T00:00:00Z'),
  factorSets: ['DESNZ 2025'],
  name: template.name,
  sections: template.sections,
  current: period(2025, 1),
  previous: period(2024, 2),
  months: [],
  sites: [
    {
      id: 'a',
      name: 'Aldgate House',
      current: { energyKwh: 150_000, emissionsKg: 30_000 },
      previous: { energyKwh: 100_000, emissionsKg: 20_000 },
    },
    {
      id: 'b',
      name: 'Hardman Court',
      current: { energyKwh: 50_000, emissionsKg: 8_150 },
      previous: { energyKwh: 300_000, emissionsKg: 56_300 },
    },
  ],
  costsIncluded: true,
};

describe('a report from a company template', () => {
  it('holds the chosen sections in order, with the figures of its scope and the year before', async () => {
    const doc = customReport(input);
    expect(doc.sections.map((s) => s.heading)).toEqual([
      'Foreword',
      'Headline',
      'Energy by site',
      'Cost by utility',
      'Consumption by utility',
    ]);
    const figures = doc.sections[1]?.blocks.find((b) => b.kind === 'figures');
    expect(figures?.kind === 'figures' && figures.items).toEqual([
      { label: 'Emissions (tCO2e, location-based)', value: '38.15' },
      { label: 'Emissions (tCO2e, location-based), year before', value: '76.30' },
      { label: 'Year on year', value: '-50.0%' },
    ]);
    const chart = doc.sections[3]?.blocks.find((b) => b.kind === 'chart');
    expect(chart?.kind === 'chart' && chart.chart.bars).toEqual([
      { label: 'Electricity', values: [30_000, 60_000] },
      { label: 'Gas', values: [6_000, 12_000] },
      { label: 'Water', values: [0, 0] },
    ]);

    const sheets = xlsxSheets(reportXlsx(doc));
    expect([...sheets.keys()]).toEqual(['Energy by site', 'Consumption by utility']);
    expect(sheets.get('Energy by site')?.slice(1)).toEqual([
      ['Aldgate House', 150_000, 100_000, 0.5],
      ['Hardman Court', 50_000, 300_000, -250_000 / 300_000],
      ['Total', 200_000, 400_000, -0.5],
    ]);
    expect(sheets.get('Consumption by utility')?.[3]).toEqual(['Water', 'm³', 900, 1800, -0.5]);
    const csv = new TextDecoder().decode(reportCsv(doc));
    expect(csv).toContain('Energy by site\r\nSite,');
    expect(csv).not.toContain('Foreword');

    const pages = (await pdfPages((await reportPdf(doc)).bytes)).join('\n');
    for (const text of ['Board pack', 'Our year in energy.', 'Energy by site', 'Cost by utility', '38.15'])
      expect(pages).toContain(text);
  }, 60_000);

  it('says so where the company hides its costs, instead of showing them', () => {
    const doc = customReport({ ...input, costsIncluded: false });
    const cost = doc.sections[3]?.blocks;
    expect(cost).toEqual([{ kind: 'paragraph', text: 'The company does not show cost figures.' }]);
  });
});

describe('a company template', () => {
  it('is refused with a message beside each field at fault', () => {
    const result = customTemplateSchema.safeParse({
      name: '',
      scopeType: 'portfolio',
      sections: [
        { kind: 'table', title: 'No grouping', measure: 'energy' },
        { kind: 'chart', title: 'Mixed units', measure: 'consumption', grouping: 'month' },
        { kind: 'text', title: '' },
      ],
    });
    expect(result.success).toBe(false);
    const paths = result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'name: This field is required',
        'sections.0.grouping: Choose how it is split',
        'sections.1.measure: Utilities are measured in different units: chart energy use instead',
        'sections.2.title: Give the section a title',
      ]),
    );
    expect(customTemplateSchema.safeParse({ name: 'Empty', sections: [] }).error?.issues[0]?.message).toBe(
      'Add at least one section',
    );
  });

  it('covers whole months already ended', () => {
    expect(periodDates('last-month', '2026-01-15')).toEqual({
      startDate: '2025-12-01',
      endDate: '2025-12-31',
    });
    expect(periodDates('last-quarter', '2026-05-02')).toEqual({
      startDate: '2026-01-01',
      endDate: '2026-03-31',
    });
    expect(periodDates('last-12-months', '2026-03-09')).toEqual({
      startDate: '2025-03-01',
      endDate: '2026-02-28',
    });
    expect(periodDates('last-year', '2026-03-09')).toEqual({
      startDate: '2025-01-01',
      endDate: '2025-12-31',
    });
  });
});
