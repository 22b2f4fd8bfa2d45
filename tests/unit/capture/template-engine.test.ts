import { describe, expect, it } from 'vitest';
import type { Template, TemplateBound, TemplateRate } from '../../../shared/capture/model.ts';
import { buildPages } from '../../../shared/capture/pages.ts';
import {
  chooseVersion,
  identifySupplier,
  placeBound,
  readInvoice,
  readRates,
  readValue,
  ruleHolds,
  splitInvoices,
} from '../../../shared/capture/template-engine.ts';
import { analysis, at, row } from './blocks.ts';
import { brightwatt, brightwattTemplate, METER_A, METER_B, northgrid } from './sample-invoices.ts';

const must = <T>(value: T | undefined): T => {
  if (value === undefined) throw new Error('expected a value');
  return value;
};

const docOf = (...pages: Parameters<typeof analysis>[0]) => buildPages(analysis(pages));

describe('supplier rules', () => {
  const doc = docOf(brightwatt(), [at(0.1, 0.1, 'Page two: terms and conditions')]);

  it('matches a phrase in any case and spacing, on any page or a given one', () => {
    expect(ruleHolds({ _id: 'r', type: 'contains', value: 'BRIGHTWATT   energy' }, doc, [1, 2])).toBe(true);
    expect(
      ruleHolds({ _id: 'r', type: 'contains', value: 'terms and conditions', page: 2 }, doc, [1, 2]),
    ).toBe(true);
    expect(
      ruleHolds({ _id: 'r', type: 'contains', value: 'terms and conditions', page: 1 }, doc, [1, 2]),
    ).toBe(false);
    expect(
      ruleHolds({ _id: 'r', type: 'contains', value: 'terms and conditions', page: -1 }, doc, [1, 2]),
    ).toBe(true);
  });

  it('matches regular expressions, bare or with flags, and fails on a broken one', () => {
    expect(ruleHolds({ _id: 'r', type: 'regex', value: 'invoice number\\s+BW-\\d+' }, doc, [1])).toBe(true);
    expect(ruleHolds({ _id: 'r', type: 'regex', value: '/invoice NUMBER/' }, doc, [1])).toBe(false);
    expect(ruleHolds({ _id: 'r', type: 'regex', value: '/invoice NUMBER/i' }, doc, [1])).toBe(true);
    expect(ruleHolds({ _id: 'r', type: 'regex', value: '([unclosed' }, doc, [1])).toBe(false);
  });

  it('negates a rule', () => {
    expect(ruleHolds({ _id: 'r', type: 'contains', value: 'Credit note', negate: true }, doc, [1, 2])).toBe(
      true,
    );
    expect(ruleHolds({ _id: 'r', type: 'contains', value: 'Brightwatt', negate: true }, doc, [1, 2])).toBe(
      false,
    );
  });

  it('identifies the templates whose rules all hold, the most specific first', () => {
    const general = brightwattTemplate();
    const specific: Template = {
      ...brightwattTemplate(),
      _id: 'tpl-bw-business',
      supplierRules: [
        { _id: 'a', type: 'contains', value: 'Brightwatt Energy' },
        { _id: 'b', type: 'contains', value: 'Business electricity' },
      ],
    };
    const other: Template = {
      ...brightwattTemplate(),
      _id: 'tpl-other',
      supplierRules: [
        { _id: 'a', type: 'contains', value: 'Brightwatt Energy' },
        { _id: 'c', type: 'contains', value: 'Gas invoice' },
      ],
    };
    const empty: Template = { ...brightwattTemplate(), _id: 'tpl-empty', supplierRules: [] };
    expect(identifySupplier([general, other, empty, specific], doc).map((t) => t._id)).toEqual([
      'tpl-bw-business',
      'tpl-bw',
    ]);
  });
});

describe('versions', () => {
  const template = brightwattTemplate();

  it('chooses the version whose rules hold', () => {
    expect(chooseVersion(template, docOf(brightwatt()))?._id).toBe('v2');
    const old = docOf([at(0.1, 0.04, 'Brightwatt Energy Ltd'), at(0.1, 0.1, 'Customer reference 123')]);
    expect(chooseVersion(template, old)?._id).toBe('v1');
  });

  it('falls back to a version without rules, else the newest', () => {
    const doc = docOf([at(0.1, 0.04, 'Brightwatt Energy Ltd')]);
    expect(chooseVersion(template, doc)?._id).toBe('v2');
    const withOpen: Template = {
      ...template,
      versions: [...template.versions, { _id: 'v0', name: 'any', createdAt: '2010-01-01T00:00:00.000Z' }],
    };
    expect(chooseVersion(withOpen, doc)?._id).toBe('v0');
    expect(chooseVersion({ ...template, versions: [] }, doc)).toBeUndefined();
  });
});

