import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import type { StoredItem } from '../../../functions/core/data/item-repository.ts';
import type { ExtractedRate } from '../../../shared/capture/model.ts';
import { money, toPence } from '../../../shared/validation/figures.ts';

/**
 * A demo bill as its supplier's billing system prints it: one A4 page with the supplier, the invoice's
 * numbers and dates, whom it is for, the supply and its reads, the charge lines and the totals. Drawn
 * from the stored invoice, so the document says what the invoice page shows beside it.
 */

const A4: [number, number] = [595.28, 841.89];
const INK = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.38, 0.4, 0.45);

const DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const showDate = (iso: unknown) => (typeof iso === 'string' ? DATE.format(new Date(`${iso}T00:00:00Z`)) : '');
const pounds = (n: unknown) => (typeof n === 'number' ? money(toPence(n)) : '');
const figure = (n: unknown, places = 0) =>
  typeof n === 'number' ? n.toLocaleString('en-GB', { maximumFractionDigits: places }) : '';
const pence = (rate: number | undefined) =>
  rate === undefined ? '' : rate < 1 ? `${(rate * 100).toFixed(3)}p` : `£${rate.toFixed(4)}`;

interface Pen {
  page: PDFPage;
  regular: PDFFont;
  bold: PDFFont;
}

function text(
  pen: Pen,
  value: string,
  x: number,
  y: number,
  opts: { size?: number; bold?: boolean; muted?: boolean } = {},
) {
  pen.page.drawText(value, {
    x,
    y,
    size: opts.size ?? 10,
    font: opts.bold ? pen.bold : pen.regular,
    color: opts.muted ? MUTED : INK,
  });
}

/** Text whose right edge is at `right`, as figures in a column are set. */
function right(
  pen: Pen,
  value: string,
  rightEdge: number,
  y: number,
  opts: { size?: number; bold?: boolean } = {},
) {
  const font = opts.bold ? pen.bold : pen.regular;
  const width = font.widthOfTextAtSize(value, opts.size ?? 10);
  text(pen, value, rightEdge - width, y, opts);
}

function labelled(pen: Pen, label: string, value: string, x: number, y: number) {
  text(pen, label, x, y, { size: 9, muted: true });
  text(pen, value, x + 110, y);
}

/** The PDF of a stored demo invoice, from its supplier `supplierName`. */
export async function invoiceDocument(invoice: StoredItem, supplierName: string): Promise<Uint8Array> {
  const v = (invoice.values ?? {}) as Record<string, unknown>;
  const lines = (Array.isArray(invoice.rates) ? invoice.rates : []) as ExtractedRate[];
  const doc = await PDFDocument.create();
  const created = typeof v.invoiceDate === 'string' ? new Date(`${v.invoiceDate}T06:00:00Z`) : new Date(0);
  doc.setTitle(`Invoice ${String(v.invoiceNumber ?? '')}`);
  doc.setAuthor(supplierName);
  doc.setCreator(`${supplierName} billing`);
  doc.setProducer('pdf-lib');
  doc.setCreationDate(created);
  doc.setModificationDate(created);
  const page = doc.addPage(A4);
  const pen: Pen = {
    page,
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
  };

  text(pen, supplierName, 50, 780, { size: 20, bold: true });
  text(pen, 'Business energy and utilities', 50, 762, { size: 9, muted: true });
  right(pen, 'INVOICE', 545, 780, { size: 16, bold: true });

  const details: [string, string][] = [
    ['Invoice number', String(v.invoiceNumber ?? '')],
    ['Invoice date', showDate(v.invoiceDate)],
    ['Payment due', showDate(v.dueDate)],
    ['Account number', String(v.accountNumber ?? '')],
    ['Billing period', `${showDate(v.startDate)} to ${showDate(v.endDate)}`],
  ];
  details.forEach(([label, value], i) => {
    labelled(pen, label, value, 50, 720 - i * 16);
  });

  text(pen, 'Invoice to', 340, 720, { size: 9, muted: true });
  text(pen, String(v.recipient ?? ''), 340, 704, { bold: true });
  text(pen, 'Supply address', 340, 680, { size: 9, muted: true });
  String(v.siteAddress ?? '')
    .split(', ')
    .forEach((part, i) => {
      text(pen, part, 340, 664 - i * 14);
    });

  let y = 600;
  text(pen, 'Your supply', 50, y, { size: 12, bold: true });
  y -= 20;
  if (typeof v.meterPointNumber === 'string') {
    const name =
      invoice.utilityType === 'gas'
        ? 'MPRN'
        : invoice.utilityType === 'electricity'
          ? 'MPAN'
          : 'Supply point';
    labelled(pen, name, v.meterPointNumber, 50, y);
    y -= 16;
  }
  if (typeof v.meterSerialNumber === 'string') {
    labelled(pen, 'Meter serial', v.meterSerialNumber, 50, y);
    y -= 16;
  }
  if (typeof v.openingRead === 'number' && typeof v.closingRead === 'number') {
    const places = invoice.utilityType === 'water' ? 1 : 0;
    labelled(pen, 'Opening read', `${figure(v.openingRead, places)} (actual)`, 50, y);
    labelled(pen, 'Closing read', `${figure(v.closingRead, places)} (actual)`, 300, y);
    y -= 16;
  }
  labelled(pen, 'Consumption', `${figure(v.consumption, 1)} ${String(v.consumptionUnit ?? '')}`, 50, y);

  y -= 40;
  text(pen, 'Charges', 50, y, { size: 12, bold: true });
  y -= 20;
  const columns = { units: 330, rate: 430, amount: 545 };
  text(pen, 'Description', 50, y, { size: 9, muted: true });
  right(pen, 'Units', columns.units, y, { size: 9 });
  right(pen, 'Rate', columns.rate, y, { size: 9 });
  right(pen, 'Amount', columns.amount, y, { size: 9 });
  page.drawLine({ start: { x: 50, y: y - 6 }, end: { x: 545, y: y - 6 }, thickness: 0.5, color: MUTED });
  y -= 22;
  for (const line of lines.filter((r) => r.kind !== 'vat')) {
    text(pen, line.description, 50, y);
    right(pen, `${figure(line.units, 1)} ${line.unit ?? ''}`.trim(), columns.units, y);
    right(pen, pence(line.unitRate), columns.rate, y);
    right(pen, pounds(line.amount), columns.amount, y);
    y -= 16;
  }
  page.drawLine({ start: { x: 300, y: y + 6 }, end: { x: 545, y: y + 6 }, thickness: 0.5, color: MUTED });
  y -= 10;
  text(pen, 'Net total', 300, y);
  right(pen, pounds(v.netTotal), columns.amount, y);
  y -= 16;
  text(pen, `VAT at ${figure(v.vatRate, 1)}%`, 300, y);
  right(pen, pounds(v.vatTotal), columns.amount, y);
  y -= 20;
  text(pen, 'Total due', 300, y, { size: 12, bold: true });
  right(pen, pounds(v.grossTotal), columns.amount, y, { size: 12, bold: true });

  text(
    pen,
    `Please pay by ${showDate(v.dueDate)}, quoting account ${String(v.accountNumber ?? '')}.`,
    50,
    90,
    {
      size: 9,
      muted: true,
    },
  );
  text(pen, `${supplierName} · Registered in England and Wales`, 50, 76, { size: 8, muted: true });
  return doc.save();
}
