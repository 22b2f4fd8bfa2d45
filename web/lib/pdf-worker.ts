/**
 * PDF.js's document parser, run off the page. This chunk serves twice: in the page it only tells its own
 * (hashed) URL, which nothing else can know; started from that URL as a module worker, it loads the
 * parser, which then answers the page's PDF.js from the worker. Reading a PDF thus never blocks the page.
 */
export const parserUrl: string = import.meta.url;

if (typeof window === 'undefined') void import('pdfjs-dist/legacy/build/pdf.worker.mjs');
