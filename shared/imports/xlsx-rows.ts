import { strFromU8, unzipSync } from 'fflate';
import { FileFormatError, type TextRecord } from './text-rows.ts';

/**
 * The rows of one sheet of an XLSX workbook, read from its parts with a small XML scanner (no DOM): shared
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

/** The rows of the named sheet, or of the first one. */
export function readXlsx(bytes: Uint8Array, wanted?: string): XlsxSheet {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (f) =>
        f.name === 'xl/workbook.xml' ||
        f.name === 'xl/_rels/workbook.xml.rels' ||
        f.name === 'xl/sharedStrings.xml' ||
        f.name === 'xl/styles.xml' ||
        f.name.startsWith('xl/worksheets/'),
    });
  } catch {
    throw new FileFormatError('The file is not a readable spreadsheet');
  }
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
  const xml = text(sheet.path);
  if (xml === undefined) throw new FileFormatError(`The sheet ${sheet.name} cannot be read`);

  const shared: string[] = [];
  for (const m of (text('xl/sharedStrings.xml') ?? '').matchAll(/<si>([\s\S]*?)<\/si>/g))
    shared.push(textOf(m[1] as string));
  const dates = dateStyles(text('xl/styles.xml'));

  const byRow = new Map<number, string[]>();
  for (const rm of xml.matchAll(/<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    const rowNumber = Number(attr(rm[1] as string, 'r'));
    const cells: string[] = [];
    let next = 0;
    for (const cm of (rm[2] ?? '').matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = cm[1] as string;
      const body = cm[2] ?? '';
      const ref = attr(attrs, 'r');
      const col = ref ? cellRef(ref).col : next;
      next = col + 1;
      const type = attr(attrs, 't');
      const raw = /<v>([\s\S]*?)<\/v>/.exec(body)?.[1];
      let value = '';
      if (type === 's') value = shared[Number(raw)] ?? '';
      else if (type === 'inlineStr') value = textOf(body);
      else if (type === 'b') value = raw === '1' ? 'TRUE' : 'FALSE';
      else if (raw !== undefined) {
        const v = unescapeXml(raw);
        const style = Number(attr(attrs, 's') ?? -1);
        value = type !== 'str' && type !== 'e' && dates.has(style) && v !== '' ? serialToIso(Number(v)) : v;
      }
      cells[col] = value;
    }
    byRow.set(Number.isFinite(rowNumber) && rowNumber > 0 ? rowNumber : byRow.size + 1, cells);
  }
  for (const m of xml.matchAll(/<mergeCell\s+ref="([A-Z]+\d+):([A-Z]+\d+)"/g)) {
    const from = cellRef(m[1] as string);
    const to = cellRef(m[2] as string);
    const value = byRow.get(from.row)?.[from.col] ?? '';
    for (let r = from.row; r <= to.row; r++) {
      const cells = byRow.get(r) ?? [];
      for (let c = from.col; c <= to.col; c++) cells[c] = value;
      byRow.set(r, cells);
    }
  }
  const rows: TextRecord[] = [...byRow.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([row, cells]) => ({ row, fields: Array.from(cells, (c) => c ?? '') }))
    .filter((r) => r.fields.some((f) => f.trim() !== ''));
  return { sheetNames: sheets.map((s) => s.name), sheetName: sheet.name, rows };
}
