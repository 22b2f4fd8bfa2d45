import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { ImageTooLargeError, jpegSize } from '../core/lib/image-size.ts';
import { pngSize } from '../core/lib/png.ts';

/** Pixels as 8-bit RGBA rows, top to bottom. */
export interface Bitmap {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Largest picture decoded, in megapixels: a phone photo is 12 to 50. */
export const MAX_MEGAPIXELS = 64;

/**
 * Memory a decode takes per pixel at its peak: the decoder's inflated rows or coefficients, the RGBA
 * bitmap, and an upright copy of it. The functions that decode keep their limit times this within their
 * memory (a test holds them to it).
 */
export const DECODE_BYTES_PER_PIXEL = 12;

export type ImageFormat = 'png' | 'jpeg';

export function formatOf(bytes: Uint8Array): ImageFormat | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

export class ImageDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageDecodeError';
  }
}

/** Decodes a PNG or JPEG; a JPEG is turned upright by its EXIF orientation, as cameras expect. */
export function decodeImage(bytes: Uint8Array, maxMegapixels = MAX_MEGAPIXELS): Bitmap {
  const format = formatOf(bytes);
  // The size comes from the header, before anything is decoded: a small file can hold a huge picture.
  const size = format === 'png' ? pngSize(bytes) : format === 'jpeg' ? jpegSize(bytes) : undefined;
  if (format && !size) throw new ImageDecodeError('Not a readable picture: its header is damaged');
  if (size && size.width * size.height > maxMegapixels * 1e6)
    throw new ImageDecodeError(new ImageTooLargeError(size, maxMegapixels * 1e6).message);
  try {
    if (format === 'png') {
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      // A view of the decoder's pixels rather than a copy: a large picture would need twice the memory.
      const data = new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength);
      return { width: png.width, height: png.height, data };
    }
    if (format === 'jpeg') {
      const decoded = jpeg.decode(bytes, {
        useTArray: true,
        formatAsRGBA: true,
        maxResolutionInMP: maxMegapixels,
        maxMemoryUsageInMB: 768,
      });
      return orient(
        { width: decoded.width, height: decoded.height, data: decoded.data },
        exifOrientation(bytes),
      );
    }
  } catch (err) {
    if (err instanceof ImageDecodeError) throw err;
    throw new ImageDecodeError(`Not a readable picture: ${err instanceof Error ? err.message : String(err)}`);
  }
  throw new ImageDecodeError('Not a PNG or JPEG picture');
}

/** The EXIF Orientation tag (1 to 8) of a JPEG, 1 when it has none. */
export function exifOrientation(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1] as number;
    const length = view.getUint16(offset + 2);
    // APP1 with "Exif\0\0", then a TIFF header.
    if (marker === 0xe1 && view.getUint32(offset + 4) === 0x45786966) {
      const tiff = offset + 10;
      if (tiff + 8 > bytes.length) return 1;
      const little = view.getUint16(tiff) === 0x4949;
      const u16 = (at: number) => view.getUint16(at, little);
      const ifd = tiff + view.getUint32(tiff + 4, little);
      if (ifd + 2 > bytes.length) return 1;
      const entries = u16(ifd);
      for (let i = 0; i < entries; i++) {
        const entry = ifd + 2 + i * 12;
        if (entry + 12 > bytes.length) return 1;
        if (u16(entry) === 0x0112) {
          const value = u16(entry + 8);
          return value >= 1 && value <= 8 ? value : 1;
        }
      }
      return 1;
    }
    if (marker === 0xda) return 1;
    offset += 2 + length;
  }
  return 1;
}

