import { MESSAGES } from '../../../shared/messages.ts';

/** Logos must be at least this wide (01 §5), the same rule the API applies on confirmation. */
export const MIN_LOGO_WIDTH = 200;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
export function pngSizeOf(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24) return null;
  if (PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  // The first chunk of every PNG is IHDR: its type sits at byte 12, width and height follow it.
  const type = String.fromCharCode(...bytes.subarray(12, 16));
  if (type !== 'IHDR') return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** The logo rule's message for a file's first bytes, or null when the logo may be uploaded. */
export function logoProblemOf(bytes: Uint8Array | null): string | null {
  if (!bytes || bytes.length === 0) return MESSAGES.logoMissing;
  const size = pngSizeOf(bytes);
  if (!size || size.width < MIN_LOGO_WIDTH) return MESSAGES.logoRule;
  return null;
}

/** The width the browser decodes the image to; null when it cannot decode it. */
function decodedWidth(file: Blob): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const img = new Image();
    const done = (width: number | null) => {
      URL.revokeObjectURL(url);
      resolve(width);
    };
    img.onload = () => done(img.naturalWidth);
    img.onerror = () => done(null);
    img.src = url;
  });
}

/**
 * Checks a chosen logo before it is uploaded: its PNG header, then the image as the browser decodes it,
 * so a file that only looks like a PNG is refused too.
 */
export async function checkLogoFile(file: File | null): Promise<string | null> {
  if (!file) return MESSAGES.logoMissing;
  const head = new Uint8Array(await file.slice(0, 33).arrayBuffer());
  const problem = logoProblemOf(head);
  if (problem) return problem;
  const width = await decodedWidth(file);
  if (width === null || width < MIN_LOGO_WIDTH) return MESSAGES.logoRule;
  return null;
}
