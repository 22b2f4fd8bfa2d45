import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractInvoices } from '../../../shared/capture/extract.ts';
import { extractGeneric } from '../../../shared/capture/generic-extractor.ts';
import { buildPages } from '../../../shared/capture/pages.ts';
import type { ExpenseAnalysis, ExpenseField } from '../../../shared/capture/textract.ts';
import { analyseBytes } from '../../bench/capture-accuracy-lib.ts';
import { analysis, at, expense, type Line } from './blocks.ts';

/**
 * The vendor and receiver as AnalyzeExpense answers them: grouped NAME / ADDRESS fields tied by
 * GroupProperties, and the flat VENDOR_* and RECEIVER_* fields. The shape follows the service's
 * published sample response (amazon-textract-response-parser, analyzeExpenseResponse-multipage.json):
 * the receiver's group of types ["RECEIVER"], the vendor's of ["VENDOR"], the letterhead vendor with no
 * LabelDetection, a phone read by its "Tel:" label, an e-mail left as OTHER.
 */

const box = { Left: 0.1, Top: 0.1, Width: 0.2, Height: 0.012 };
const sampleField = (
  type: string,
  text: string,
  extra: Partial<ExpenseField> & { group?: [string, string] } = {},
): ExpenseField => {
  const { group, ...rest } = extra;
  return {
    Type: { Text: type, Confidence: 99 },
    ValueDetection: { Text: text, Confidence: 99, Geometry: { BoundingBox: box } },
    PageNumber: 1,
    ...(group ? { GroupProperties: [{ Types: [group[0]], Id: group[1] }] } : {}),
    ...rest,
  };
};
const RECEIVER: [string, string] = ['RECEIVER', '9aa04478-fdf3-4223-8856-37821152c28e'];
const VENDOR: [string, string] = ['VENDOR', '659de08f-ac2d-4977-bb0e-4d97d9c75ac7'];

/** The sample's summary fields, in its order, for an invoice from "Meta Legal Finance". */
function sampleResponse(vendorFields: ExpenseField[]): ExpenseAnalysis {
  return expense([
    sampleField('ADDRESS', 'Abstractors and Design Co.\nSuite 8\n611 Maine St\nSan Francisco CA 94105', {
      group: RECEIVER,
    }),
    sampleField('ZIP_CODE', '94105', { group: RECEIVER }),
    sampleField('NAME', 'Abstractors and Design Co.', { group: RECEIVER }),
    sampleField('ADDRESS', '154-164 The Embarcadero, San Francisco, CA 94105', { group: VENDOR }),
    ...vendorFields,
    sampleField('INVOICE_RECEIPT_DATE', '12 March 2020', { LabelDetection: { Text: 'Invoice Date:' } }),
    sampleField('INVOICE_RECEIPT_ID', '00000135', { LabelDetection: { Text: 'Invoice No:' } }),
    sampleField('TOTAL', '$5,715.00', { LabelDetection: { Text: 'Total:' }, Currency: { Code: 'USD' } }),
    sampleField('RECEIVER_NAME', 'Abstractors and Design Co.'),
    sampleField('VENDOR_ADDRESS', '154-164 The Embarcadero, San Francisco, CA 94105'),
    sampleField('VENDOR_PHONE', '(1) 555-123-1234', { LabelDetection: { Text: 'Tel:' } }),
    sampleField('OTHER', 'admin@metalegalfinance.com', { LabelDetection: { Text: 'Email:' } }),
  ]);
}

/** A page with no letterhead name of its own: a logo the text layer does not hold. */
const page: Line[] = [at(0.6, 0.2, 'Thank you for your business'), at(0.1, 0.8, 'Payment by bank transfer')];
const read = (response: ExpenseAnalysis) =>
  extractGeneric(buildPages(analysis([page])), [1], response).values;

