import { strToU8, zipSync } from 'fflate';

/**
 * A minimal XLSX workbook as spreadsheet programs write one: shared strings for text, numbers in cells,
 * a date style for cells given as dates, and merged regions. Enough to test a reader against.
 */
export interface SheetSpec {
  name: string;
  /** Rows of cells: text, numbers, or { date: serial } for a date-formatted number. */
  rows: (string | number | { date: number } | null)[][];
  merges?: string[];
}

const col = (i: number): string =>
  i < 26 ? String.fromCharCode(65 + i) : col(Math.floor(i / 26) - 1) + col(i % 26);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function xlsxOf(sheets: readonly SheetSpec[]): Uint8Array {
  const strings: string[] = [];
  const stringIndex = (s: string) => {
    let i = strings.indexOf(s);
    if (i < 0) i = strings.push(s) - 1;
    return i;
  };
  const files: Record<string, Uint8Array> = {};
  sheets.forEach((sheet, n) => {
    const rows = sheet.rows
      .map((cells, r) => {
        const cs = cells
          .map((c, i) => {
            const ref = `${col(i)}${r + 1}`;
            if (c === null) return '';
            if (typeof c === 'string') return `<c r="${ref}" t="s"><v>${stringIndex(c)}</v></c>`;
            if (typeof c === 'number') return `<c r="${ref}"><v>${c}</v></c>`;
            return `<c r="${ref}" s="1"><v>${c.date}</v></c>`;
          })
          .join('');
        return `<row r="${r + 1}">${cs}</row>`;
      })
      .join('');
    const merges = sheet.merges?.length
      ? `<mergeCells count="${sheet.merges.length}">${sheet.merges.map((m) => `<mergeCell ref="${m}"/>`).join('')}</mergeCells>`
      : '';
    files[`xl/worksheets/sheet${n + 1}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData>${merges}</worksheet>`,
    );
  });
  files['xl/workbook.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets
      .map((s, i) => `<sheet name="${esc(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
      .join('')}</sheets></workbook>`,
  );
  files['xl/_rels/workbook.xml.rels'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets
      .map(
        (_, i) =>
          `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
      )
      .join('')}</Relationships>`,
  );
  files['xl/styles.xml'] = strToU8(
    '<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>',
  );
  files['xl/sharedStrings.xml'] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}">${strings
      .map((s) => `<si><t>${esc(s)}</t></si>`)
      .join('')}</sst>`,
  );
  files['[Content_Types].xml'] = strToU8('<?xml version="1.0" encoding="UTF-8"?><Types/>');
  return zipSync(files);
}

/** A spreadsheet's serial day for a date (1900 system). */
export const serialOf = (iso: string): number => Date.parse(`${iso}T00:00:00Z`) / 86_400_000 + 25569;
