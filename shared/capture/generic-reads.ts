import { normaliseUnit } from './charges.ts';
import { parseReadType, type ReadType } from './formats.ts';
import { CLOSING_READ, OPENING_READ, quantityFinder } from './generic-fields.ts';
import { type Region, toValue } from './generic-labels.ts';
import type { ExtractedValue } from './model.ts';
import { centre, headingOf, type PageDocument, rowsBetween, spanOfWords, type TextSpan } from './pages.ts';

/**
 * A table of meter readings: a header row naming the previous and present reads, and a row per register
 * (day, night, single) below it, each figure with its A/E marker.
 */

export interface RegisterRead {
  meterSerialNumber?: string;
  register?: string;
  openingRead?: ExtractedValue;
  closingRead?: ExtractedValue;
  openingType?: ReadType;
  closingType?: ReadType;
  consumption?: ExtractedValue;
  unit?: string;
}

type Column = 'serial' | 'register' | 'opening' | 'closing' | 'consumption';

function columnOfHeader(text: string): Column | undefined {
  if (/\bdate\b/i.test(text)) return undefined;
  if (new RegExp(OPENING_READ.labels[0]?.pattern.source ?? '$^', 'i').test(text)) return 'opening';
  if (new RegExp(CLOSING_READ.labels[0]?.pattern.source ?? '$^', 'i').test(text)) return 'closing';
  if (/\bregister\b|\brate\b|\btime\s*band\b/i.test(text)) return 'register';
  if (/\bserial\b|^\s*meter\s*(?:no\.?|number)?\s*$/i.test(text)) return 'serial';
  if (/\bunits\b|\bused\b|\bconsumption\b|\badvance\b|\bkwh\b|m³|\bm3\b/i.test(text)) return 'consumption';
  return undefined;
}

const MARKER = /^\s*\(?\s*(a|e|c|est\.?|estimated|actual|customer)\s*\)?\s*$/i;

function inRegions(regions: readonly Region[] | undefined, page: number, y: number): boolean {
  return !regions || regions.some((r) => r.page === page && y >= r.top && y <= r.bottom);
}

/** A read and its marker from the text of a cell ('466,019 A', '18,402 (A)'). */
function readCell(span: TextSpan): { value?: ExtractedValue; type?: ReadType } {
  const found = quantityFinder(span.text);
  if (!found) return {};
  const words = span.words.filter((_, i) => {
    const start = span.starts[i] ?? 0;
    return start < found.end && start + (span.words[i]?.text.length ?? 0) > found.start;
  });
  const part = spanOfWords(words, span.page, true);
  const marker = MARKER.exec(span.text.slice(found.end))?.[1];
  return {
    value: toValue(part, found.value, false),
    ...(marker ? { type: parseReadType(marker) ?? undefined } : {}),
  };
}

/** The register reads in the tables of reads on the pages (within the regions, when given). */
export function readRegisters(
  doc: PageDocument,
  pages: readonly number[],
  regions?: readonly Region[],
): RegisterRead[] {
  const reads: RegisterRead[] = [];
  for (const n of pages) {
    const page = doc.pages[n - 1];
    if (!page) continue;
    const rows = rowsBetween(page);
    rows.forEach((row, r) => {
      const kinds = page.lines
        .filter((l) => row.words.includes(l.words[0] as (typeof row.words)[number]))
        .map((l) => columnOfHeader(l.text));
      if (!kinds.includes('opening') || !kinds.includes('closing')) return;
      const onRow = page.lines.filter((l) => row.words.includes(l.words[0] as (typeof row.words)[number]));
      const boxes = onRow.map((l) => l.box);
      const columns = onRow.map((l) => ({ kind: columnOfHeader(l.text), header: l.text }));
      const height = row.box?.Height ?? 0.01;
      let lastTop = row.box?.Top ?? 0;
      for (const next of rows.slice(r + 1)) {
        const top = next.box?.Top ?? 1;
        if (top - lastTop > height * 3.5) break;
        if (!inRegions(regions, n, centre(next.box ?? { Left: 0, Top: top, Width: 0, Height: 0 }).y)) break;
        const cell = (kind: Column) => {
          const at = columns.findIndex((c) => c.kind === kind);
          if (at < 0) return undefined;
          const words = next.words.filter((w) => headingOf(boxes, w.box) === at);
          return words.length > 0 ? spanOfWords(words, n, true) : undefined;
        };
        const opening = cell('opening');
        const closing = cell('closing');
        const open = opening ? readCell(opening) : {};
        const shut = closing ? readCell(closing) : {};
        if (!open.value && !shut.value) break;
        lastTop = top;
        const used = cell('consumption');
        const usedValue = used ? quantityFinder(used.text) : null;
        const consumptionHeader = columns.find((c) => c.kind === 'consumption')?.header ?? '';
        const unit = normaliseUnit(used?.text ?? '') ?? normaliseUnit(consumptionHeader);
        reads.push({
          ...(cell('serial') ? { meterSerialNumber: cell('serial')?.text } : {}),
          ...(cell('register') ? { register: cell('register')?.text } : {}),
          ...(open.value ? { openingRead: open.value } : {}),
          ...(shut.value ? { closingRead: shut.value } : {}),
          ...(open.type ? { openingType: open.type } : {}),
          ...(shut.type ? { closingType: shut.type } : {}),
          ...(used && usedValue ? { consumption: toValue(used, usedValue.value, false) } : {}),
          ...(unit ? { unit } : {}),
        });
      }
    });
  }
  return reads;
}
