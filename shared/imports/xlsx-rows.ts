import { strFromU8, Unzip, UnzipInflate, unzipSync } from 'fflate';
import { FileFormatError, type TextRecord } from './text-rows.ts';

/**
 * The rows of one sheet of an XLSX workbook, read with a small XML scanner (no DOM) as the sheet inflates, so a
 * sheet of many rows is never held whole: shared
 * strings, inline strings, numbers, booleans and cells formatted as dates (given as YYYY-MM-DD, with the
 * time when it has one). A merged cell's value fills its whole region, so a header merged across several
 * columns names each of them.
 */

export interface XlsxSheet {
  sheetNames: string[];
  sheetName: string;
  rows: TextRecord[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e.startsWith('#x')
      ? String.fromCodePoint(Number.parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : (ENTITIES[e] ?? ''),
  );
}

function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attrs);
  return m ? unescapeXml(m[1] as string) : undefined;
}

/** The text of every `<t>` inside (rich text runs joined). */
function textOf(xml: string): string {
  let out = '';
  for (const m of xml.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>/g)) out += unescapeXml(m[1] as string);
  return out;
}

/** Column letters to a 0-based index: A → 0, AA → 26. */
export function columnIndex(letters: string): number {
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function cellRef(ref: string): { col: number; row: number } {
  const m = /^([A-Z]+)(\d+)$/.exec(ref);
  if (!m) return { col: -1, row: -1 };
  return { col: columnIndex(m[1] as string), row: Number(m[2]) };
}

const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** Which style indexes format a number as a date or time. */
function dateStyles(stylesXml: string | undefined): Set<number> {
  const out = new Set<number>();
  if (!stylesXml) return out;
  const custom = new Map<number, string>();
  for (const m of stylesXml.matchAll(/<numFmt\s([^>]*)\/?>/g)) {
    const id = Number(attr(m[1] as string, 'numFmtId'));
    custom.set(id, attr(m[1] as string, 'formatCode') ?? '');
  }
  const xfs = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(stylesXml)?.[1] ?? '';
  let i = 0;
  for (const m of xfs.matchAll(/<xf\s([^>]*?)\/?>/g)) {
    const id = Number(attr(m[1] as string, 'numFmtId') ?? 0);
    const code = (custom.get(id) ?? '').replace(/"[^"]*"|\[[^\]]*\]/g, '');
    if (BUILTIN_DATE_FORMATS.has(id) || (custom.has(id) && /[dmyhs]/i.test(code))) out.add(i);
    i++;
  }
  return out;
}

/** A spreadsheet serial day (1900 system) as YYYY-MM-DD, with THH:MM when it has a time of day. */
export function serialToIso(serial: number): string {
  const ms = Math.round((serial - 25569) * 86_400_000);
  const iso = new Date(ms).toISOString();
  return ms % 86_400_000 === 0 ? iso.slice(0, 10) : iso.slice(0, 16);
}

function resolvePath(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const p of target.split('/')) {
    if (p === '..') parts.pop();
    else if (p !== '.') parts.push(p);
  }
  return parts.join('/');
}

/** Whether the bytes start like a zip archive (an XLSX file is one). */
export const isZip = (head: Uint8Array): boolean => head[0] === 0x50 && head[1] === 0x4b;

/** A workbook opened for reading: its sheets, and the chosen one's rows as they are unzipped. */
export interface XlsxBook {
  sheetNames: string[];
  sheetName: string;
  /** The sheet's non-empty rows in batches, read from its XML as it inflates, never held whole. */
  rows(batchSize?: number): Generator<TextRecord[]>;
}

/**
 * A zip can unpack to thousands of times its size (a "zip bomb"), so what a workbook may unpack to is
 * capped well above any sheet a person exports (a 100,000-row sheet is about 100 MB of XML): its small
 * parts (workbook, relations, shared strings, styles) each, its sheet as it streams, and one row.
 */
export const XLSX_LIMITS = {
  partBytes: 128 * 1024 * 1024,
  sheetBytes: 1024 * 1024 * 1024,
  rowChars: 4 * 1024 * 1024,
};

