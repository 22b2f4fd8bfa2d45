import { centre, clusterRows, unionBox } from './page-geometry.ts';
import {
  type DocPage,
  type PageCell,
  type PageDocument,
  type PageLine,
  type PageWord,
  spanOfWords,
} from './page-model.ts';
import type { Block, BoundingBox, DocumentAnalysis } from './textract.ts';

/** Textract's blocks as pages of words and lines, tables and key-value pairs. */

/** The page of every block: its own Page, else that of the PAGE block it descends from or follows. */
function blockPages(blocks: readonly Block[], byId: ReadonlyMap<string, Block>): Map<string, number> {
  const pages = new Map<string, number>();
  let counter = 0;
  for (const block of blocks) {
    if (block.BlockType !== 'PAGE') continue;
    counter = block.Page ?? counter + 1;
    const stack = [block.Id];
    while (stack.length > 0) {
      const id = stack.pop() as string;
      if (pages.has(id)) continue;
      const child = byId.get(id);
      pages.set(id, child?.Page ?? counter);
      for (const rel of child?.Relationships ?? []) if (rel.Type === 'CHILD') stack.push(...rel.Ids);
    }
  }
  counter = 0;
  for (const block of blocks) {
    if (block.BlockType === 'PAGE') counter = pages.get(block.Id) ?? counter + 1;
    if (block.Page !== undefined) pages.set(block.Id, block.Page);
    else if (!pages.has(block.Id)) pages.set(block.Id, Math.max(counter, 1));
  }
  return pages;
}

function childIds(block: Block | undefined, type = 'CHILD'): string[] {
  return (block?.Relationships ?? []).filter((r) => r.Type === type).flatMap((r) => r.Ids);
}

function wordFromBlock(block: Block, page: number): PageWord | undefined {
  const box = block.Geometry?.BoundingBox;
  if (!box || !block.Text) return undefined;
  return { id: block.Id, text: block.Text, page, box, confidence: block.Confidence ?? 100 };
}

/** Words for a line that came without its words, spread over its box by their lengths. */
function splitLine(block: Block, page: number): PageWord[] {
  const box = block.Geometry?.BoundingBox;
  const parts = (block.Text ?? '').split(/\s+/).filter(Boolean);
  if (!box || parts.length === 0) return [];
  const total = parts.join(' ').length;
  let offset = 0;
  return parts.map((text, i) => {
    const left = box.Left + (box.Width * offset) / total;
    offset += text.length + 1;
    return {
      id: `${block.Id}:${i}`,
      text,
      page,
      box: { Left: left, Top: box.Top, Width: (box.Width * text.length) / total, Height: box.Height },
      confidence: block.Confidence ?? 100,
    };
  });
}

/**
 * Words that touch are one word: some PDF text layers split a word where a ligature glyph sits
 * ('O', 'ffi', 'ces'), which no reader of the page would.
 */
function joinAbutting(words: PageWord[]): PageWord[] {
  const joined: PageWord[] = [];
  for (const word of words) {
    const prev = joined[joined.length - 1];
    const gap = prev ? word.box.Left - (prev.box.Left + prev.box.Width) : 1;
    if (
      prev &&
      gap <= 0.08 * Math.min(prev.box.Height, word.box.Height) &&
      /\w$/.test(prev.text) &&
      /^\w/.test(word.text)
    ) {
      joined[joined.length - 1] = {
        ...prev,
        text: prev.text + word.text,
        box: unionBox([prev.box, word.box]) as BoundingBox,
        confidence: Math.min(prev.confidence, word.confidence),
      };
    } else {
      joined.push(word);
    }
  }
  return joined;
}

/** Lines for words that came without lines: words of a row, broken where a gap is wide. */
function linesFromWords(words: PageWord[], page: number): PageLine[] {
  const lines: PageLine[] = [];
  for (const row of clusterRows(words)) {
    let current: PageWord[] = [];
    const flush = () => {
      if (current.length === 0) return;
      const span = spanOfWords(current, page, true);
      lines.push({
        id: `line:${current[0]?.id}`,
        text: span.text,
        page,
        box: span.box as BoundingBox,
        confidence: span.confidence,
        words: current,
      });
      current = [];
    };
    for (const word of row) {
      const prev = current[current.length - 1];
      if (prev && word.box.Left - (prev.box.Left + prev.box.Width) > 3 * Math.max(prev.box.Height, 0.005))
        flush();
      current.push(word);
    }
    flush();
  }
  return lines;
}

/**
 * The skew of a page: the median slope of its longer lines, from how their words' centres drop from
 * left to right. Printed pages come out level (0); a scan fed in askew does not.
 */
