import { beginMarkedContent, endMarkedContent, PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractInvoices } from '../../../shared/capture/extract.ts';
import { extractGeneric } from '../../../shared/capture/generic-extractor.ts';
import { buildPages } from '../../../shared/capture/pages.ts';
import { analyseBytes } from '../../bench/capture-accuracy-lib.ts';
import { analysis, at, type PageSpec } from './blocks.ts';

/**
 * Bills whose text breaks where the reader did not expect: a label's value wrapped onto the next line
 * of running text, a date named by "issued at", a charges table whose description runs onto lines of
 * its own, and a number set in separate touching pieces.
 */

const read = (spec: PageSpec) => extractGeneric(buildPages(analysis([spec])), [1]);

describe('a value wrapped onto the next line of running text', () => {
  it('is read from the start of that line, not from the next label on it', () => {
    const { values } = read({
      lines: [
        at(0.15, 0.09, 'circle.com b.v.'),
        at(0.15, 0.212, 'Betaaloverzichtdatum: 20 april 2022 Betaaloverzichtnummer:'),
        at(0.15, 0.226, '3906541086000 Bestelnummer: 1000965241 Aankoopdatum: 20 april'),
        at(0.15, 0.24, '2022 Klantnummer: 9011770000'),
        at(0.36, 0.52, 'Totaalbedrag € 22,50'),
      ],
    });
    expect(values.invoiceNumber?.value).toBe('3906541086000');
    expect(values.invoiceDate?.value).toBe('2022-04-20');
  });
});

describe('the date an invoice was "issued at"', () => {
  it('is its date, not the date of delivery printed under it', () => {
    const { values } = read({
      lines: [
        at(0.1, 0.42, 'Invoice # RE-20201121/508 issued at 2020-11-21'),
        at(0.1, 0.436, 'Date of delivery 2020-11-10'),
        at(0.1, 0.72, 'Due payable: 571.04 €'),
      ],
    });
    expect(values.invoiceDate?.value).toBe('2020-11-21');
  });
});

describe('a charges table whose descriptions run onto lines of their own', () => {
  it('reads the numbers on those lines as words, so the charges add up to the total', () => {
    const { rates, totalsCheck, values } = read({
      lines: [at(0.65, 0.37, 'Grand Total 319.00')],
      tables: [
        {
          columns: [0.01, 0.19, 0.58, 0.63, 0.9],
          y: 0.22,
          header: true,
          rows: [
            ['Product', 'Title', 'Qty', 'Price', 'Total'],
            ['Memory cards', 'SanDisk Ultra 16 GB MicroSDHC Class', '1', '278.61', '319.00'],
            ['FSN:', '10 48 MB/s Memory Card', '', '', ''],
            ['ACCEA5E3GPBQJ9P9', 'Price is inclusive of Promotional Discount of Rs -40.00,', '', '', ''],
          ],
        },
      ],
    });
    expect(rates.map((r) => r.amount)).toEqual([319]);
    expect(values.grossTotal?.value).toBe(319);
    expect(totalsCheck?.problems ?? []).toEqual([]);
  });
});

describe('the local Textract reading a number set in touching pieces', () => {
  it('answers one word, as the printed page shows it', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595.28, 841.89]);
    let x = 150;
    page.drawText('Invoice #', { x: 60, y: 500, size: 11, font });
    // As some invoicing software writes a number: each piece a marked-content run of its own, set
    // where the last one ends, so the text layer gives the pieces apart.
    for (const piece of ['RE-20', '201121', '/50', '8']) {
      page.pushOperators(beginMarkedContent('Span'));
      page.drawText(piece, { x, y: 500, size: 11, font });
      page.pushOperators(endMarkedContent());
      x += font.widthOfTextAtSize(piece, 11);
    }
    page.drawText('Total due: 571.04', { x: 60, y: 400, size: 11, font });
    const { output } = await analyseBytes(await doc.save());
    const words = output.document.Blocks.filter((b) => b.BlockType === 'WORD').map((b) => b.Text);
    expect(words).toContain('RE-20201121/508');
    const invoice = extractInvoices(output, []).multiInvoice.invoices[0];
    expect(invoice?.values.invoiceNumber?.value).toBe('RE-20201121/508');
  }, 60_000);
});
