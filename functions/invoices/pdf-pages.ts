/** A PDF whose page tree cannot be walked: capture refuses it before paying Textract to try. */
export class PdfPagesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfPagesError';
  }
}

/**
 * The number of pages a PDF declares, from its page tree (object streams included), without rendering
 * anything. pdf-lib is loaded on first use, so a worker that never meets a PDF never pays for it.
 */
export async function countPdfPages(bytes: Uint8Array): Promise<number> {
  const { PDFDocument } = await import('pdf-lib');
  let pages: number;
  try {
    const doc = await PDFDocument.load(bytes, {
      ignoreEncryption: true,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
    pages = doc.getPageCount();
  } catch (err) {
    throw new PdfPagesError(err instanceof Error ? err.message : String(err));
  }
  if (!Number.isInteger(pages) || pages < 1) throw new PdfPagesError('The PDF has no pages');
  return pages;
}
