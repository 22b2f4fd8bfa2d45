import { degrees, PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { assertPixelsWithin, imageSize } from './image-size.ts';

const PNG = [0x89, 0x50, 0x4e, 0x47];
const JPEG = [0xff, 0xd8, 0xff];
const starts = (b: Uint8Array, sig: number[]) => sig.every((x, i) => b[i] === x);

/**
 * Largest picture stamped, in pixels: a PNG is decoded to be embedded (a JPEG is copied as it is), and
 * its pixels must fit in the function's memory with the rest of the request.
 */
export const STAMP_MAX_PIXELS = 40_000_000;

/**
 * A copy of a document with a boxed stamp in the top right corner of its first page. An image (a photo of
 * a bill) becomes a one-page PDF first, so every stamped copy is a PDF. A picture with more pixels than
 * STAMP_MAX_PIXELS is refused from its header (ImageTooLargeError) before it is decoded.
 */
export async function stampPdf(bytes: Uint8Array, lines: readonly string[]): Promise<Uint8Array> {
  let doc: PDFDocument;
  if (starts(bytes, PNG) || starts(bytes, JPEG)) {
    const size = imageSize(bytes);
    if (!size) throw new Error('The picture header is damaged');
    assertPixelsWithin(size, STAMP_MAX_PIXELS);
    doc = await PDFDocument.create();
    const image = starts(bytes, PNG) ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    const page = doc.addPage([595, 842]);
    const scale = Math.min(595 / image.width, 842 / image.height);
    page.drawImage(image, {
      x: 0,
      y: 842 - image.height * scale,
      width: image.width * scale,
      height: image.height * scale,
    });
  } else {
    doc = await PDFDocument.load(bytes);
  }
  const page = doc.getPage(0);
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  const size = 10;
  const width = Math.max(...lines.map((l) => font.widthOfTextAtSize(l, size))) + 16;
  const height = lines.length * (size + 4) + 12;
  const { width: pw, height: ph } = page.getSize();
  const x = pw - width - 24;
  const y = ph - height - 24;
  const red = rgb(0.75, 0.1, 0.1);
  page.drawRectangle({
    x,
    y,
    width,
    height,
    borderColor: red,
    borderWidth: 2,
    rotate: degrees(0),
    opacity: 0,
  });
  lines.forEach((line, i) => {
    page.drawText(line, { x: x + 8, y: y + height - 8 - (i + 1) * (size + 4) + 4, size, font, color: red });
  });
  return doc.save();
}
