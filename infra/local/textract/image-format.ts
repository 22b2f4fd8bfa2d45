/** The formats Textract reads, told apart by their first bytes as Textract does (not by file name). */
export type DocumentFormat = 'pdf' | 'png' | 'jpeg' | 'tiff';

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) =>
  sig.every((b, i) => bytes[at + i] === b);

export function formatOf(bytes: Uint8Array): DocumentFormat | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'tiff';
  // Readers accept a PDF header anywhere in the first kilobyte (some mailers prepend junk).
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (head.includes('%PDF-')) return 'pdf';
  return undefined;
}

export interface ImageInfo {
  width: number;
  height: number;
  /** Images in the file (TIFF may hold several pages). */
  pages: number;
}

/** Width and height from the header, in the orientation the OCR engine reads the image in. */
export function imageInfo(bytes: Uint8Array, format: Exclude<DocumentFormat, 'pdf'>): ImageInfo | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (format === 'png') return { width: view.getUint32(16), height: view.getUint32(20), pages: 1 };
    if (format === 'jpeg') return jpegInfo(view, bytes);
    return tiffInfo(view);
  } catch {
    // A header that ends early reads past the end: the file is damaged.
    return undefined;
  }
}

function jpegInfo(view: DataView, bytes: Uint8Array): ImageInfo | undefined {
  let at = 2;
  while (at + 9 < view.byteLength) {
    if (view.getUint8(at) !== 0xff) return undefined;
    const marker = view.getUint8(at + 1);
    const length = view.getUint16(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
    if (isFrame) {
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      // The OCR engine turns the image upright by its EXIF orientation (it looks for the big-endian
      // tag in the first 500 bytes); orientations 5 to 8 swap width and height.
      const exif = Array.from(bytes.subarray(0, 500))
        .join(' ')
        .match(/1 18 0 3 0 0 0 1 0 (\d)/);
      const orientation = Number(exif?.[1] ?? 1);
      return orientation >= 5 && orientation <= 8
        ? { width: height, height: width, pages: 1 }
        : { width, height, pages: 1 };
    }
    at += 2 + length;
  }
  return undefined;
}

function tiffInfo(view: DataView): ImageInfo | undefined {
  const little = view.getUint8(0) === 0x49;
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  let ifd = u32(4);
  let width = 0;
  let height = 0;
  let pages = 0;
  const seen = new Set<number>();
  while (ifd !== 0 && !seen.has(ifd) && pages < 10_000) {
    seen.add(ifd);
    const count = u16(ifd);
    if (pages === 0) {
      for (let i = 0; i < count; i++) {
        const entry = ifd + 2 + i * 12;
        const tag = u16(entry);
        const value = u16(entry + 2) === 3 ? u16(entry + 8) : u32(entry + 8);
        if (tag === 256) width = value;
        if (tag === 257) height = value;
      }
    }
    pages++;
    ifd = u32(ifd + 2 + count * 12);
  }
  return width > 0 && height > 0 ? { width, height, pages } : undefined;
}
