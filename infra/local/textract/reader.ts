import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PDFPageProxy, TextItem, TextStyle } from 'pdfjs-dist/types/src/display/api.d.ts';
import type { PageViewport } from 'pdfjs-dist/types/src/display/display_utils.d.ts';
import { ENCRYPTED_MESSAGE, multiPageMessage, TextractError } from './errors.ts';
import { formatOf, imageInfo } from './image-format.ts';
import { readingOrder } from './layout.ts';
import { ocrPage } from './ocr.ts';
import type { DocumentText, PageText, TextLine, TextWord } from './page-text.ts';
import { unionBox } from './page-text.ts';
import { correctPhoto, decodeImage, toPgm } from './photo.ts';

export interface ReadOptions {
  /** 1 for the synchronous operations, which refuse longer documents as Textract does. */
  maxPages: number;
  /** Resolution scans are rendered at for OCR. */
  ocrDpi: number;
}

/** Textract's page limit for asynchronous analysis. */
export const MAX_PAGES = 3000;

/**
 * The words of a PDF, PNG, JPEG or TIFF. A PDF page is read from its text layer; a page with (almost)
 * no text but with images or drawn shapes on it is a scan, and is rendered and read by OCR instead.
 */
export async function readDocument(bytes: Uint8Array, options: ReadOptions): Promise<DocumentText> {
  const format = formatOf(bytes);
  if (!format) {
    throw new TextractError(
      'UnsupportedDocumentException',
      'Request has unsupported document format: Textract reads PDF, PNG, JPEG and TIFF files.',
    );
  }
  if (format === 'pdf') return readPdf(bytes, options);
  const info = imageInfo(bytes, format);
  if (!info) throw new TextractError('BadDocumentException', `The ${format.toUpperCase()} image is damaged.`);
  // Checked on the header, before a pixel is decoded: a small file can declare a huge picture.
  assertReadablePicture(info.width, info.height, `The ${format.toUpperCase()} image`);
  if (info.pages > 1) {
    throw new TextractError(
      'UnsupportedDocumentException',
      options.maxPages === 1
        ? multiPageMessage(info.pages, 'TIFF')
        : `Unsupported document: this TIFF has ${info.pages} pages, and the local Textract reads single-page TIFFs only (send a PDF).`,
    );
  }
  // Photos and scans saved as images are flattened, turned upright and enlarged first; word places are
  // then fractions of that corrected page. An image the canvas cannot decode (TIFF) is read as it is.
  const decoded = await decodeImage(bytes);
  if (!decoded) return { pages: [await ocrPage({ image: bytes, width: info.width, height: info.height })] };
  const page = correctPhoto(decoded.rgba, decoded.width, decoded.height);
  return { pages: [await ocrPage({ image: toPgm(page), width: page.width, height: page.height })] };
}

/** Textract's limit on either side of a picture, in pixels. */
export const MAX_PICTURE_SIDE = 10_000;

/**
 * Largest picture or page the stand-in decodes or renders, in pixels: what keeps the reading thread within
 * the capture function's memory (about 12 bytes a pixel at the peak: canvas, its copy, grey and OCR).
 */
export const MAX_PIXELS = 40_000_000;

function assertReadablePicture(width: number, height: number, what: string): void {
  if (Math.max(width, height) > MAX_PICTURE_SIDE || width * height > MAX_PIXELS) {
    throw new TextractError(
      'UnsupportedDocumentException',
      `${what} is too large: ${width} × ${height} pixels, where at most ${MAX_PICTURE_SIDE} pixels a side and ${MAX_PIXELS / 1e6} megapixels can be read.`,
    );
  }
}

/**
 * The sizes of the pictures a PDF holds, from their dictionaries (`/Subtype /Image ... /Width w /Height
 * h`), which a PDF never compresses: read before pdf.js decodes any of them.
 */
export function pdfImageSizes(bytes: Uint8Array): { width: number; height: number }[] {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const sizes: { width: number; height: number }[] = [];
  for (const match of text.matchAll(/\/Subtype\s*\/Image\b/g)) {
    // The object around the match: from its `n 0 obj` to its stream, or its end.
    const start = text.lastIndexOf('obj', match.index);
    const ends = [text.indexOf('stream', match.index), text.indexOf('endobj', match.index)].filter(
      (i) => i >= 0,
    );
    const dict = text.slice(Math.max(0, start), ends.length > 0 ? Math.min(...ends) : match.index + 2000);
    const width = Number(/\/Width\s+(\d+)/.exec(dict)?.[1] ?? 0);
    const height = Number(/\/Height\s+(\d+)/.exec(dict)?.[1] ?? 0);
    if (width > 0 && height > 0) sizes.push({ width, height });
  }
  return sizes;
}

