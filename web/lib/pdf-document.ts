/**
 * A PDF rendered by PDF.js, page by page into a canvas. This module is only ever imported lazily: PDF.js
 * is large and only the pages that show documents need it. The legacy build carries the polyfills the
 * app's older supported browsers lack. Each document gets its own parser worker, so the page never
 * blocks and no setting is shared between the pages that read PDFs.
 */
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import { parserUrl } from './pdf-worker.ts';

export interface LoadedPdf {
  pageCount: number;
  /**
   * Draws a page into the canvas at the given CSS width; answers the CSS size drawn. A newer render
   * cancels one still drawing, which then answers without throwing.
   */
  render(
    page: number,
    canvas: HTMLCanvasElement,
    cssWidth: number,
  ): Promise<{ width: number; height: number }>;
  destroy(): Promise<void>;
}

const PARSER_START_MS = 30_000;

/**
 * A parser worker once it has said it is ready: PDF.js sends to a worker it is given at once, and a
 * message sent before the parser has loaded would be lost.
 */
function startParser(): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const port = new Worker(parserUrl, { type: 'module' });
    const done = (error?: Error) => {
      clearTimeout(timer);
      port.removeEventListener('message', onMessage);
      port.removeEventListener('error', onError);
      if (error) {
        port.terminate();
        reject(error);
      } else resolve(port);
    };
    const onMessage = (e: MessageEvent<{ action?: string }>) => {
      if (e.data?.action === 'ready') done();
    };
    const onError = () => done(new Error('The PDF reader could not start'));
    const timer = setTimeout(() => done(new Error('The PDF reader did not start in time')), PARSER_START_MS);
    port.addEventListener('message', onMessage);
    port.addEventListener('error', onError);
  });
}

/** Opens a PDF from its bytes or from a URL PDF.js fetches itself. */
export async function loadPdf(source: ArrayBuffer | string): Promise<LoadedPdf> {
  const port = await startParser();
  const worker = pdfjs.PDFWorker.create({ port });
  const task = pdfjs.getDocument({
    ...(typeof source === 'string' ? { url: source } : { data: new Uint8Array(source) }),
    isEvalSupported: false,
    worker,
  });
  let doc: pdfjs.PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (err) {
    await task.destroy();
    worker.destroy();
    port.terminate();
    throw err;
  }
  let current: { cancel(): void; promise: Promise<void> } | undefined;
  return {
    pageCount: doc.numPages,
    async render(pageNumber, canvas, cssWidth) {
      current?.cancel();
      const page = await doc.getPage(pageNumber);
      const base = page.getViewport({ scale: 1 });
      const scale = cssWidth / base.width;
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: scale * ratio });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      const size = { width: cssWidth, height: base.height * scale };
      canvas.style.width = `${size.width}px`;
      canvas.style.height = `${size.height}px`;
      const task = page.render({ canvas, viewport });
      current = task;
      try {
        await task.promise;
      } catch (err) {
        // A newer render replaced this one: not a failure.
        if ((err as { name?: string }).name !== 'RenderingCancelledException') throw err;
      }
      return size;
    },
    destroy: async () => {
      await task.destroy();
      // A worker given to PDF.js stays the giver's to end.
      worker.destroy();
      port.terminate();
    },
  };
}
