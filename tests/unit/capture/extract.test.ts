import { describe, expect, it } from 'vitest';
import {
  captureStatus,
  extractInvoices,
  isInvoiceComplete,
  previewTemplate,
} from '../../../shared/capture/extract.ts';
import type { InvoiceExtract, Template } from '../../../shared/capture/model.ts';
import { at, output, row } from './blocks.ts';
import { brightwatt, brightwattTemplate, METER_A, METER_B, northgrid } from './sample-invoices.ts';

describe('extracting with a template', () => {
  it('reads with the matching template and fills what it did not read from the generic extractor', () => {
    const results = extractInvoices(output([brightwatt()]), [brightwattTemplate()]);
    const [invoice] = results.multiInvoice.invoices;
    expect(invoice).toMatchObject({
      index: 0,
      pages: [1],
      method: 'template',
      supplierId: 'sup-bw',
      templateId: 'tpl-bw',
      versionId: 'v2',
      utilityType: 'electricity',
    });
    expect(invoice?.values.invoiceNumber?.value).toBe('BW-1001');
    expect(invoice?.values.grossTotal?.value).toBe(422.17);
    // Not in the template: read by the generic extractor.
    expect(invoice?.values.accountNumber?.value).toBe('55512345');
    expect(invoice?.values.vatTotal?.value).toBe(70.36);
    expect(invoice?.rates.map((r) => r._id.split(':')[0])).toEqual(['r1', 'r1', 'r1', 'r1']);
    expect(invoice?.rates.map((r) => r.unitRate)).toEqual([0.25123, 0.15, 0.45, 0.00775]);
  });

  it('still reads a layout that moved down, through anchors and the generic extractor', () => {
    const results = extractInvoices(output([brightwatt({ dy: 0.05, invoiceNumber: 'BW-2002' })]), [
      brightwattTemplate(),
    ]);
    const values = results.multiInvoice.invoices[0]?.values;
    expect(values?.invoiceNumber?.value).toBe('BW-2002');
    expect(values?.closingRead?.value).toBe(11500);
    expect(values?.grossTotal?.value).toBe(422.17);
    // The invoice date bound has no anchor and lands on empty paper; the generic extractor reads it.
    expect(values?.invoiceDate?.value).toBe('2025-02-05');
    expect(results.multiInvoice.invoices[0]?.method).toBe('template');
  });

  it('prefers, of two matching templates, the one that reads more', () => {
    const poor: Template = {
      ...brightwattTemplate(),
      _id: 'tpl-poor',
      supplierRules: [
        { _id: 'a', type: 'contains', value: 'Brightwatt' },
        { _id: 'b', type: 'contains', value: 'invoice' },
      ],
      values: [],
      rates: [],
    };
    const results = extractInvoices(output([brightwatt()]), [poor, brightwattTemplate()]);
    expect(results.multiInvoice.invoices[0]?.templateId).toBe('tpl-bw');
  });

  it('splits a document into invoices by the version’s start rule', () => {
    const template = brightwattTemplate();
    template.pages = [
      {
        versionId: 'v2',
        invoiceStartRule: { _id: 'start', type: 'contains', value: 'Business electricity invoice' },
      },
    ];
    const results = extractInvoices(
      output([brightwatt({ invoiceNumber: 'BW-1' }), brightwatt({ invoiceNumber: 'BW-2' })]),
      [template],
    );
    expect(
      results.multiInvoice.invoices.map((i) => [i.index, i.pages, i.values.invoiceNumber?.value]),
    ).toEqual([
      [0, [1], 'BW-1'],
      [1, [2], 'BW-2'],
    ]);
    expect(results.extractReadings.map((r) => r.invoiceIndex)).toEqual([0, 1]);
  });
});