const require = createRequire(import.meta.url);
const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));
/** pdf.js would fetch fonts, CMaps, colour profiles and decoders from these; all are local files. */
const PDFJS_ASSETS = {
  standardFontDataUrl: `${join(PDFJS_DIR, 'standard_fonts')}/`,
  cMapUrl: `${join(PDFJS_DIR, 'cmaps')}/`,
  cMapPacked: true,
  iccUrl: `${join(PDFJS_DIR, 'iccs')}/`,
  wasmUrl: `${join(PDFJS_DIR, 'wasm')}/`,
};

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

async function readPdf(bytes: Uint8Array, options: ReadOptions): Promise<DocumentText> {
  for (const { width, height } of pdfImageSizes(bytes))
    assertReadablePicture(width, height, 'A picture in the PDF');
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  const lib = await pdfjs;
  const task = lib.getDocument({
    data: bytes,
    ...PDFJS_ASSETS,
    // What the scan above cannot see (a picture whose size is given by reference) is left undrawn.
    maxImageSize: MAX_PIXELS,
    useWorkerFetch: false,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: lib.VerbosityLevel.ERRORS,
  });
  try {
    const doc = await task.promise.catch((err: unknown) => {
      throw pdfError(err);
    });
    if (doc.numPages > options.maxPages) {
      throw options.maxPages === 1
        ? new TextractError('UnsupportedDocumentException', multiPageMessage(doc.numPages, 'PDF'))
        : new TextractError(
            'DocumentTooLargeException',
            `The PDF has too many pages (${doc.numPages}); Textract reads at most ${options.maxPages}.`,
          );
    }
    const pages: PageText[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n).catch((err: unknown) => {
        throw pdfError(err);
      });
      try {
        pages.push(await readPdfPage(lib, page, options.ocrDpi));
      } catch (err) {
        throw err instanceof TextractError ? err : pdfError(err);
      } finally {
        page.cleanup();
      }
    }
    return { pages };
  } finally {
    await task.destroy();
  }
}

function pdfError(err: unknown): TextractError {
  const name = err instanceof Error ? err.name : '';
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'PasswordException')
    return new TextractError('UnsupportedDocumentException', ENCRYPTED_MESSAGE);
  return new TextractError('BadDocumentException', `The PDF is damaged and cannot be read (${message}).`);
}

/** Below this many letters a page is taken for a scan when it shows images or drawn shapes. */
const SCAN_MAX_CHARS = 16;
/** A page mostly covered by an image with little text (a scanner's stamp or page number) is a scan too. */
const STAMPED_SCAN_MAX_CHARS = 200;
// A page is never rendered larger than MAX_PIXELS, whatever its size (A0 drawings at 300 dpi would be 140 MP).

async function readPdfPage(lib: PdfJs, page: PDFPageProxy, ocrDpi: number): Promise<PageText> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const words: PlacedWord[] = [];
  for (const item of content.items) {
    if ('str' in item) words.push(...itemWords(item, content.styles[item.fontName], viewport));
  }
  const chars = words.reduce((n, w) => n + w.word.text.length, 0);
  if (chars < STAMPED_SCAN_MAX_CHARS) {
    const marks = await markingsOf(lib, page, viewport);
    const scan =
      chars < SCAN_MAX_CHARS ? marks.imageCoverage > 0.05 || marks.paths > 100 : marks.imageCoverage > 0.5;
    if (scan) return ocrPdfPage(page, ocrDpi);
  }
  return {
    aspect: viewport.width / viewport.height,
    lines: readingOrder(linesOf(words)),
    ocr: false,
  };
}

