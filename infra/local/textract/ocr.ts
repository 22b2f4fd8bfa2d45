import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Tesseract from 'tesseract.js';
import { TextractError } from './errors.ts';
import { readingOrder, splitAtGaps } from './layout.ts';
import type { PageText, TextLine, TextWord } from './page-text.ts';
import { boxPolygon } from './page-text.ts';

/**
 * OCR with tesseract.js and the English model that ships in node_modules (@tesseract.js-data/eng), so
 * nothing is fetched from the internet. One engine serves every scan: starting it costs a quarter of a
 * second and ~50 MB, so it starts with the first scan only and stops again after a quiet spell.
 */
const IDLE_MS = 5 * 60_000;
/** Tesseract's guesses on specks and rules; real words on a clean scan score far above this. */
const MIN_WORD_CONFIDENCE = 30;

const require = createRequire(import.meta.url);
/** The integer LSTM model: what tesseract.js itself loads for LSTM-only recognition, a third the size. */
const LANG_PATH = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

let engine: Promise<Tesseract.Worker> | undefined;
let idleTimer: NodeJS.Timeout | undefined;
let running = 0;

function startEngine(): Promise<Tesseract.Worker> {
  const starting = (async () => {
    const { createWorker, OEM, PSM } = await import('tesseract.js');
    const worker = await createWorker('eng', OEM.LSTM_ONLY, {
      langPath: LANG_PATH,
      gzip: true,
      // The model is read from node_modules each start; no copy is written to the working directory.
      cacheMethod: 'none',
      logger: () => {},
      errorHandler: () => {},
    });
    // Invoices are scattered blocks of text (addresses, boxes, tables): let it find the blocks.
    // Its notes ("Estimating resolution as ...") would go to the stack's console.
    await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, debug_file: '/dev/null' });
    return worker;
  })();
  starting.catch(() => {
    if (engine === starting) engine = undefined;
  });
  return starting;
}

export async function stopOcr(): Promise<void> {
  clearTimeout(idleTimer);
  const current = engine;
  engine = undefined;
  if (current) await (await current.catch(() => undefined))?.terminate();
}

export interface ImageInput {
  /** PNG, JPEG, TIFF or binary PGM bytes. */
  image: Uint8Array;
  width: number;
  height: number;
  /** Known for rendered pages; the engine guesses it for photos and scans it is given as they are. */
  dpi?: number;
}

/** Words and lines of one image, in fractions of its size. */
export async function ocrPage(input: ImageInput): Promise<PageText> {
  clearTimeout(idleTimer);
  running++;
  try {
    engine ??= startEngine();
    const worker = await engine;
    await worker.setParameters({ user_defined_dpi: String(input.dpi ?? 0) });
    const result = await worker
      .recognize(
        Buffer.from(input.image.buffer, input.image.byteOffset, input.image.byteLength),
        {},
        {
          blocks: true,
          text: false,
        },
      )
      .catch((err: unknown) => {
        throw new TextractError(
          'BadDocumentException',
          `The image could not be read: ${err instanceof Error ? err.message : String(err)}`,
        );
      });
    return pageFromTesseract(result.data, input.width, input.height);
  } finally {
    running--;
    if (running === 0) {
      idleTimer = setTimeout(() => void stopOcr(), IDLE_MS);
      idleTimer.unref();
    }
  }
}

function pageFromTesseract(page: Tesseract.Page, width: number, height: number): PageText {
  const aspect = width / height;
  const lines: TextLine[] = [];
  for (const block of page.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        const words: TextWord[] = [];
        for (const w of line.words) {
          const text = w.text.trim();
          if (!text || w.confidence < MIN_WORD_CONFIDENCE) continue;
          const box = {
            Left: clamp(w.bbox.x0 / width),
            Top: clamp(w.bbox.y0 / height),
            Width: clamp((w.bbox.x1 - w.bbox.x0) / width),
            Height: clamp((w.bbox.y1 - w.bbox.y0) / height),
          };
          words.push({ text, box, polygon: boxPolygon(box), confidence: round(w.confidence) });
        }
        words.sort((a, b) => a.box.Left - b.box.Left);
        lines.push(...splitAtGaps(words, aspect));
      }
    }
  }
  return { aspect, lines: readingOrder(lines), ocr: true };
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));
const round = (v: number) => Math.round(v * 1000) / 1000;