describe('splitting a document into invoices', () => {
  const page = (text: string) => [at(0.1, 0.1, text)];
  const doc = docOf(
    page('Cover letter'),
    page('INVOICE 1'),
    page('continued'),
    page('INVOICE 2'),
    page('more'),
  );

  it('starts an invoice at every page where the start rule holds, a cover page joining the first', () => {
    const rule = {
      versionId: 'v',
      invoiceStartRule: { _id: 's', type: 'regex' as const, value: '^INVOICE \\d' },
    };
    expect(splitInvoices(rule, doc)).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('cuts runs of a fixed number of pages', () => {
    expect(splitInvoices({ versionId: 'v', pagesPerInvoice: 2 }, doc)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('keeps the document as one invoice without a rule', () => {
    expect(splitInvoices(undefined, doc)).toEqual([[1, 2, 3, 4, 5]]);
    expect(splitInvoices({ versionId: 'v' }, doc)).toEqual([[1, 2, 3, 4, 5]]);
  });
});

describe('bounds and values', () => {
  const template = brightwattTemplate();
  const bound = (id: string) => template.bounds.find((b) => b._id === id) as TemplateBound;
  const value = (key: string) => template.values.find((v) => v.key === key);

  it('reads a value from the text inside its bound, with the words’ box and lowest confidence', () => {
    const doc = docOf([...brightwatt().filter((l) => l.text !== 'BW-1001'), at(0.35, 0.12, 'BW-1001', 72)]);
    const placed = placeBound(bound('b-inv'), doc, [1]);
    const read = placed && readValue(value('invoiceNumber') ?? must(template.values[0]), placed, doc);
    expect(read?.value).toBe('BW-1001');
    expect(read?.confidence).toBe(72);
    expect(read?.page).toBe(1);
    expect(read?.bbox?.Left).toBeCloseTo(0.35);
  });

  it('moves an anchored bound with its anchor when the layout shifted', () => {
    const doc = docOf(brightwatt({ dy: 0.05 }));
    const placed = placeBound(bound('b-inv'), doc, [1]);
    expect(placed?.anchorFound).toBe(true);
    expect(placed?.dy).toBeCloseTo(0.05);
    expect(readValue(must(value('invoiceNumber')), must(placed), doc)?.value).toBe('BW-1001');
    // The same bound without its anchor reads the wrong row.
    const { anchor: _anchor, ...drawn } = bound('b-inv');
    const still = placeBound(drawn, doc, [1]);
    expect(readValue(must(value('invoiceNumber')), must(still), doc)?.value).not.toBe('BW-1001');
  });

  it('picks the anchor occurrence nearest to where it was drawn', () => {
    const doc = docOf([...brightwatt(), ...row(0.9, [0.1, 'Invoice number'], [0.35, 'OLD-1'])]);
    expect(
      readValue(must(value('invoiceNumber')), must(placeBound(bound('b-inv'), doc, [1])), doc)?.value,
    ).toBe('BW-1001');
  });

  it('leaves a bound where it was drawn when its anchor is missing', () => {
    const doc = docOf(brightwatt().filter((l) => l.text !== 'Invoice number'));
    const placed = placeBound(bound('b-inv'), doc, [1]);
    expect(placed?.anchorFound).toBe(false);
    expect(placed?.box.Top).toBeCloseTo(0.112);
  });

  it('does not follow the anchor words to another column, where they label something else', () => {
    // The label was not read, but a heading elsewhere on the page repeats its words.
    const doc = docOf([
      ...brightwatt().filter((l) => l.text !== 'Invoice number'),
      ...row(0.3, [0.7, 'Invoice number'], [0.9, 'see overleaf']),
    ]);
    const placed = must(placeBound(bound('b-inv'), doc, [1]));
    expect(placed.anchorFound).toBe(false);
    expect(readValue(must(value('invoiceNumber')), placed, doc)?.value).toBe('BW-1001');
  });

  it('applies the regex capture group, then parses type and format', () => {
    const doc = docOf(brightwatt());
    const placed = must(placeBound(bound('b-period'), doc, [1]));
    expect(readValue(must(value('startDate')), placed, doc)?.value).toBe('2025-01-01');
    expect(readValue(must(value('endDate')), placed, doc)?.value).toBe('2025-01-31');
    const reads = must(placeBound(bound('b-reads'), doc, [1]));
    expect(readValue(must(value('openingRead')), reads, doc)?.value).toBe(10000);
    expect(readValue(must(value('closingRead')), reads, doc)?.value).toBe(11500);
    expect(readValue(must(value('isEstimate')), reads, doc)?.value).toBe(true);
  });

  it('reads nothing when the regex does not match or the text does not parse', () => {
    const doc = docOf(brightwatt());
    const placed = must(placeBound(bound('b-period'), doc, [1]));
    expect(readValue({ ...must(value('startDate')), regex: 'never (\\d+)' }, placed, doc)).toBeUndefined();
    expect(
      readValue({ ...must(value('startDate')), regex: undefined, type: 'price' }, placed, doc),
    ).toBeUndefined();
  });

  it('reads page -1 from the last page of the invoice', () => {
    const doc = docOf([at(0.1, 0.1, 'first')], [at(0.1, 0.1, 'second')], brightwatt());
    expect(placeBound(bound('b-total'), doc, [1, 2, 3])?.page).toBe(3);
    expect(placeBound(bound('b-total'), doc, [1, 2])?.page).toBe(2);
    expect(placeBound({ ...bound('b-total'), page: 5 }, doc, [1, 2])).toBeUndefined();
  });

  it('reads a meter point as its MPAN core however it is printed', () => {
    const doc = docOf(brightwatt({ mpanText: 'S 02 801 100 13 1234 5678 907' }));
    const mpanBound: TemplateBound = {
      ...bound('b-inv'),
      _id: 'b-mpan',
      anchor: undefined,
      Top: 0.215,
      Width: 0.4,
    };
    const read = readValue(
      { _id: 'x', versionId: 'v2', key: 'meterPointNumber', boundId: 'b-mpan', type: 'text' },
      must(placeBound(mpanBound, doc, [1])),
      doc,
    );
    expect(read?.value).toBe('1312345678907');
  });
});

describe('rate tables', () => {
  const template = brightwattTemplate();
  const rate = template.rates[0] as TemplateRate;
  const bound = template.bounds.find((b) => b._id === 'b-rates') as TemplateBound;

  it('reads a row per charge, columns by their extents, pence rates in pounds, kinds from descriptions', () => {
    const doc = docOf(brightwatt());
    const lines = readRates(rate, must(placeBound(bound, doc, [1])), doc);
    expect(
      lines.map(({ description, kind, units, unit, unitRate, amount }) => ({
        description,
        kind,
        units,
        unit,
        unitRate,
        amount,
      })),
    ).toEqual([
      { description: 'Day units', kind: 'unit', units: 1000, unit: 'kWh', unitRate: 0.25123, amount: 251.23 },
      { description: 'Night units', kind: 'unit', units: 500, unit: 'kWh', unitRate: 0.15, amount: 75 },
      {
        description: 'Standing charge',
        kind: 'standing',
        units: 31,
        unit: 'day',
        unitRate: 0.45,
        amount: 13.95,
      },
      {
        description: 'Climate Change Levy',
        kind: 'ccl',
        units: 1500,
        unit: 'kWh',
        unitRate: 0.00775,
        amount: 11.63,
      },
    ]);
    expect(new Set(lines.map((l) => l._id)).size).toBe(4);
    expect(lines[0]?.page).toBe(1);
  });

  it('takes a rate printed without a pence sign as pence when the line only adds up that way', () => {
    const doc = docOf([
      ...row(0.4, [0.1, 'Description'], [0.45, 'Units'], [0.6, 'Rate p/kWh'], [0.8, 'Amount']),
      ...row(0.42, [0.1, 'Peak units'], [0.45, '200'], [0.6, '30.5'], [0.8, '61.00']),
      ...row(0.44, [0.1, 'Other fee'], [0.45, '1'], [0.6, '2.50'], [0.8, '2.50']),
      ...row(0.46, [0.1, 'VAT on charges'], [0.45, ''], [0.6, ''], [0.8, '12.70']),
    ]);
    const lines = readRates(
      rate,
      must(placeBound({ ...bound, anchor: undefined, Height: 0.08 }, doc, [1])),
      doc,
    );
    expect(lines.map((l) => [l.kind, l.unitRate, l.amount])).toEqual([
      ['unit', 0.305, 61],
      ['other', 2.5, 2.5],
      ['vat', undefined, 12.7],
    ]);
  });

  it('skips rows the skip regex matches and rows without a figure', () => {
    const doc = docOf([
      ...row(0.4, [0.1, 'Description'], [0.8, 'Amount']),
      at(0.1, 0.42, 'Energy charges'),
      ...row(0.44, [0.1, 'Day units'], [0.45, '100 kWh'], [0.6, '20p'], [0.8, '£20.00']),
      ...row(0.46, [0.1, 'Sub total'], [0.8, '£20.00']),
    ]);
    const lines = readRates(
      { ...rate, skipRegex: '^(Description|Sub total)' },
      must(placeBound({ ...bound, anchor: undefined }, doc, [1])),
      doc,
    );
    expect(lines.map((l) => l.description)).toEqual(['Day units']);
  });

  it('reads free-text rows when the table has no columns', () => {
    const doc = docOf([at(0.1, 0.42, 'Standing charge 01/01/2025 - 31/01/2025 31 days @ 45.00p £13.95')]);
    const [line] = readRates(
      { ...rate, columns: [] },
      must(placeBound({ ...bound, anchor: undefined }, doc, [1])),
      doc,
    );
    expect(line).toMatchObject({
      kind: 'standing',
      units: 31,
      unitRate: 0.45,
      amount: 13.95,
      startDate: '2025-01-01',
      endDate: '2025-01-31',
    });
  });
});

describe('reading an invoice with a template', () => {
  it('reads values and rates of the chosen version only', () => {
    const template = brightwattTemplate();
    template.values.push({
      _id: 'old',
      versionId: 'v1',
      key: 'accountNumber',
      boundId: 'b-date',
      type: 'text',
    });
    const read = readInvoice(template, 'v2', docOf(brightwatt()), [1]);
    expect(read.values.invoiceNumber?.value).toBe('BW-1001');
    expect(read.values.grossTotal?.value).toBe(422.17);
    expect(read.values.accountNumber).toBeUndefined();
    expect(read.rates).toHaveLength(4);
    expect(read.meters).toEqual([]);
  });

  it('puts values and rates with a meter index on their meter, with its readings', () => {
    const pages = northgrid();
    const v = 'v1';
    const bound = (id: string, top: number): TemplateBound => ({
      _id: id,
      versionId: v,
      name: id,
      page: 1,
      Left: 0.33,
      Top: top - 0.005,
      Width: 0.3,
      Height: 0.02,
    });
    const template: Template = {
      _id: 'tpl-ng',
      supplierId: 'sup-ng',
      type: 'electricity',
      status: 'ready',
      supplierRules: [{ _id: 's', type: 'contains', value: 'Northgrid Power' }],
      versions: [{ _id: v, name: 'v1', createdAt: '2024-01-01T00:00:00.000Z' }],
      versionRules: [],
      pages: [],
      bounds: [
        bound('m0-mpan', 0.27),
        bound('m0-open', 0.31),
        bound('m0-close', 0.33),
        bound('m1-mpan', 0.57),
        bound('m1-open', 0.61),
        bound('m1-close', 0.63),
        {
          _id: 'm1-rates',
          versionId: v,
          name: 'rates',
          page: 1,
          Left: 0.05,
          Top: 0.665,
          Width: 0.9,
          Height: 0.04,
        },
      ],
      values: [0, 1].flatMap((m) => [
        {
          _id: `mp${m}`,
          versionId: v,
          key: 'meterPointNumber' as const,
          boundId: `m${m}-mpan`,
          type: 'text' as const,
          meterIndex: m,
        },
        {
          _id: `o${m}`,
          versionId: v,
          key: 'openingRead' as const,
          boundId: `m${m}-open`,
          type: 'number' as const,
          meterIndex: m,
        },
        {
          _id: `c${m}`,
          versionId: v,
          key: 'closingRead' as const,
          boundId: `m${m}-close`,
          type: 'number' as const,
          meterIndex: m,
        },
        {
          _id: `e${m}`,
          versionId: v,
          key: 'isEstimate' as const,
          boundId: `m${m}-close`,
          type: 'boolean' as const,
          regex: '(A|E)$',
          meterIndex: m,
        },
      ]),
      rates: [
        {
          _id: 'rates1',
          versionId: v,
          boundId: 'm1-rates',
          columns: [],
          meterIndex: 1,
          utilityType: 'electricity',
        },
      ],
    };
    const read = readInvoice(template, v, docOf(...pages), [1, 2]);
    expect(read.values).toEqual({});
    expect(read.meters.map((m) => [m.meterIndex, m.values.meterPointNumber?.value])).toEqual([
      [0, METER_A],
      [1, METER_B],
    ]);
    expect(read.meters[0]?.readings).toEqual([{ openingRead: 5000, closingRead: 5800, readType: 'actual' }]);
    expect(read.meters[1]?.readings).toEqual([{ openingRead: 700, closingRead: 900, readType: 'estimated' }]);
    expect(read.meters[1]?.rates.map((r) => [r.kind, r.amount])).toEqual([
      ['unit', 40],
      ['standing', 15.5],
    ]);
  });
});