async function ocrPdfPage(page: PDFPageProxy, ocrDpi: number): Promise<PageText> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const unit = page.getViewport({ scale: 1 });
  const scale = Math.min(ocrDpi / 72, Math.sqrt(MAX_PIXELS / (unit.width * unit.height)));
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  // pdf.js draws on @napi-rs/canvas in Node; its types name the browser's canvas.
  await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport }).promise;
  const { width, height } = canvas;
  const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  // A grey PGM is read by the OCR engine as it is; encoding and decoding a PNG would double the time.
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  const pgm = Buffer.alloc(header.length + width * height);
  header.copy(pgm);
  for (let i = 0, j = header.length; i < rgba.length; i += 4, j++) {
    pgm[j] = ((rgba[i] ?? 0) * 77 + (rgba[i + 1] ?? 0) * 150 + (rgba[i + 2] ?? 0) * 29) >> 8;
  }
  return ocrPage({ image: pgm, width, height, dpi: Math.round(scale * 72) });
}

interface Markings {
  /** Share of the page that images cover (overlaps counted twice; capped at 1). */
  imageCoverage: number;
  paths: number;
}

/** Images and shapes drawn on the page, with the area each image takes (its unit square under the CTM). */
async function markingsOf(lib: PdfJs, page: PDFPageProxy, viewport: PageViewport): Promise<Markings> {
  const { OPS } = lib;
  const list = await page.getOperatorList();
  const imageOps = new Set<number>([
    OPS.paintImageXObject,
    OPS.paintInlineImageXObject,
    OPS.paintImageMaskXObject,
    OPS.paintImageXObjectRepeat,
    OPS.paintInlineImageXObjectGroup,
    OPS.paintImageMaskXObjectGroup,
    OPS.paintImageMaskXObjectRepeat,
    OPS.paintSolidColorImageMask,
  ]);
  type Matrix = [number, number, number, number, number, number];
  const multiply = (m: Matrix, n: Matrix): Matrix => [
    m[0] * n[0] + m[2] * n[1],
    m[1] * n[0] + m[3] * n[1],
    m[0] * n[2] + m[2] * n[3],
    m[1] * n[2] + m[3] * n[3],
    m[0] * n[4] + m[2] * n[5] + m[4],
    m[1] * n[4] + m[3] * n[5] + m[5],
  ];
  const isMatrix = (v: unknown): v is Matrix =>
    (Array.isArray(v) || ArrayBuffer.isView(v)) &&
    (v as ArrayLike<unknown>).length === 6 &&
    Array.from(v as ArrayLike<unknown>).every((x) => typeof x === 'number');
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  let imageArea = 0;
  let paths = 0;
  list.fnArray.forEach((fn, i) => {
    const args: unknown = list.argsArray[i];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform && Array.isArray(args) && isMatrix(args)) ctm = multiply(ctm, args);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      const matrix: unknown = Array.isArray(args) ? args[0] : undefined;
      if (isMatrix(matrix)) ctm = multiply(ctm, matrix);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.constructPath) paths++;
    else if (imageOps.has(fn)) imageArea += Math.abs(ctm[0] * ctm[3] - ctm[1] * ctm[2]);
  });
  const pageArea = viewport.width * viewport.height;
  return { imageCoverage: Math.min(1, imageArea / pageArea), paths };
}

/**
 * Where glyphs reach above and below the baseline, in font sizes: about the cap height and the
 * descender of common fonts. Textract's boxes hug the ink, and so do these.
 */
const ASCENT = 0.75;
const DESCENT = 0.22;

/** Helvetica's advance widths for ASCII 32-126 (per 1000 em), to place words within a run of text. */
const SANS_WIDTHS = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556,
  556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278,
  500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469,
  556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
  278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const charWidth = (ch: string, mono: boolean) => {
  if (mono) return 1;
  const code = ch.codePointAt(0) ?? 0;
  return SANS_WIDTHS[code - 32] ?? 556;
};

interface PlacedWord {
  word: TextWord;
  /** Writing direction on the page, in whole degrees. */
  angle: number;
  /** Baseline's distance across the writing direction, and the word's span along it (page units). */
  across: number;
  from: number;
  to: number;
  size: number;
}

/**
 * pdf.js gives runs of text with the run's width only. Words inside a run are placed by the relative
 * advance widths of their letters (Helvetica's for proportional fonts, equal for monospaced ones),
 * scaled so that the run's total matches: close enough for boxes to sit on the word.
 */