function skewOf(lines: readonly PageLine[]): number {
  const slopes: number[] = [];
  for (const line of lines) {
    if (line.words.length < 3 || line.box.Width < 0.08) continue;
    const xs = line.words.map((w) => centre(w.box).x);
    const ys = line.words.map((w) => centre(w.box).y);
    const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
    const my = ys.reduce((a, b) => a + b, 0) / ys.length;
    let num = 0;
    let den = 0;
    xs.forEach((x, i) => {
      num += (x - mx) * ((ys[i] ?? my) - my);
      den += (x - mx) ** 2;
    });
    if (den > 0) slopes.push(num / den);
  }
  if (slopes.length < 3) return 0;
  slopes.sort((a, b) => a - b);
  const median = slopes[Math.floor(slopes.length / 2)] ?? 0;
  return Math.abs(median) < 0.001 || Math.abs(median) > 0.1 ? 0 : median;
}

/** The page model of a DetectDocumentText or AnalyzeDocument response. */
export function buildPages(analysis: DocumentAnalysis): PageDocument {
  const blocks = analysis.Blocks ?? [];
  const byId = new Map(blocks.map((b) => [b.Id, b]));
  const pageOfBlock = blockPages(blocks, byId);
  const words = new Map<string, PageWord>();
  for (const block of blocks) {
    if (block.BlockType !== 'WORD') continue;
    const word = wordFromBlock(block, pageOfBlock.get(block.Id) ?? 1);
    if (word) words.set(word.id, word);
  }
  const pageCount = Math.max(analysis.DocumentMetadata?.Pages ?? 0, ...pageOfBlock.values(), 1);
  const pages: DocPage[] = Array.from({ length: pageCount }, (_, i) => ({
    number: i + 1,
    words: [],
    lines: [],
    tables: [],
    keyValues: [],
    text: '',
    skew: 0,
  }));
  const pageAt = (n: number) => pages[Math.min(Math.max(n, 1), pageCount) - 1] as DocPage;
  const wordsOf = (block: Block | undefined): PageWord[] =>
    childIds(block)
      .map((id) => words.get(id))
      .filter((w): w is PageWord => w !== undefined);

  const usedWords = new Set<string>();
  for (const block of blocks) {
    if (block.BlockType !== 'LINE') continue;
    const page = pageOfBlock.get(block.Id) ?? 1;
    let lineWords = wordsOf(block);
    if (lineWords.length === 0) {
      lineWords = splitLine(block, page);
      for (const w of lineWords) words.set(w.id, w);
    }
    const box = block.Geometry?.BoundingBox ?? unionBox(lineWords.map((w) => w.box));
    if (!box || lineWords.length === 0) continue;
    for (const w of lineWords) usedWords.add(w.id);
    const sorted = lineWords.sort((a, b) => a.box.Left - b.box.Left);
    lineWords = joinAbutting(sorted);
    const kept = new Set(lineWords.map((w) => w.id));
    for (const w of sorted) if (!kept.has(w.id)) words.delete(w.id);
    for (const w of lineWords) words.set(w.id, w);
    pageAt(page).lines.push({
      id: block.Id,
      text: lineWords.map((w) => w.text).join(' '),
      page,
      box,
      confidence: Math.min(...lineWords.map((w) => w.confidence)),
      words: lineWords,
    });
  }
  for (const word of words.values()) pageAt(word.page).words.push(word);
  for (const page of pages) {
    const loose = page.words.filter((w) => !usedWords.has(w.id));
    if (loose.length > 0) page.lines.push(...linesFromWords(loose, page.number));
    page.skew = skewOf(page.lines);
    page.lines = clusterRows(page.lines, page.skew).flat();
    page.text = clusterRows(page.lines, page.skew)
      .map((row) => row.map((l) => l.text).join(' '))
      .join('\n');
  }

  for (const block of blocks) {
    const page = pageOfBlock.get(block.Id) ?? 1;
    if (block.BlockType === 'TABLE') {
      const cells: PageCell[] = [];
      for (const id of childIds(block)) {
        const cell = byId.get(id);
        if (cell?.BlockType !== 'CELL') continue;
        cells.push({
          rowIndex: cell.RowIndex ?? 1,
          columnIndex: cell.ColumnIndex ?? 1,
          rowSpan: cell.RowSpan ?? 1,
          columnSpan: cell.ColumnSpan ?? 1,
          header: (cell.EntityTypes ?? []).includes('COLUMN_HEADER'),
          span: spanOfWords(wordsOf(cell), page),
        });
      }
      const rows: PageCell[][] = [];
      for (const cell of cells) {
        const at = cell.rowIndex - 1;
        rows[at] = [...(rows[at] ?? []), cell];
      }
      const box = block.Geometry?.BoundingBox;
      pageAt(page).tables.push({
        id: block.Id,
        page,
        ...(box ? { box } : {}),
        rows: Array.from(rows, (r) => (r ?? []).sort((a, b) => a.columnIndex - b.columnIndex)),
      });
    } else if (block.BlockType === 'KEY_VALUE_SET' && (block.EntityTypes ?? []).includes('KEY')) {
      const key = spanOfWords(wordsOf(block), page);
      const valueWords = childIds(block, 'VALUE').flatMap((id) => wordsOf(byId.get(id)));
      const value = spanOfWords(valueWords, page);
      if (key.text === '') continue;
      pageAt(page).keyValues.push({ page, key, value, confidence: block.Confidence ?? 100 });
    }
  }
  return { pageCount, pages };
}
