/** PDF.js ships no types for its worker module; the viewers only hand it to PDF.js itself. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}