const tooLarge = () =>
  new FileFormatError('The spreadsheet unpacks to more than it could hold: split it into smaller files');

/** The text of one entry of a zip, inflated piece by piece as its bytes are pushed through. */
function* entryText(bytes: Uint8Array, name: string, limit = XLSX_LIMITS.sheetBytes): Generator<string> {
  const out: string[] = [];
  const decoder = new TextDecoder();
  let done = false;
  let failed: Error | undefined;
  let inflated = 0;
  const unzip = new Unzip((file) => {
    if (file.name !== name) return;
    file.ondata = (err, data, final) => {
      inflated += data?.length ?? 0;
      if (err) failed = err;
      else if (inflated > limit) failed = tooLarge();
      else out.push(decoder.decode(data, { stream: !final }));
      if (final) done = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  const PIECE = 1 << 16;
  for (let at = 0; at < bytes.length && !done; at += PIECE) {
    unzip.push(bytes.subarray(at, at + PIECE), at + PIECE >= bytes.length);
    if (failed instanceof FileFormatError) throw failed;
    if (failed) throw new FileFormatError('The file is not a readable spreadsheet');
    while (out.length > 0) yield out.shift() as string;
  }
}

type Merge = { from: { col: number; row: number }; to: { col: number; row: number } };

/** The sheet's merged regions: they follow its rows in the XML, so are found by a pass of their own. */
function mergesOf(bytes: Uint8Array, path: string): Merge[] {
  const seen = new Set<string>();
  let tail = '';
  for (const chunk of entryText(bytes, path)) {
    // Most of a sheet is rows: only text that holds a merge (or the start of one) is searched.
    if (!chunk.includes('mergeCell') && !`${tail}${chunk.slice(0, 200)}`.includes('mergeCell')) {
      tail = chunk.slice(-200);
      continue;
    }
    const text = tail + chunk;
    for (const m of text.matchAll(/<mergeCell\s+ref="([A-Z]+\d+):([A-Z]+\d+)"/g)) seen.add(`${m[1]}:${m[2]}`);
    tail = text.slice(-200);
  }
  return [...seen].map((ref) => {
    const [a, b] = ref.split(':') as [string, string];
    return { from: cellRef(a), to: cellRef(b) };
  });
}

/** Opens the named sheet, or the first one, reading the workbook's small parts now and its rows later. */
export function openXlsx(bytes: Uint8Array, wanted?: string): XlsxBook {
  let files: Record<string, Uint8Array>;
  let oversized = false;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        const wantedPart =
          f.name === 'xl/workbook.xml' ||
          f.name === 'xl/_rels/workbook.xml.rels' ||
          f.name === 'xl/sharedStrings.xml' ||
          f.name === 'xl/styles.xml';
        // The size the zip declares is what would be allocated: a part declaring too much is not unpacked.
        if (wantedPart && f.originalSize > XLSX_LIMITS.partBytes) oversized = true;
        return wantedPart && !oversized;
      },
    });
  } catch {
    throw new FileFormatError('The file is not a readable spreadsheet');
  }
  if (oversized) throw tooLarge();
  // A part may declare a small size and still inflate to more; what came out is measured too.
  if (Object.values(files).some((f) => f.length > XLSX_LIMITS.partBytes)) throw tooLarge();
  const text = (name: string) => (files[name] ? strFromU8(files[name]) : undefined);
  const workbook = text('xl/workbook.xml');
  if (!workbook) throw new FileFormatError('The file is not an XLSX workbook');
  const rels = new Map<string, string>();
  for (const m of (text('xl/_rels/workbook.xml.rels') ?? '').matchAll(/<Relationship\s([^>]*?)\/?>/g)) {
    const id = attr(m[1] as string, 'Id');
    const target = attr(m[1] as string, 'Target');
    if (id && target) rels.set(id, resolvePath('xl/workbook.xml', target));
  }
  const sheets = [...workbook.matchAll(/<sheet\s([^>]*?)\/?>/g)].map((m) => ({
    name: attr(m[1] as string, 'name') ?? '',
    path: rels.get(attr(m[1] as string, 'r:id') ?? '') ?? '',
  }));
  if (sheets.length === 0) throw new FileFormatError('The workbook has no sheets');
  const sheet = wanted ? sheets.find((s) => s.name === wanted) : sheets[0];
  if (!sheet) throw new FileFormatError(`The workbook has no sheet named ${wanted}`);

  const shared: string[] = [];
  for (const m of (text('xl/sharedStrings.xml') ?? '').matchAll(/<si>([\s\S]*?)<\/si>/g))
    shared.push(textOf(m[1] as string));
  const dates = dateStyles(text('xl/styles.xml'));
  files = {};

  const cellsOf = (body: string): string[] => {
    const cells: string[] = [];
    let next = 0;
    for (const cm of body.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = cm[1] as string;
      const inner = cm[2] ?? '';
      const ref = attr(attrs, 'r');
      const col = ref ? cellRef(ref).col : next;
      next = col + 1;
      const type = attr(attrs, 't');
      const raw = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
      let value = '';
      if (type === 's') value = shared[Number(raw)] ?? '';
      else if (type === 'inlineStr') value = textOf(inner);
      else if (type === 'b') value = raw === '1' ? 'TRUE' : 'FALSE';
      else if (raw !== undefined) {
        const v = unescapeXml(raw);
        const style = Number(attr(attrs, 's') ?? -1);
        value = type !== 'str' && type !== 'e' && dates.has(style) && v !== '' ? serialToIso(Number(v)) : v;
      }
      cells[col] = value;
    }
    return cells;
  };

  function* rows(batchSize = 2000): Generator<TextRecord[]> {
    let found = false;
    const merges = mergesOf(bytes, sheet?.path ?? '');
    // A merged region's value is its top-left cell's, kept from its row until the region ends.
    const origins = new Map<Merge, string>();
    let batch: TextRecord[] = [];
    let counted = 0;
    const emit = (rowNumber: number, cells: string[]) => {
      for (const m of merges) {
        if (rowNumber < m.from.row || rowNumber > m.to.row) continue;
        if (rowNumber === m.from.row) origins.set(m, cells[m.from.col] ?? '');
        for (let c = m.from.col; c <= m.to.col; c++) cells[c] = origins.get(m) ?? '';
      }
      const fields = Array.from(cells, (c) => c ?? '');
      if (fields.some((f) => f.trim() !== '')) batch.push({ row: rowNumber, fields });
    };
    let buf = '';
    for (const chunk of entryText(bytes, sheet?.path ?? '')) {
      found = true;
      buf += chunk;
      let end = 0;
      for (const rm of buf.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
        counted++;
        const n = Number(attr(rm[1] as string, 'r'));
        emit(Number.isFinite(n) && n > 0 ? n : counted, cellsOf(rm[2] ?? ''));
        end = (rm.index ?? 0) + rm[0].length;
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      buf = buf.slice(end);
      // Text outside rows (the sheet's head, its merges) is not kept past the next row's start.
      const open = buf.indexOf('<row');
      if (open > 0) buf = buf.slice(open);
      else if (open < 0 && buf.length > 4096) buf = buf.slice(-16);
      // A row that never closes would be held whole: no sheet a person exports has one this long.
      if (buf.length > XLSX_LIMITS.rowChars) throw tooLarge();
    }
    if (!found) throw new FileFormatError(`The sheet ${sheet?.name} cannot be read`);
    if (batch.length > 0) yield batch;
  }
  return { sheetNames: sheets.map((s) => s.name), sheetName: sheet.name, rows };
}

/** The rows of the named sheet, or of the first one, all at once (small workbooks, tests). */
export function readXlsx(bytes: Uint8Array, wanted?: string): XlsxSheet {
  const book = openXlsx(bytes, wanted);
  return { sheetNames: book.sheetNames, sheetName: book.sheetName, rows: [...book.rows()].flat() };
}
