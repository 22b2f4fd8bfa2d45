/**
 * The PDF reader's worker. The same chunk serves twice: in the page it only tells where it was loaded
 * from (its own hashed URL, which nothing else can know), and started as a module worker from that URL
 * it loads the reader's worker code, which answers the page from there. Reading a PDF thus never
 * blocks the page.
 */
export const workerUrl: string = import.meta.url;

if (typeof window === 'undefined') void import('pdfjs-dist/legacy/build/pdf.worker.mjs');
