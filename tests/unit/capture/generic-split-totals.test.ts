import { describe, expect, it } from 'vitest';
import { extractGeneric } from '../../../shared/capture/generic-extractor.ts';
import { parsePrice } from '../../../shared/capture/number-text.ts';
import { buildPages } from '../../../shared/capture/pages.ts';
import type { ExpenseAnalysis, ExpenseField } from '../../../shared/capture/textract.ts';
import { analyseBytes } from '../../bench/capture-accuracy-lib.ts';
import { invoicePdf } from '../../local/textract-documents.ts';
import { analysis, at, expense, type Line, row } from './blocks.ts';

/** Bills whose totals, numbers, labels or vendor are printed in ways the generic reader met late. */

const readAll = (lines: Line[], expenseAnalysis?: ExpenseAnalysis) =>
  extractGeneric(buildPages(analysis([lines])), [1], expenseAnalysis);
const read = (lines: Line[]) => readAll(lines).values;

describe('a total split across two tax-rate rows', () => {
  it('adds the tax of each rate, and checks the sum with net and total', () => {
    const { values, totalsCheck } = readAll([
      at(0.1, 0.1, 'Rechnung Nr. 5001'),
      at(0.1, 0.12, 'Rechnungsdatum: 12.03.2021'),
      ...row(0.5, [0.5, 'Nettobetrag'], [0.8, '300,00']),
      ...row(0.52, [0.5, 'MwSt. 7% auf 100,00'], [0.8, '7,00']),
      ...row(0.54, [0.5, 'MwSt. 19% auf 200,00'], [0.8, '38,00']),
      ...row(0.56, [0.5, 'Gesamtbetrag'], [0.8, '345,00']),
    ]);
    expect(values.vatTotal?.value).toBe(45);
    expect(values.netTotal?.value).toBe(300);
    expect(values.grossTotal?.value).toBe(345);
    expect(totalsCheck).toMatchObject({ taxAdds: true, problems: [] });
  });

  it('adds the totals of each rate when no one total is printed', () => {
    const { values, totalsCheck } = readAll([
      at(0.1, 0.1, 'Invoice Number: 88120'),
      at(0.1, 0.12, 'Invoice Date: 02/05/2024'),
      ...row(0.5, [0.5, 'Net 5%'], [0.8, '£100.00']),
      ...row(0.52, [0.5, 'Net 20%'], [0.8, '£200.00']),
      ...row(0.54, [0.5, 'VAT 5%'], [0.8, '£5.00']),
      ...row(0.56, [0.5, 'VAT 20%'], [0.8, '£40.00']),
      ...row(0.58, [0.5, 'Total incl. VAT 5%'], [0.8, '£105.00']),
      ...row(0.6, [0.5, 'Total incl. VAT 20%'], [0.8, '£240.00']),
    ]);
    expect(values.netTotal?.value).toBe(300);
    expect(values.vatTotal?.value).toBe(45);
    expect(values.grossTotal?.value).toBe(345);
    expect(totalsCheck?.problems).toEqual([]);
  });

  it('takes the sum under a column of rates, not the first rate, and checks it with net and tax', () => {
    const { values, totalsCheck } = readAll([
      at(0.1, 0.1, 'Rechnung Nr. 471102'),
      at(0.1, 0.12, 'Rechnungsdatum: 05.03.2018'),
      ...row(0.85, [0.57, 'Nettobetrag'], [0.69, 'MwSt-Betrag'], [0.79, 'MwSt-%'], [0.88, 'Endbetrag']),
      ...row(0.865, [0.6, '321,40'], [0.73, '61,07'], [0.793, '19,0'], [0.906, '382,47']),
      ...row(0.876, [0.6, '127,59'], [0.737, '8,93'], [0.802, '7,0'], [0.906, '136,52']),
      ...row(0.898, [0.6, '448,99'], [0.729, '70,00'], [0.802, 'EUR'], [0.906, '518,99']),
    ]);
    expect(values.grossTotal?.value).toBe(518.99);
    expect(values.netTotal?.value).toBe(448.99);
    expect(values.vatTotal?.value).toBe(70);
    expect(totalsCheck).toMatchObject({ taxAdds: true, problems: [] });
  });

  it('adds up a column of rates with no sum printed under it, checked with net and tax', () => {
    const { values, totalsCheck } = readAll([
      at(0.1, 0.1, 'Factuurnummer: 2024-0193'),
      at(0.1, 0.12, 'Factuurdatum: 12-04-2024'),
      ...row(0.85, [0.4, 'Tarief'], [0.57, 'Netto'], [0.7, 'Btw'], [0.88, 'Totaal']),
      ...row(0.865, [0.4, '21%'], [0.6, '100,00'], [0.73, '21,00'], [0.9, '121,00']),
      ...row(0.876, [0.4, '9%'], [0.6, '50,00'], [0.73, '4,50'], [0.9, '54,50']),
    ]);
    expect(values.grossTotal?.value).toBe(175.5);
    expect(values.netTotal?.value).toBe(150);
    expect(values.vatTotal?.value).toBe(25.5);
    expect(totalsCheck).toMatchObject({ taxAdds: true, problems: [] });
  });

  it('keeps one rate alone as it is', () => {
    const values = read([
      ...row(0.5, [0.5, 'Net charges'], [0.8, '£100.00']),
      ...row(0.52, [0.5, 'VAT @ 20%'], [0.8, '£20.00']),
      ...row(0.54, [0.5, 'Total'], [0.8, '£120.00']),
    ]);
    expect(values.vatTotal?.value).toBe(20);
    expect(values.grossTotal?.value).toBe(120);
  });
});

