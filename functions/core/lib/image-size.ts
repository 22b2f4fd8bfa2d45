import { pngSize } from './png.ts';

export interface ImageSize {
  width: number;
  height: number;
}

/**
 * Width and height from a JPEG's frame header (SOFn), found by walking the marker segments before the
 * image data: nothing is decoded. Undefined for a file that is not a JPEG or ends before its frame.
 */
export function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] as number;
    // Fill bytes and markers without a length (RSTn, TEM) carry no segment.
    if (marker === 0xff) {
      at++;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    // SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC): precision (1), height (2), width (2).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      return width > 0 && height > 0 ? { width, height } : undefined;
    }
    if (marker === 0xda) return undefined;
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

/** A PNG's or JPEG's size from its header alone. */
export const imageSize = (bytes: Uint8Array): ImageSize | undefined => pngSize(bytes) ?? jpegSize(bytes);

/** A picture refused before it is decoded: decoding it would take more memory than the function has. */
export class ImageTooLargeError extends Error {
  constructor(size: ImageSize, maxPixels: number) {
    super(
      `The picture is ${size.width} × ${size.height} pixels (${megapixels(size.width * size.height)} megapixels); ` +
        `pictures of up to ${megapixels(maxPixels)} megapixels can be read`,
    );
    this.name = 'ImageTooLargeError';
  }
}

const megapixels = (pixels: number) => String(Math.round(pixels / 1e5) / 10);

/** Throws ImageTooLargeError when a picture of this size has more pixels than `maxPixels`. */
export function assertPixelsWithin(size: ImageSize, maxPixels: number): void {
  if (size.width * size.height > maxPixels) throw new ImageTooLargeError(size, maxPixels);
}
