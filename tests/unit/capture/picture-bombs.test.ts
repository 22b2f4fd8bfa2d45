import { describe, expect, it } from 'vitest';
import {
  DECODE_BYTES_PER_PIXEL,
  decodeImage,
  ImageDecodeError,
  MAX_MEGAPIXELS,
  thumbnail,
} from '../../../functions/assets/asset-image-codec.ts';
import { ENHANCE_MAX_MEGAPIXELS } from '../../../functions/assets/asset-image-service.ts';
import { ImageTooLargeError, imageSize } from '../../../functions/core/lib/image-size.ts';
import { stampPdf } from '../../../functions/core/lib/pdf-stamp.ts';
import { READER_HEAP_MB } from '../../../infra/local/textract/document-reader.ts';
import { MAX_PIXELS, readDocument } from '../../../infra/local/textract/reader.ts';
import { reportPdf } from '../../../shared/reports/report-pdf.ts';
import { FUNCTIONS } from '../../../shared/system/functions.ts';
import { jpegBomb, pdfBomb, pngBomb, SIDE } from '../../support/picture-bombs.ts';

/** Runs `read` and answers how long it took to fail, and with what. */
async function failure(read: () => unknown): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  try {
    await read();
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
  throw new Error('The picture was read');
}

describe('picture bombs', () => {
  it('are small files that declare 400 megapixels', async () => {
    expect(pngBomb().length).toBeLessThan(2000);
    expect(imageSize(pngBomb())).toEqual({ width: SIDE, height: SIDE });
    expect(imageSize(jpegBomb())).toEqual({ width: SIDE, height: SIDE });
    expect((await pdfBomb()).length).toBeLessThan(4000);
  });

  it('are refused by the site pictures worker from the header, at once', async () => {
    for (const bomb of [pngBomb(), jpegBomb()]) {
      const { ms, error } = await failure(() => thumbnail(bomb));
      expect(error).toBeInstanceOf(ImageDecodeError);
      expect((error as Error).message).toContain('20000 × 20000 pixels');
      expect(ms).toBeLessThan(200);
    }
    const { error } = await failure(() => decodeImage(pngBomb(), ENHANCE_MAX_MEGAPIXELS));
    expect((error as Error).message).toContain('up to 32 megapixels');
  });

  it('are refused by the invoice stamp before they are embedded', async () => {
    const { ms, error } = await failure(() => stampPdf(pngBomb(), ['RECEIVED']));
    expect(error).toBeInstanceOf(ImageTooLargeError);
    expect(ms).toBeLessThan(200);
  });

  it("are left off a report's cover from the header, and the report is written at once", async () => {
    const report = {
      title: 'Summary',
      subtitle: 'Portfolio summary',
      companyName: 'Acme Estates',
      periodLabel: '2025',
      factorSets: [],
      dataDate: new Date('2025-12-31T00:00:00Z'),
      logoPng: pngBomb(),
      sections: [{ heading: 'Summary', blocks: [{ kind: 'paragraph' as const, text: 'Figures' }] }],
    };
    const started = performance.now();
    const { bytes } = await reportPdf(report);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(Buffer.from(bytes).includes('/Subtype /Image')).toBe(false);
  });

  it('are refused by the local Textract, alone or inside a PDF, without decoding them', async () => {
    const options = { maxPages: 1, ocrDpi: 300 };
    for (const bomb of [pngBomb(), jpegBomb(), await pdfBomb()]) {
      const { ms, error } = await failure(() => readDocument(bomb, options));
      expect(error).toMatchObject({ type: 'UnsupportedDocumentException' });
      expect((error as Error).message).toContain('20000 × 20000 pixels');
      expect(ms).toBeLessThan(1000);
    }
  });
});

describe('memory ceilings', () => {
  const memoryOf = (name: string) => (FUNCTIONS.find((f) => f.name === name)?.memoryMb ?? 0) * 2 ** 20;

  it('gives every worker a declared memory, the ceiling Lambda holds it to', () => {
    for (const fn of FUNCTIONS) {
      expect(fn.memoryMb, fn.name).toBeGreaterThanOrEqual(128);
      expect(fn.memoryMb, fn.name).toBeLessThanOrEqual(3008);
    }
  });

  it('keeps the largest picture each function decodes within three quarters of its memory', () => {
    expect(MAX_MEGAPIXELS * 1e6 * DECODE_BYTES_PER_PIXEL).toBeLessThan(memoryOf('asset-images') * 0.75);
    expect(ENHANCE_MAX_MEGAPIXELS * 1e6 * DECODE_BYTES_PER_PIXEL).toBeLessThan(memoryOf('assets') * 0.75);
  });

  it('keeps the local Textract within the memory of the capture function it serves', () => {
    expect(READER_HEAP_MB * 2 ** 20).toBeLessThanOrEqual(memoryOf('capture') / 2);
    expect(MAX_PIXELS * DECODE_BYTES_PER_PIXEL + READER_HEAP_MB * 2 ** 20).toBeLessThan(memoryOf('capture'));
  });
});