describe('extracting without a template', () => {
  it('reads a bill no template matches with the generic extractor', () => {
    const other: Template = {
      ...brightwattTemplate(),
      supplierRules: [{ _id: 's', type: 'contains', value: 'Someone Else' }],
    };
    const results = extractInvoices(output([brightwatt()], { ocr: true }), [other]);
    const [invoice] = results.multiInvoice.invoices;
    expect(results).toMatchObject({ pageCount: 1, ocr: true });
    expect(invoice?.method).toBe('generic');
    expect(invoice?.templateId).toBeUndefined();
    expect(invoice?.values.invoiceNumber?.value).toBe('BW-1001');
    expect(invoice?.multiMeter.meters).toEqual([
      { utilityType: 'electricity', index: 0, meterPointNumber: '1312345678907' },
    ]);
    expect(results.extractMeterValues).toEqual([]);
    expect(results.extractReadings).toEqual([
      {
        invoiceIndex: 0,
        utilityType: 'electricity',
        meterIndex: 0,
        readings: [
          {
            meterSerialNumber: 'E12K34567',
            openingRead: 10000,
            closingRead: 11500,
            readType: 'estimated',
            consumption: 1500,
            date: '2025-01-31',
          },
        ],
      },
    ]);
    expect(captureStatus(results)).toBe('captured');
  });

  it('leaves a document nothing matches for manual entry', () => {
    const results = extractInvoices(
      output([[at(0.1, 0.1, 'Dear customer,'), at(0.1, 0.12, 'Thank you for your letter of last week.')]]),
      [brightwattTemplate()],
    );
    const [invoice] = results.multiInvoice.invoices;
    expect(invoice?.method).toBe('generic');
    expect(invoice?.values).toEqual({});
    expect(invoice?.rates).toEqual([]);
    expect(invoice?.multiMeter.meters).toEqual([]);
    expect(results.extractReadings).toEqual([]);
    expect(captureStatus(results)).toBe('manual');
  });

  it('reads each invoice of a document holding several', () => {
    const second = brightwatt({ invoiceNumber: 'BW-1002', mpanText: METER_A });
    const results = extractInvoices(
      output([brightwatt(), [at(0.1, 0.1, 'Terms and conditions')], second]),
      [],
    );
    expect(
      results.multiInvoice.invoices.map((i) => [
        i.pages,
        i.values.invoiceNumber?.value,
        i.values.meterPointNumber?.value,
      ]),
    ).toEqual([
      [[1, 2], 'BW-1001', METER_B],
      [[3], 'BW-1002', METER_A],
    ]);
  });

  it('lists the meters of a multi-meter invoice and keys their results by invoice, utility and meter', () => {
    const results = extractInvoices(output(northgrid()), []);
    const [invoice] = results.multiInvoice.invoices;
    expect(invoice?.multiMeter.meters).toEqual([
      { utilityType: 'electricity', index: 0, meterPointNumber: METER_A },
      { utilityType: 'electricity', index: 1, meterPointNumber: METER_B },
    ]);
    expect(
      results.extractMeterValues.map((m) => [
        m.invoiceIndex,
        m.utilityType,
        m.meterIndex,
        m.values.closingRead?.value,
      ]),
    ).toEqual([
      [0, 'electricity', 0, 5800],
      [0, 'electricity', 1, 900],
    ]);
    expect(results.extractRates.map((m) => [m.meterIndex, m.rates.length])).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(results.extractReadings.map((m) => [m.meterIndex, m.readings[0]?.readType])).toEqual([
      [0, 'actual'],
      [1, 'estimated'],
    ]);
    expect(isInvoiceComplete(invoice as InvoiceExtract)).toBe(true);
  });
});

