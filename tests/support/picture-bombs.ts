import { crc32, deflateSync } from 'node:zlib';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  PDFName,
  popGraphicsState,
  pushGraphicsState,
} from 'pdf-lib';

/**
 * Pictures whose header declares 20000 × 20000 pixels (1.6 GB as RGBA) in a file of a few hundred
 * bytes: everything that decodes or renders a picture must refuse them from the header, at once.
 */
export const SIDE = 20_000;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of SIDE × SIDE RGBA pixels whose data holds its first row only. */
export function pngBomb(): Uint8Array {
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
export function jpegBomb(): Uint8Array {
  const app0 = [0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = [0xff, 0xc0, 0x00, 0x0b, 8, SIDE >> 8, SIDE & 0xff, SIDE >> 8, SIDE & 0xff, 1, 1, 0x11, 0];
  return new Uint8Array([0xff, 0xd8, ...app0, ...sof, 0xff, 0xd9]);
}

/** A one-page PDF showing one grey picture of SIDE × SIDE pixels, whose data is a single row. */
export async function pdfBomb(): Promise<Uint8Array> {
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
