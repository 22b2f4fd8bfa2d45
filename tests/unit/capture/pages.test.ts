import { describe, expect, it } from 'vitest';
import { buildPages, type DocPage, findText, rowsInBox, textInBox } from '../../../shared/capture/pages.ts';
import type { DocumentAnalysis } from '../../../shared/capture/textract.ts';
import { analysis, at, CHAR, row } from './blocks.ts';

describe('page model', () => {
  it('puts words and lines on their pages with their boxes and confidences', () => {
    const doc = buildPages(
      analysis([[at(0.1, 0.1, 'Invoice number INV-1', 97)], [at(0.1, 0.5, 'Page two')]]),
    );
    expect(doc.pageCount).toBe(2);
    expect(doc.pages[0]?.words.map((w) => w.text)).toEqual(['Invoice', 'number', 'INV-1']);
    expect(doc.pages[0]?.lines[0]?.confidence).toBe(97);
    expect(doc.pages[1]?.lines[0]?.text).toBe('Page two');
    expect(doc.pages[1]?.words[0]?.box.Top).toBeCloseTo(0.5);
  });

  it('finds the page of blocks without a Page field from the PAGE block they follow', () => {
    const doc = buildPages(analysis([[at(0.1, 0.1, 'first')], [at(0.1, 0.1, 'second')]], { omitPage: true }));
    expect(doc.pages[0]?.text).toBe('first');
    expect(doc.pages[1]?.text).toBe('second');
  });

  it('orders lines by rows, top to bottom and left to right', () => {
    const doc = buildPages(
      analysis([[at(0.6, 0.2, 'right'), at(0.1, 0.3, 'below'), at(0.1, 0.201, 'left')]]),
    );
    expect(doc.pages[0]?.text).toBe('left right\nbelow');
  });

  it('makes words of a line that came without them', () => {
    const blocks: DocumentAnalysis = {
      DocumentMetadata: { Pages: 1 },
      Blocks: [
        {
          Id: 'l1',
          BlockType: 'LINE',
          Text: 'Total due £10.00',
          Confidence: 88,
          Geometry: { BoundingBox: { Left: 0.1, Top: 0.1, Width: 0.3, Height: 0.01 } },
        },
      ],
    };
    const page = buildPages(blocks).pages[0];
    expect(page?.words.map((w) => w.text)).toEqual(['Total', 'due', '£10.00']);
    expect(page?.words[2]?.box.Left).toBeCloseTo(0.1 + (0.3 * 10) / 16);
  });

  it('makes lines of words that came without them, split where a gap is wide', () => {
    const blocks: DocumentAnalysis = {
      DocumentMetadata: { Pages: 1 },
      Blocks: ['Net', 'total', '£5.00'].map((text, i) => ({
        Id: `w${i}`,
        BlockType: 'WORD',
        Page: 1,
        Text: text,
        Confidence: 90,
        Geometry: {
          BoundingBox: { Left: i === 2 ? 0.7 : 0.1 + i * 0.05, Top: 0.2, Width: 0.04, Height: 0.01 },
        },
      })),
    };
    const page = buildPages(blocks).pages[0];
    expect(page?.lines.map((l) => l.text)).toEqual(['Net total', '£5.00']);
  });

  it('joins words that touch, as a ligature splits them in some text layers', () => {
    const word = (id: string, text: string, left: number, width: number) => ({
      Id: id,
      BlockType: 'WORD',
      Page: 1,
      Text: text,
      Confidence: 99,
      Geometry: { BoundingBox: { Left: left, Top: 0.1, Width: width, Height: 0.01 } },
    });
    const blocks: DocumentAnalysis = {
      DocumentMetadata: { Pages: 1 },
      Blocks: [
        word('a', 'Demo', 0.0667, 0.0434),
        word('b', 'O', 0.1734, 0.0127),
        word('c', 'ffi', 0.1861, 0.0143),
        word('d', 'ces', 0.2003, 0.0256),
        {
          Id: 'l',
          BlockType: 'LINE',
          Page: 1,
          Text: 'Demo O ffi ces',
          Geometry: { BoundingBox: { Left: 0.0667, Top: 0.1, Width: 0.16, Height: 0.01 } },
          Relationships: [{ Type: 'CHILD', Ids: ['a', 'b', 'c', 'd'] }],
        },
      ],
    };
    const page = buildPages(blocks).pages[0];
    expect(page?.lines[0]?.text).toBe('Demo Offices');
    expect(page?.words.map((w) => w.text)).toEqual(['Demo', 'Offices']);
  });

  it('keeps rows apart that a tall watermark crosses', () => {
    const lines = analysis([[at(0.1, 0.2, 'first row'), at(0.1, 0.215, 'second row')]]);
    lines.Blocks.push({
      Id: 'stamp',
      BlockType: 'WORD',
      Page: 1,
      Text: 'COPY',
      Confidence: 99,
      Geometry: { BoundingBox: { Left: 0.3, Top: 0.1, Width: 0.5, Height: 0.2 } },
    });
    const rows = rowsInBox(buildPages(lines).pages[0] as DocPage, { Left: 0, Top: 0, Width: 1, Height: 1 });
    expect(rows.map((r) => r.text)).toEqual(['COPY', 'first row', 'second row']);
  });

  it('reads tables into rows of cells and key-value pairs into their key and value', () => {
    const doc = buildPages(
      analysis([
        {
          lines: [],
          tables: [
            {
              columns: [0.1, 0.5],
              y: 0.3,
              rows: [
                ['Description', 'Amount'],
                ['Standing charge', '£5.00'],
              ],
            },
          ],
          keyValues: [{ key: at(0.1, 0.1, 'Account number:'), value: at(0.3, 0.1, 'AC 123') }],
        },
      ]),
    );
    const page = doc.pages[0];
    expect(page?.tables[0]?.rows.map((r) => r.map((c) => c.span.text))).toEqual([
      ['Description', 'Amount'],
      ['Standing charge', '£5.00'],
    ]);
    expect(page?.keyValues[0]?.key.text).toBe('Account number:');
    expect(page?.keyValues[0]?.value.text).toBe('AC 123');
  });
});