/** Applies an EXIF orientation: 2 to 8 are mirrorings and quarter turns of the stored pixels. */
export function orient(image: Bitmap, orientation: number): Bitmap {
  if (orientation <= 1 || orientation > 8) return image;
  const { width: w, height: h, data } = image;
  const swap = orientation >= 5;
  const out = new Uint8Array(data.length);
  const ow = swap ? h : w;
  const oh = swap ? w : h;
  for (let y = 0; y < oh; y++) {
    for (let x = 0; x < ow; x++) {
      let sx: number;
      let sy: number;
      switch (orientation) {
        case 2:
          [sx, sy] = [w - 1 - x, y];
          break;
        case 3:
          [sx, sy] = [w - 1 - x, h - 1 - y];
          break;
        case 4:
          [sx, sy] = [x, h - 1 - y];
          break;
        case 5:
          [sx, sy] = [y, x];
          break;
        case 6:
          [sx, sy] = [y, h - 1 - x];
          break;
        case 7:
          [sx, sy] = [w - 1 - y, h - 1 - x];
          break;
        default:
          [sx, sy] = [w - 1 - y, x];
          break;
      }
      const from = (sy * w + sx) * 4;
      out.set(data.subarray(from, from + 4), (y * ow + x) * 4);
    }
  }
  return { width: ow, height: oh, data: out };
}

/** The size that fits within the box keeping the picture's proportions; never larger than it is. */
export function fitWithin(width: number, height: number, maxWidth: number, maxHeight: number) {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * Shrinks by averaging each target pixel's whole footprint (a box filter), which keeps fine detail from
 * turning into noise the way skipping pixels does. Transparent pixels are laid on white.
 */
export function resize(image: Bitmap, width: number, height: number): Bitmap {
  const { width: sw, height: sh, data } = image;
  const out = new Uint8Array(width * height * 4);
  const fx = sw / width;
  const fy = sh / height;
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * fy);
    const y1 = Math.max(y0 + 1, Math.min(sh, Math.floor((y + 1) * fy)));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * fx);
      const x1 = Math.max(x0 + 1, Math.min(sw, Math.floor((x + 1) * fx)));
      let r = 0;
      let g = 0;
      let b = 0;
      let n = 0;
      for (let yy = y0; yy < y1; yy++) {
        let i = (yy * sw + x0) * 4;
        for (let xx = x0; xx < x1; xx++, i += 4) {
          const a = (data[i + 3] as number) / 255;
          r += (data[i] as number) * a + 255 * (1 - a);
          g += (data[i + 1] as number) * a + 255 * (1 - a);
          b += (data[i + 2] as number) * a + 255 * (1 - a);
          n++;
        }
      }
      const o = (y * width + x) * 4;
      out[o] = Math.round(r / n);
      out[o + 1] = Math.round(g / n);
      out[o + 2] = Math.round(b / n);
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

export function encodeJpeg(image: Bitmap, quality = 82): Uint8Array {
  return new Uint8Array(
    jpeg.encode({ width: image.width, height: image.height, data: image.data }, quality).data,
  );
}

/** A thumbnail: the picture upright, within the box, as JPEG; with the upright picture's own size. */
export function thumbnail(
  bytes: Uint8Array,
  maxWidth = 480,
  maxHeight = 320,
): Bitmap & { jpeg: Uint8Array; source: { width: number; height: number } } {
  const image = decodeImage(bytes);
  const size = fitWithin(image.width, image.height, maxWidth, maxHeight);
  const small = resize(image, size.width, size.height);
  return { ...small, jpeg: encodeJpeg(small), source: { width: image.width, height: image.height } };
}

/**
 * Auto levels: each channel stretched so its darkest and brightest 0.5% reach black and white, which
 * lifts the haze of a dull photo. The stretch is capped so a picture that is dark on purpose stays so.
 */
export function autoLevels(image: Bitmap): Bitmap {
  const { data } = image;
  const pixels = data.length / 4;
  const out = new Uint8Array(data);
  for (let c = 0; c < 3; c++) {
    const histogram = new Uint32Array(256);
    for (let i = c; i < data.length; i += 4) {
      const v = data[i] as number;
      histogram[v] = (histogram[v] as number) + 1;
    }
    const cut = pixels * 0.005;
    let low = 0;
    for (let seen = 0; low < 255 && seen + (histogram[low] as number) <= cut; low++)
      seen += histogram[low] as number;
    let high = 255;
    for (let seen = 0; high > 0 && seen + (histogram[high] as number) <= cut; high--)
      seen += histogram[high] as number;
    if (high - low < 16) continue;
    const scale = Math.min(2.5, 255 / (high - low));
    for (let i = c; i < data.length; i += 4) {
      out[i] = Math.max(0, Math.min(255, Math.round(((data[i] as number) - low) * scale)));
    }
  }
  return { ...image, data: out };
}
