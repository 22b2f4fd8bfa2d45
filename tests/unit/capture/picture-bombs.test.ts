import { crc32, deflateSync } from 'node:zlib';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';
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
import { FUNCTIONS } from '../../../shared/system/functions.ts';

/**
 * Pictures whose header declares 20000 × 20000 pixels (1.6 GB as RGBA) in a file of a few hundred
 * bytes: everything that decodes or renders a picture must refuse them from the header, at once.
 */
const SIDE = 20_000;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of SIDE × SIDE RGBA pixels whose data holds its first row only. */
function pngBomb(): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(SIDE, 0);
  header.writeUInt32BE(SIDE, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(Buffer.alloc(SIDE * 4 + 1))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** A baseline JPEG whose frame header declares SIDE × SIDE, after an APP0 segment. */
function jpegBomb(): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = [0xff, 0xc0, 0x00, 0x0b, 8, SIDE >> 8, SIDE & 0xff, SIDE >> 8, SIDE & 0xff, 1, 1, 0x11, 0];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

/** A one-page PDF showing one grey picture of SIDE × SIDE pixels, whose data is a single row. */
async function pdfBomb(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const image = doc.context.flateStream(Buffer.alloc(SIDE), {
    Type: 'XObject',
    Subtype: 'Image',
    Width: SIDE,
    Height: SIDE,
    ColorSpace: 'DeviceGray',
    BitsPerComponent: 8,
  });
  page.node.setXObject(PDFName.of('Im0'), doc.context.register(image));
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(595, 0, 0, 842, 0, 0),
    drawObject('Im0'),
    popGraphicsState(),
  );
  return doc.save();
}

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