describe('capture reading the AnalyzeExpense sample response', () => {
  it('reads the invoice number, date, total and currency of the summary fields', () => {
    const values = read(
      sampleResponse([
        sampleField('VENDOR_NAME', 'Meta Legal Finance', { Type: { Text: 'VENDOR_NAME', Confidence: 83 } }),
      ]),
    );
    expect(values.invoiceNumber?.value).toBe('00000135');
    expect(values.invoiceDate?.value).toBe('2020-03-12');
    expect(values.grossTotal?.value).toBe(5715);
    expect(values.currency?.value).toBe('USD');
    expect(values.supplierName?.value).toBe('Meta Legal Finance');
  });

  it('takes the vendor from the NAME of a vendor group when no VENDOR_NAME is given', () => {
    for (const type of ['VENDOR', 'VENDOR_SUPPLIER']) {
      const values = read(
        sampleResponse([sampleField('NAME', 'Meta Legal Finance', { group: [type, 'v1'] })]),
      );
      expect(values.supplierName?.value).toBe('Meta Legal Finance');
    }
  });

  it('never takes the NAME of the receiver group, or a vendor it also names as the receiver, for the supplier', () => {
    const values = read(
      sampleResponse([
        sampleField('VENDOR_NAME', 'Abstractors and Design Co', {
          Type: { Text: 'VENDOR_NAME', Confidence: 60 },
        }),
      ]),
    );
    expect(values.supplierName).toBeUndefined();
    expect(read(sampleResponse([])).supplierName).toBeUndefined();
  });
});

describe('a buyer the page prints without a label', () => {
  it('is not taken for the supplier when AnalyzeExpense names it as the receiver', () => {
    const lines: Line[] = [
      at(0.1, 0.2, 'Abstractors and Design Co.'),
      at(0.1, 0.215, 'Suite 8'),
      at(0.1, 0.23, '611 Maine St'),
      at(0.6, 0.1, 'Email: admin@metalegalfinance.com'),
      at(0.6, 0.8, 'Total: $5,715.00'),
    ];
    const values = extractGeneric(buildPages(analysis([lines])), [1], sampleResponse([])).values;
    expect(values.supplierName?.value).toBe('Metalegalfinance');
  });
});

/** A supplier's letterhead (name, address, phone, web, VAT number), a billed-to block and a total. */
async function letterheadPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pdf = doc.addPage([595.28, 841.89]);
  const text = (t: string, x: number, y: number, size = 10) => pdf.drawText(t, { x, y, size, font });
  text('Northwind Power Ltd', 50, 790, 20);
  text('12 Mill Lane', 50, 770);
  text('Leeds LS2 7EW', 50, 757);
  text('Tel: 0113 496 0000', 50, 737);
  text('www.northwind-power.co.uk', 50, 724);
  text('VAT No: GB 123 4567 89', 50, 711);
  text('Invoice number: NW-20417', 350, 770);
  text('Invoice date: 03/02/2024', 350, 757);
  text('Bill to:', 350, 690);
  text('Harbour Estates', 350, 677);
  text('4 Quay Street', 350, 664);
  text('Bristol BS1 4DB', 350, 651);
  text('Electricity supply January', 50, 600);
  text('240.00', 480, 600);
  text('Total amount due: £252.00', 350, 560, 11);
  return doc.save();
}