describe('reading a page', () => {
  const page = buildPages(
    analysis([
      [
        ...row(0.1, [0.1, 'Invoice number'], [0.5, 'INV-42']),
        at(0.1, 0.2, 'Total amount due £120.00', 80),
        at(0.1, 0.5, 'Day units 1,000 kWh 25.1p £251.00'),
        at(0.1, 0.52, 'Night units 500 kWh 12.0p £60.00'),
        at(0.1, 0.54, 'Standing charge 31 days £13.95'),
      ],
    ]),
  ).pages[0];
  if (!page) throw new Error('no page');

  it('gives the words whose centre lies inside a box, in reading order', () => {
    const span = textInBox(page, { Left: 0.45, Top: 0.08, Width: 0.2, Height: 0.05 });
    expect(span.text).toBe('INV-42');
    expect(span.words).toHaveLength(1);
  });

  it('leaves out a word only partly inside the box', () => {
    // '£120.00' starts inside the box but its centre lies outside.
    const start = 0.1 + 'Total amount due '.length * CHAR;
    const span = textInBox(page, { Left: 0.05, Top: 0.18, Width: start + 0.01 - 0.05, Height: 0.05 });
    expect(span.text).toBe('Total amount due');
  });

  it('gives the lowest confidence of the words', () => {
    const span = textInBox(page, { Left: 0, Top: 0.18, Width: 1, Height: 0.05 });
    expect(span.confidence).toBe(80);
  });

  it('finds a phrase in any case and spacing with its box', () => {
    const [match] = findText(page, 'invoice   NUMBER');
    expect(match?.text).toBe('Invoice number');
    expect(match?.box.Left).toBeCloseTo(0.1);
    expect(match?.box.Top).toBeCloseTo(0.1);
    expect(match?.words).toHaveLength(2);
  });

  it('finds a regular expression and the words it covers', () => {
    const [match] = findText(page, /£\d+\.\d{2}/);
    expect(match?.text).toBe('£120.00');
    expect(match?.words.map((w) => w.text)).toEqual(['£120.00']);
  });

  it('finds a phrase split over two lines of a row', () => {
    expect(findText(page, 'number INV-42')).toHaveLength(1);
  });

  it('returns nothing for text that is not there', () => {
    expect(findText(page, 'Credit note')).toEqual([]);
  });

  it('splits a table bound into rows by their height on the page', () => {
    const rows = rowsInBox(page, { Left: 0.05, Top: 0.49, Width: 0.9, Height: 0.07 });
    expect(rows.map((r) => r.text)).toEqual([
      'Day units 1,000 kWh 25.1p £251.00',
      'Night units 500 kWh 12.0p £60.00',
      'Standing charge 31 days £13.95',
    ]);
  });
});