function itemWords(item: TextItem, style: TextStyle | undefined, viewport: PageViewport): PlacedWord[] {
  const text = item.str;
  if (!text.trim()) return [];
  const [a, b, c, d, e, f] = item.transform as number[];
  if (a === undefined || b === undefined || c === undefined || d === undefined) return [];
  if (e === undefined || f === undefined) return [];
  const along = Math.hypot(a, b);
  const size = Math.hypot(c, d);
  if (along === 0 || size === 0) return [];
  const ux = a / along;
  const uy = b / along;
  const vx = c / size;
  const vy = d / size;
  const mono = style?.fontFamily === 'monospace';
  const chars = [...text];
  const advances = chars.map((ch) => charWidth(ch, mono));
  const total = advances.reduce((s, w) => s + w, 0);
  const offsets: number[] = [0];
  for (const w of advances) offsets.push((offsets.at(-1) ?? 0) + (w / total) * item.width);

  const toPage = (x: number, y: number) => {
    const [px = 0, py = 0] = viewport.convertToViewportPoint(
      e + ux * x + vx * y * size,
      f + uy * x + vy * y * size,
    );
    return { X: px / viewport.width, Y: py / viewport.height, px, py };
  };
  const origin = toPage(0, 0);
  const ahead = toPage(1, 0);
  const dirX = ahead.px - origin.px;
  const dirY = ahead.py - origin.py;
  const angle = Math.round((Math.atan2(dirY, dirX) * 180) / Math.PI);
  const across = origin.px * -dirY + origin.py * dirX;
  const base = origin.px * dirX + origin.py * dirY;

  const words: PlacedWord[] = [];
  for (const match of text.matchAll(/\S+/gu)) {
    const start = [...text.slice(0, match.index)].length;
    const end = start + [...match[0]].length;
    const x0 = offsets[start] ?? 0;
    const x1 = offsets[end] ?? item.width;
    const corners = [toPage(x0, ASCENT), toPage(x1, ASCENT), toPage(x1, -DESCENT), toPage(x0, -DESCENT)];
    const polygon = corners.map((p) => ({ X: clamp(p.X), Y: clamp(p.Y) }));
    const box = unionBox(polygon.map((p) => ({ Left: p.X, Top: p.Y, Width: 0, Height: 0 })));
    words.push({
      word: { text: match[0], box, polygon, confidence: 99.9 },
      angle,
      across,
      from: base + x0,
      to: base + x1,
      size,
    });
  }
  return words;
}

/**
 * Words on one baseline (same direction, baselines within a third of the text size) in writing order,
 * broken into lines at gaps wider than the text is high.
 */
function linesOf(words: readonly PlacedWord[]): TextLine[] {
  const sorted = [...words].sort((p, q) => p.angle - q.angle || p.across - q.across);
  const baselines: PlacedWord[][] = [];
  for (const w of sorted) {
    const current = baselines.at(-1);
    const last = current?.at(-1);
    if (
      current &&
      last &&
      last.angle === w.angle &&
      w.across - last.across < 0.33 * Math.min(w.size, last.size)
    )
      current.push(w);
    else baselines.push([w]);
  }
  const lines: TextLine[] = [];
  for (const baseline of baselines) {
    baseline.sort((p, q) => p.from - q.from);
    let current: PlacedWord[] = [];
    for (const w of baseline) {
      const prev = current.at(-1);
      // Fake bold prints a word twice, a hair apart: one word on the page, one WORD in the answer.
      if (prev && prev.word.text === w.word.text && Math.abs(w.from - prev.from) < 0.2 * w.size) continue;
      // Pieces of one word set as separate runs (kerned or letter-spaced text) touch on the page, and
      // the service, reading what is printed, answers one WORD; a word space is a quarter of the size.
      if (prev && w.from - prev.to < 0.08 * Math.max(prev.size, w.size) && w.from > prev.from) {
        const [p0, , , p3] = prev.word.polygon;
        const [, q1, q2] = w.word.polygon;
        const polygon = p0 && p3 && q1 && q2 ? [p0, q1, q2, p3] : prev.word.polygon;
        current[current.length - 1] = {
          ...prev,
          word: {
            text: prev.word.text + w.word.text,
            box: unionBox([prev.word.box, w.word.box]),
            polygon,
            confidence: Math.min(prev.word.confidence, w.word.confidence),
          },
          to: w.to,
        };
        continue;
      }
      if (prev && w.from - prev.to > Math.max(prev.size, w.size)) {
        lines.push({ words: current.map((p) => p.word) });
        current = [];
      }
      current.push(w);
    }
    if (current.length > 0) lines.push({ words: current.map((p) => p.word) });
  }
  return lines;
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));