describe('the local Textract answering the parties as the service does', () => {
  it('groups the letterhead vendor and the billed-to receiver, and gives phone, web and VAT number', async () => {
    const { output } = await analyseBytes(await letterheadPdf());
    const fields = output.expense?.ExpenseDocuments?.[0]?.SummaryFields ?? [];
    const of = (type: string, group?: string) =>
      fields.filter(
        (f) =>
          f.Type?.Text === type &&
          (group === undefined ? !f.GroupProperties : f.GroupProperties?.[0]?.Types?.includes(group)),
      );

    const [vendorName] = of('NAME', 'VENDOR');
    const [vendorAddress] = of('ADDRESS', 'VENDOR');
    expect(vendorName?.ValueDetection?.Text).toBe('Northwind Power Ltd');
    expect(vendorName?.LabelDetection).toBeUndefined();
    expect(vendorAddress?.ValueDetection?.Text).toBe('12 Mill Lane\nLeeds LS2 7EW');
    expect(vendorAddress?.GroupProperties?.[0]?.Id).toBe(vendorName?.GroupProperties?.[0]?.Id);
    expect(of('ZIP_CODE', 'VENDOR')[0]?.ValueDetection?.Text).toBe('LS2 7EW');
    expect(of('VENDOR_NAME')[0]?.ValueDetection?.Text).toBe('Northwind Power Ltd');
    expect(of('VENDOR_ADDRESS')[0]?.ValueDetection?.Text).toBe('12 Mill Lane\nLeeds LS2 7EW');
    expect(of('VENDOR_PHONE')[0]?.LabelDetection?.Text).toBe('Tel:');
    expect(of('VENDOR_PHONE')[0]?.ValueDetection?.Text).toBe('0113 496 0000');
    expect(of('VENDOR_URL')[0]?.ValueDetection?.Text).toBe('www.northwind-power.co.uk');
    expect(of('VENDOR_URL')[0]?.LabelDetection).toBeUndefined();
    expect(of('VENDOR_VAT_NUMBER')[0]?.ValueDetection?.Text).toBe('GB 123 4567 89');

    const [receiverName] = of('NAME', 'RECEIVER');
    const [receiverAddress] = of('ADDRESS', 'RECEIVER');
    expect(receiverName?.ValueDetection?.Text).toBe('Harbour Estates');
    expect(receiverAddress?.ValueDetection?.Text).toBe('4 Quay Street\nBristol BS1 4DB');
    expect(receiverAddress?.GroupProperties?.[0]?.Id).toBe(receiverName?.GroupProperties?.[0]?.Id);
    expect(receiverName?.GroupProperties?.[0]?.Id).not.toBe(vendorName?.GroupProperties?.[0]?.Id);
    expect(of('RECEIVER_NAME')[0]?.ValueDetection?.Text).toBe('Harbour Estates');
    // The grouped fields lead the list, as in the service's answer.
    expect(fields[0]?.GroupProperties).toBeDefined();

    // Capture reads this answer as it reads the service's: the buyer is never the supplier.
    const invoice = extractInvoices(output, []).multiInvoice.invoices[0];
    expect(invoice?.values.supplierName?.value).toMatch(/^Northwind Power/);
    expect(invoice?.values.grossTotal?.value).toBe(252);
  }, 60_000);
});

/**
 * A letter for a window envelope: the sender's name small at the top right, a return-address line over
 * the window, and the addressee printed larger than anything else at the top of the page.
 */
async function windowLetterPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pdf = doc.addPage([595.28, 841.89]);
  const text = (t: string, x: number, y: number, size = 9) => pdf.drawText(t, { x, y, size, font });
  text('Stadtwerke Lindenau GmbH', 420, 790, 11);
  text('Am Wasserturm 3', 420, 776);
  text('04177 Leipzig', 420, 764);
  text('Stadtwerke Lindenau GmbH', 70, 725, 6);
  text('•', 160, 725, 6);
  text('Am Wasserturm 3', 168, 725, 6);
  text('•', 222, 725, 6);
  text('04177 Leipzig', 230, 725, 6);
  text('Margarete Holzapfel', 70, 705, 14);
  text('Lindenstr. 18', 70, 688, 12);
  text('04109 Leipzig', 70, 672, 12);
  text('Rechnungsnummer: SL-88213', 70, 600);
  text('Rechnungsdatum: 14.03.2024', 70, 588);
  text('Strom Februar 2024', 70, 540);
  text('Gesamtbetrag: 212,40 EUR', 380, 500);
  return doc.save();
}

describe('the local Textract and a letter for a window envelope', () => {
  it('answers the addressee in the window as the receiver, never as the vendor, however large it is printed', async () => {
    const { output } = await analyseBytes(await windowLetterPdf());
    const fields = output.expense?.ExpenseDocuments?.[0]?.SummaryFields ?? [];
    const texts = (type: string) =>
      fields.filter((f) => f.Type?.Text === type).map((f) => f.ValueDetection?.Text);
    expect(texts('VENDOR_NAME')).not.toContain('Margarete Holzapfel');
    const vendorNames = fields.filter(
      (f) => f.Type?.Text === 'NAME' && f.GroupProperties?.[0]?.Types?.includes('VENDOR'),
    );
    expect(vendorNames.map((f) => f.ValueDetection?.Text)).not.toContain('Margarete Holzapfel');
    expect(texts('RECEIVER_NAME')).toEqual(['Margarete Holzapfel']);
    const invoice = extractInvoices(output, []).multiInvoice.invoices[0];
    expect(invoice?.values.supplierName?.value).toMatch(/^Stadtwerke Lindenau/);
  }, 60_000);
});