describe('numbers the text layer breaks into pieces', () => {
  it.each([
    ['1 234,56', 1234.56],
    ['12 345,67', 12345.67],
    ['1.234, 56', 1234.56],
    ['€ 1.234, 56', 1234.56],
  ])('reads %s as one amount', (text, value) => {
    expect(parsePrice(text)).toBe(value);
  });

  it('still reads a count and an amount printed side by side as two numbers', () => {
    expect(parsePrice('31 100.00')).toBe(100);
  });

  it('reads the amount due and the net of a bill printed that way', () => {
    const values = read([
      at(0.1, 0.1, 'Facture n° 2023-118'),
      at(0.1, 0.12, 'Date : 14/02/2023'),
      ...row(0.5, [0.5, 'Total HT'], [0.8, '1.028, 80']),
      ...row(0.52, [0.5, 'TVA 20%'], [0.8, '205,76']),
      ...row(0.54, [0.5, 'Net à payer'], [0.8, '1 234,56']),
    ]);
    expect(values.grossTotal?.value).toBe(1234.56);
    expect(values.netTotal?.value).toBe(1028.8);
  });
});

describe('Dutch labels', () => {
  it('reads a payment overview number, the invoice date, the total and the amount to pay', () => {
    const values = read([
      at(0.55, 0.2, 'Betaaloverzichtnummer: 3017468211'),
      at(0.55, 0.22, 'Factuurdatum: 14-02-2023'),
      at(0.55, 0.24, 'Debiteurnummer: 40012877'),
      ...row(0.5, [0.5, 'Totaal'], [0.8, '€ 64,30']),
      ...row(0.6, [0.1, 'Te betalen'], [0.8, '€ 64,30']),
    ]);
    expect(values.invoiceNumber?.value).toBe('3017468211');
    expect(values.invoiceDate?.value).toBe('2023-02-14');
    expect(values.accountNumber?.value).toBe('40012877');
    expect(values.grossTotal?.value).toBe(64.3);
  });

  it('reads the invoice number and date printed under their labels, and the amount due by its date', () => {
    const values = read([
      ...row(0.2, [0.1, 'Factuurnummer'], [0.35, 'Factuurdatum'], [0.6, 'Uiterste betaaldatum']),
      ...row(0.215, [0.1, 'F2023-0042'], [0.35, '3 maart 2023'], [0.6, '17 maart 2023']),
      ...row(0.5, [0.5, 'Totaal excl. btw'], [0.8, '€ 100,00']),
      ...row(0.52, [0.5, 'Btw 21%'], [0.8, '€ 21,00']),
      ...row(0.54, [0.5, 'Totaal te betalen'], [0.8, '€ 121,00']),
    ]);
    expect(values.invoiceNumber?.value).toBe('F2023-0042');
    expect(values.invoiceDate?.value).toBe('2023-03-03');
    expect(values.dueDate?.value).toBe('2023-03-17');
    expect(values.grossTotal?.value).toBe(121);
  });
});

describe("AnalyzeExpense's vendor", () => {
  const vendor = (over: Partial<ExpenseField>): ExpenseField => ({
    Type: { Text: 'VENDOR_NAME', Confidence: 70 },
    ValueDetection: { Text: 'Northwind Power Ltd', Confidence: 88 },
    PageNumber: 1,
    ...over,
  });
  const page = [at(0.1, 0.05, 'Billing Bureau Ltd'), at(0.1, 0.5, 'Total due £10.00')];

  it('is taken when it was read by its printed label, however sure Textract is of the type', () => {
    const labelled = vendor({ LabelDetection: { Text: 'Supplier:', Confidence: 90 } });
    const { values } = readAll(page, expense([labelled]));
    expect(values.supplierName?.value).toBe('Northwind Power Ltd');
    expect(values.supplierName?.confidence).toBe(88);
  });

  it('gives way, when found without a label, to a name the page prints', () => {
    const { values } = readAll(page, expense([vendor({})]));
    expect(values.supplierName?.value).toBe('Billing Bureau Ltd');
  });

  it('is answered by the local Textract as the service documents it: no label, the type less sure', async () => {
    const { bytes } = await invoicePdf();
    const { output } = await analyseBytes(bytes);
    const fields = output.expense?.ExpenseDocuments?.[0]?.SummaryFields ?? [];
    const found = fields.find((f) => f.Type?.Text === 'VENDOR_NAME');
    expect(found?.ValueDetection?.Text).toBe('ACME Energy Ltd');
    expect(found?.LabelDetection).toBeUndefined();
    expect(found?.Type?.Confidence).toBe(70);
    expect(found?.ValueDetection?.Confidence).toBeGreaterThan(80);
    expect(found?.ValueDetection?.Geometry?.BoundingBox).toBeDefined();
    expect(found?.PageNumber).toBe(1);
  }, 60_000);
});
