import { strFromU8, unzipSync } from 'fflate';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The text of every page of a PDF, page by page, as a reader's text layer gives it. */
export async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  const doc = await getDocument({ data: bytes.slice(), verbosity: 0, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await doc.destroy();
  return pages;
}

/** The PDF's information dictionary as a reader sees it. */
export async function pdfInfo(bytes: Uint8Array): Promise<Record<string, unknown>> {
  const doc = await getDocument({ data: bytes.slice(), verbosity: 0, isEvalSupported: false }).promise;
  const { info } = await doc.getMetadata();
  await doc.destroy();
  return info as Record<string, unknown>;
}

export type SheetCell = string | number;

/** Each sheet of an XLSX by its name: rows of cells, numbers read from number cells only. */
export function xlsxSheets(bytes: Uint8Array): Map<string, SheetCell[][]> {
  const files = unzipSync(bytes);
  const text = (name: string) => strFromU8(files[name] ?? new Uint8Array());
  const names = [...text('xl/workbook.xml').matchAll(/<sheet name="([^"]*)"/g)].map((m) => m[1] ?? '');
  const out = new Map<string, SheetCell[][]>();
  names.forEach((name, i) => {
    const xml = text(`xl/worksheets/sheet${i + 1}.xml`);
    const rows = [...xml.matchAll(/<row r="\d+">(.*?)<\/row>/g)].map((row) => {
      const cells: SheetCell[] = [];
      for (const c of (row[1] ?? '').matchAll(/<c r="([A-Z]+)\d+"( t="inlineStr")?>(.*?)<\/c>/g)) {
        const col = [...(c[1] ?? '')].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
        const value = c[2]
          ? (c[3] ?? '').replace(/^.*<t[^>]*>(.*)<\/t>.*$/, '$1').replace(/&amp;/g, '&')
          : Number((c[3] ?? '').replace(/<\/?v>/g, ''));
        cells[col] = value;
      }
      return cells;
    });
    out.set(name.replace(/&amp;/g, '&'), rows);
  });
  return out;
}