/** A bill whose largest print is its title and number; the supplier's name is in ordinary type. */
async function titledPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pdf = doc.addPage([595.28, 841.89]);
  const text = (t: string, x: number, y: number, size = 9) => pdf.drawText(t, { x, y, size, font });
  text('Harbour Lane Supplies Ltd', 50, 800);
  text('7 Dock Road, Hull HU1 2AB', 50, 788);
  text('Invoice INV/2024/0042', 50, 740, 20);
  text('Invoice date: 03/02/2024', 50, 700);
  text('Cleaning materials', 50, 640);
  text('Total due: £96.00', 380, 560);
  return doc.save();
}

describe('the local Textract and a bill titled in large print', () => {
  it('never answers the title as the vendor, and takes the company name of the letterhead', async () => {
    const { output } = await analyseBytes(await titledPdf());
    const fields = output.expense?.ExpenseDocuments?.[0]?.SummaryFields ?? [];
    const vendor = fields.find((f) => f.Type?.Text === 'VENDOR_NAME');
    expect(vendor?.ValueDetection?.Text).toBe('Harbour Lane Supplies Ltd');
    expect(vendor?.LabelDetection).toBeUndefined();
  }, 60_000);
});

/**
 * The first page of a Geneva utility bill: the sender's name and postal address small at the top left,
 * and a postage-paid imprint with its postal operator printed larger over the addressee.
 */
async function postageImprintPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pdf = doc.addPage([595.28, 841.89]);
  const text = (t: string, x: number, y: number, size = 8) => pdf.drawText(t, { x, y, size, font });
  text('Service Clients SIG', 119, 800);
  text('Services Industriels de Genève', 119, 790);
  text('Case postale 2777', 119, 780);
  text('1211 Genève 2', 119, 770);
  text('P.P. 1211 Genève 2', 326, 757, 11);
  text('Poste CH SA', 518, 757, 11);
  text('Monsieur Philippe Exemple', 326, 720, 9);
  text('Ch. des Sillons 8', 326, 709, 9);
  text('CH-1226 THONEX', 326, 698, 9);
  text('N° facture 83419233 du 01.09.2016', 326, 620);
  text('Montant prélevé de votre compte', 315, 380);
  text('665.65', 505, 380);
  return doc.save();
}

describe('the local Textract and a postage-paid imprint', () => {
  it('answers the name of the letterhead as the vendor, never the imprint or its postal operator', async () => {
    const { output } = await analyseBytes(await postageImprintPdf());
    const fields = output.expense?.ExpenseDocuments?.[0]?.SummaryFields ?? [];
    const vendor = fields.find((f) => f.Type?.Text === 'VENDOR_NAME');
    expect(vendor?.ValueDetection?.Text).toBe('Services Industriels de Genève');
    expect(vendor?.LabelDetection).toBeUndefined();
  }, 60_000);
});

/** A collective bill's list of accounts: each row's billing period under "From" and "To" headings. */
async function periodColumnsPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const pdf = doc.addPage([612, 792]);
  const text = (t: string, x: number, y: number, size = 8) => pdf.drawText(t, { x, y, size, font });
  text('Atmos Energy Corporation', 40, 760, 12);
  text('Billing Date', 361, 640);
  text('Meter Read', 440, 640);
  text('From', 373, 630);
  text('Previous', 453, 630);
  text('To', 379, 620);
  text('Current', 453, 620);
  text('4/10/19', 367, 600);
  text('45563', 459, 600);
  text('5/10/19', 367, 590);
  text('45837', 459, 590);
  return doc.save();
}

describe('the local Textract and a column headed "From"', () => {
  it('answers no vendor from the heading, as the service reads it as a table', async () => {
    const { output } = await analyseBytes(await periodColumnsPdf());
    const fields = output.expense?.ExpenseDocuments?.[0]?.SummaryFields ?? [];
    const vendors = fields.filter((f) => f.Type?.Text === 'VENDOR_NAME').map((f) => f.ValueDetection?.Text);
    expect(vendors).toEqual(['Atmos Energy Corporation']);
  }, 60_000);
});