describe('whether an invoice is complete', () => {
  const base = (
    values: InvoiceExtract['values'],
    meters: InvoiceExtract['multiMeter']['meters'] = [],
  ): InvoiceExtract => ({
    index: 0,
    pages: [1],
    method: 'generic',
    values,
    rates: [],
    multiMeter: { meters },
  });
  const v = (value: string | number) => ({ value, text: String(value), confidence: 90 });

  it('leaves a bill in another currency than pounds for a person to look at', () => {
    const values = { invoiceNumber: v('1'), invoiceDate: v('2025-01-01'), grossTotal: v(10) };
    expect(isInvoiceComplete(base({ ...values, currency: v('GBP') }))).toBe(true);
    expect(isInvoiceComplete(base({ ...values, currency: v('EUR') }))).toBe(false);
    expect(isInvoiceComplete(base({ ...values, currency: v('USD') }))).toBe(false);
  });

  it('leaves a bill whose net and tax do not make its total for a person to look at', () => {
    const values = { invoiceNumber: v('1'), invoiceDate: v('2025-01-01'), grossTotal: v(10) };
    const checked = (taxAdds: boolean) => ({ ...base(values), totalsCheck: { taxAdds, problems: [] } });
    expect(isInvoiceComplete(checked(true))).toBe(true);
    expect(isInvoiceComplete(checked(false))).toBe(false);
  });

  it('needs what, when and how much', () => {
    expect(
      isInvoiceComplete(base({ invoiceNumber: v('1'), invoiceDate: v('2025-01-01'), grossTotal: v(10) })),
    ).toBe(true);
    expect(
      isInvoiceComplete(
        base({
          meterPointNumber: v(METER_A),
          startDate: v('2025-01-01'),
          endDate: v('2025-01-31'),
          netTotal: v(10),
        }),
      ),
    ).toBe(true);
    expect(
      isInvoiceComplete(
        base({ startDate: v('2025-01-01'), endDate: v('2025-01-31'), grossTotal: v(1) }, [
          { utilityType: 'gas', index: 0, meterPointNumber: '123456' },
        ]),
      ),
    ).toBe(true);
  });

  it('is incomplete without an identity, a date or a total', () => {
    expect(isInvoiceComplete(base({ invoiceDate: v('2025-01-01'), grossTotal: v(10) }))).toBe(false);
    expect(
      isInvoiceComplete(base({ invoiceNumber: v('1'), startDate: v('2025-01-01'), grossTotal: v(10) })),
    ).toBe(false);
    expect(isInvoiceComplete(base({ invoiceNumber: v('1'), invoiceDate: v('2025-01-01') }))).toBe(false);
    expect(
      isInvoiceComplete(base({ invoiceNumber: v(''), invoiceDate: v('2025-01-01'), grossTotal: v(1) })),
    ).toBe(false);
  });
});

describe('template preview', () => {
  it('shows each rule, where every bound landed with its text, and only what the template reads', () => {
    const preview = previewTemplate(output([brightwatt({ dy: 0.05 })]), brightwattTemplate());
    expect(preview.supplierMatched).toBe(true);
    expect(preview.supplierRules.map((r) => r.holds)).toEqual([true]);
    expect(preview.versionId).toBe('v2');
    const [invoice] = preview.invoices;
    expect(invoice?.values.invoiceNumber?.value).toBe('BW-1001');
    expect(invoice?.values.accountNumber).toBeUndefined();
    const bound = invoice?.bounds.find((b) => b.boundId === 'b-inv');
    expect(bound).toMatchObject({ page: 1, anchorFound: true, text: 'BW-1001' });
    expect(bound?.box.Top).toBeCloseTo(0.162);
    expect(invoice?.bounds.find((b) => b.boundId === 'b-date')).toMatchObject({ text: '' });
    expect(invoice?.rates).toHaveLength(4);
  });

  it('previews a sample whose supplier rules do not hold yet', () => {
    const preview = previewTemplate(
      output([row(0.12, [0.1, 'Invoice number'], [0.35, 'X-1'])]),
      brightwattTemplate(),
    );
    expect(preview.supplierMatched).toBe(false);
    expect(preview.invoices[0]?.values.invoiceNumber?.value).toBe('X-1');
  });
});

describe('speed', () => {
  it('extracts a three-page document in a few milliseconds', () => {
    const doc = output([...northgrid(), brightwatt()]);
    const templates = [brightwattTemplate()];
    extractInvoices(doc, templates);
    const runs = 20;
    const start = performance.now();
    for (let i = 0; i < runs; i++) extractInvoices(doc, templates);
    const each = (performance.now() - start) / runs;
    expect(each).toBeLessThan(25);
  });
});
