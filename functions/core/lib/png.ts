/** The eight bytes every PNG file starts with. */
const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export interface PngSize {
  width: number;
  height: number;
}

/**
 * Width and height from a PNG's header chunk (IHDR), which must come first: signature (8 bytes), chunk
 * length (4), type `IHDR` (4), width (4), height (4), big-endian. Anything else is not a PNG.
 */
export function pngSize(bytes: Uint8Array): PngSize | undefined {
  if (bytes.length < 24) return undefined;
  if (!SIGNATURE.every((b, i) => bytes[i] === b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(bytes[12] ?? 0, bytes[13] ?? 0, bytes[14] ?? 0, bytes[15] ?? 0);
  if (view.getUint32(8) !== 13 || type !== 'IHDR') return undefined;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : undefined;
}
