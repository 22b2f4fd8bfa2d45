/** Document types the capture pipeline accepts, recognised by their bytes rather than their names. */
export type CaptureFileType = 'pdf' | 'png' | 'jpeg' | 'tiff';

export const CAPTURE_CONTENT_TYPES: Record<CaptureFileType, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  tiff: 'image/tiff',
};

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

export function detectCaptureFileType(bytes: Uint8Array): CaptureFileType | undefined {
  // '%PDF-' may follow a few bytes of junk; readers accept it within the first 1024 bytes.
  const head = bytes.subarray(0, 1024);
  for (let i = 0; i + 5 <= head.length; i++) {
    if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d], i)) return 'pdf';
  }
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'tiff';
  return undefined;
}

/** A file name safe for an object key and a download header, keeping its extension readable. */
export function safeFileName(name: string, fallback = 'attachment'): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^\w.\- ]+/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .replace(/^\.+/, '')
    .slice(-120);
  return cleaned.length > 0 && cleaned !== '.' && cleaned !== '..' ? cleaned : fallback;
}

/**
 * The types a downloaded file is served as, by its name's extension. A page, a drawing or a script is
 * never among them: whatever type its upload declared, it is served as bytes to save, not to run.
 */
const DOWNLOAD_TYPES = new Map<string, string>([
  ['pdf', 'application/pdf'],
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['gif', 'image/gif'],
  ['webp', 'image/webp'],
  ['tif', 'image/tiff'],
  ['tiff', 'image/tiff'],
  ['csv', 'text/csv'],
  ['txt', 'text/plain'],
  ['json', 'application/json'],
  ['zip', 'application/zip'],
  ['xls', 'application/vnd.ms-excel'],
  ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['doc', 'application/msword'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['pptx', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  ['eml', 'message/rfc822'],
]);

export function downloadContentType(fileName: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase() ?? '';
  return DOWNLOAD_TYPES.get(extension) ?? 'application/octet-stream';
}
