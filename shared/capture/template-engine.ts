import type { UtilityType } from '../schemas/common.ts';
import { classifyCharge, normaliseUnit, parseChargeText, reconcilePence, toPounds } from './charges.ts';
import { findDates } from './date-text.ts';
import type {
  ExtractedRate,
  ExtractedReading,
  ExtractedValue,
  ExtractedValues,
  RateColumn,
  Template,
  TemplateBound,
  TemplateRate,
  TemplateValue,
} from './model.ts';
import { findNumbers, findPrices, numberSeparators, parsePrice, pickPrice } from './number-text.ts';
import {
  centre,
  findText,
  type PageDocument,
  type PageWord,
  rowsInBox,
  subSpan,
  textInBox,
} from './pages.ts';
import { ruleRegex } from './template-rules.ts';
import type { BoundingBox } from './textract.ts';
import { parseTyped, readingFromValues } from './value-parsing.ts';

export {
  allPages,
  chooseVersion,
  identifySupplier,
  pagesRuleOf,
  ruleHolds,
  ruleRegex,
  splitInvoices,
} from './template-rules.ts';

/**
 * Reading an invoice with a supplier template: each bound is placed on its page (moved with its anchor
 * when the layout shifted), values are read from the text inside it, charge lines from its rows.
 */

export interface PlacedBound {
  bound: TemplateBound;
  /** 1-based page of the document */
  page: number;
  box: BoundingBox;
  /** Whether the anchor text was found; absent when the bound has no anchor. */
  anchorFound?: boolean;
  /** How far the bound moved with its anchor (page fractions). */
  dx: number;
  dy: number;
}

/** A page of an invoice (1-based; -1 the last, -2 the one before) as a page of the document. */
export function resolvePage(page: number, pages: readonly number[]): number | undefined {
  if (page > 0) return pages[page - 1];
  if (page < 0) return pages[pages.length + page];
  return pages[0];
}

/**
 * How far across the page an anchor may have moved and still be the one drawn on. Layouts move down as
 * lines above grow, hardly sideways: the same words a column away are another label (a table heading
 * repeating a panel's label, say, when OCR missed the panel's), and following them reads the wrong box.
 */
export const MAX_ANCHOR_SHIFT_ACROSS = 0.15;

/**
 * Where a bound lies on an invoice. With an anchor, the occurrence of the anchor text nearest to where it
 * was on the sample decides how far the bound moves; without one found in its column, the bound stays
 * as drawn.
 */
export function placeBound(
  bound: TemplateBound,
  doc: PageDocument,
  pages: readonly number[],
): PlacedBound | undefined {
  const pageNumber = resolvePage(bound.page, pages);
  const page = pageNumber === undefined ? undefined : doc.pages[pageNumber - 1];
  if (!page || pageNumber === undefined) return undefined;
  const box = { Left: bound.Left, Top: bound.Top, Width: bound.Width, Height: bound.Height };
  if (!bound.anchor) return { bound, page: pageNumber, box, dx: 0, dy: 0 };
  const { text, left, top } = bound.anchor;
  const matches = (text.trim() === '' ? [] : findText(page, text)).filter(
    (m) => Math.abs(m.box.Left - left) <= MAX_ANCHOR_SHIFT_ACROSS,
  );
  if (matches.length === 0) return { bound, page: pageNumber, box, anchorFound: false, dx: 0, dy: 0 };
  const distance = (b: BoundingBox) => Math.hypot(b.Left - left, b.Top - top);
  const nearest = matches.reduce((a, b) => (distance(b.box) < distance(a.box) ? b : a));
  const dx = nearest.box.Left - left;
  const dy = nearest.box.Top - top;
  return {
    bound,
    page: pageNumber,
    box: { ...box, Left: box.Left + dx, Top: box.Top + dy },
    anchorFound: true,
    dx,
    dy,
  };
}

/** A template value's regular expression; 'd' gives the offsets of its capture group. */
function valueRegex(source: string): RegExp | undefined {
  const regex = ruleRegex(source);
  if (!regex) return undefined;
  const flags = regex.flags.replace(/[gy]/g, '');
  return new RegExp(regex.source, flags.includes('d') ? flags : `${flags}d`);
}

/** One value of a template from its placed bound, or undefined when the bound holds nothing it can read. */
export function readValue(
  value: TemplateValue,
  placed: PlacedBound,
  doc: PageDocument,
): ExtractedValue | undefined {
  const page = doc.pages[placed.page - 1];
  if (!page) return undefined;
  let span = textInBox(page, placed.box);
  if (span.text === '') return undefined;
  if (value.regex) {
    const regex = valueRegex(value.regex);
    const match = regex?.exec(span.text) ?? regex?.exec(span.text.replace(/\n/g, ' '));
    if (!match) return undefined;
    const at = match.indices?.[1] ?? match.indices?.[0];
    if (!at) return undefined;
    span = subSpan(span, at[0], at[1]);
  }
  const parsed = parseTyped(value.type, value.key, span.text, value.format);
  if (!parsed) return undefined;
  const part = parsed.end - parsed.start < span.text.length ? subSpan(span, parsed.start, parsed.end) : span;
  return {
    value: parsed.value,
    text: part.text || span.text,
    page: placed.page,
    bbox: part.box ?? span.box ?? placed.box,
    confidence: part.words.length > 0 ? part.confidence : span.confidence,
  };
}

type Cell = { text: string; words: PageWord[] };

function cellsOfRow(words: readonly PageWord[], rate: TemplateRate, dx: number): Map<RateColumn, Cell> {
  const cells = new Map<RateColumn, Cell>();
  for (const column of rate.columns) {
    const inside = words.filter((w) => {
      const x = centre(w.box).x;
      return x >= column.left + dx && x <= column.right + dx;
    });
    if (inside.length > 0)
      cells.set(column.field, { text: inside.map((w) => w.text).join(' '), words: inside });
  }
  return cells;
}

/** The charge lines of a rate table: one per row of its bound that is not skipped and holds a figure. */
export function readRates(rate: TemplateRate, placed: PlacedBound, doc: PageDocument): ExtractedRate[] {
  const page = doc.pages[placed.page - 1];
  if (!page) return [];
  const skip = rate.skipRegex ? ruleRegex(rate.skipRegex) : undefined;
  const formatOf = (field: RateColumn) => rate.columns.find((c) => c.field === field)?.format;
  const lines: ExtractedRate[] = [];
  rowsInBox(page, placed.box).forEach((row, i) => {
    if (skip?.test(row.text)) return;
    const id = `${rate._id}:${placed.page}:${i}`;
    const where = { page: placed.page, ...(row.box ? { bbox: row.box } : {}) };
    if (rate.columns.length === 0) {
      const line = parseChargeText(row.text);
      if (line) lines.push({ _id: id, kind: classifyCharge(line.description, line.unit), ...line, ...where });
      return;
    }
    const cells = cellsOfRow(row.words, rate, placed.dx);
    const text = (field: RateColumn) => cells.get(field)?.text;
    const inColumns = new Set([...cells.values()].flatMap((c) => c.words));
    const description = (
      text('description') ??
      row.words
        .filter((w) => !inColumns.has(w))
        .map((w) => w.text)
        .join(' ')
    )
      .replace(/\s+/g, ' ')
      .trim();
    const unitsText = text('units');
    const units = unitsText
      ? findNumbers(unitsText, numberSeparators(formatOf('units')))[0]?.value
      : undefined;
    const rateText = text('unitRate');
    const rateToken = rateText
      ? pickPrice(findPrices(rateText, formatOf('unitRate'), { penceToPounds: true }))
      : undefined;
    const amountText = text('amount');
    const amount = amountText ? (parsePrice(amountText, formatOf('amount')) ?? undefined) : undefined;
    if (units === undefined && rateToken === undefined && amount === undefined) return;
    const unitText = text('unit');
    const unit =
      (unitText ? (normaliseUnit(unitText) ?? unitText.trim()) : undefined) ??
      normaliseUnit(unitsText ?? '') ??
      normaliseUnit(/\/\s*(\w+)/.exec(rateText ?? '')?.[1] ?? '');
    const startDates = findDates(text('startDate') ?? '');
    const endDates = findDates(text('endDate') ?? '', formatOf('endDate'), { monthEnd: true });
    const startDate = startDates[0]?.iso;
    const endDate = endDates[0]?.iso ?? startDates[1]?.iso;
    const line = reconcilePence(
      {
        _id: id,
        description,
        kind: classifyCharge(description, unit),
        ...(units !== undefined ? { units } : {}),
        ...(unit ? { unit } : {}),
        ...(rateToken ? { unitRate: rateToken.value } : {}),
        ...(amount !== undefined ? { amount } : {}),
        ...(startDate ? { startDate } : {}),
        ...(endDate ? { endDate } : {}),
        ...where,
      },
      `${rateText ?? ''} ${row.text}`,
      Boolean(rateToken?.pence),
    );
    lines.push(line);
  });
  return lines;
}

export interface MeterRead {
  meterIndex: number;
  utilityType: UtilityType;
  values: ExtractedValues;
  rates: ExtractedRate[];
  readings: ExtractedReading[];
}

/** What a template read from one invoice: its own values and lines, and those of each meter. */
export interface TemplateRead {
  values: ExtractedValues;
  rates: ExtractedRate[];
  meters: MeterRead[];
  placed: PlacedBound[];
}

/**
 * Reads one invoice (its document pages) with a template version. Values and lines with a meter index
 * belong to that meter; the first value read for a key wins.
 */
export function readInvoice(
  template: Template,
  versionId: string | undefined,
  doc: PageDocument,
  pages: readonly number[],
): TemplateRead {
  const ofVersion = <T extends { versionId: string }>(items: readonly T[]) =>
    versionId === undefined ? [...items] : items.filter((i) => i.versionId === versionId);
  const bounds = new Map(template.bounds.map((b) => [b._id, b]));
  const placements = new Map<string, PlacedBound | undefined>();
  const place = (boundId: string) => {
    if (!placements.has(boundId)) {
      const bound = bounds.get(boundId);
      placements.set(boundId, bound ? placeBound(bound, doc, pages) : undefined);
    }
    return placements.get(boundId);
  };
  const values: ExtractedValues = {};
  const rates: ExtractedRate[] = [];
  const meters = new Map<number, MeterRead>();
  const meter = (index: number, utilityType: UtilityType | undefined) => {
    let found = meters.get(index);
    if (!found) {
      found = {
        meterIndex: index,
        utilityType: utilityType ?? template.type,
        values: {},
        rates: [],
        readings: [],
      };
      meters.set(index, found);
    }
    return found;
  };
  for (const value of ofVersion(template.values)) {
    const placed = place(value.boundId);
    const read = placed ? readValue(value, placed, doc) : undefined;
    if (!read) continue;
    const target =
      value.meterIndex === undefined ? values : meter(value.meterIndex, value.utilityType).values;
    target[value.key] ??= read;
  }
  for (const rate of ofVersion(template.rates)) {
    const placed = place(rate.boundId);
    if (!placed) continue;
    const lines = readRates(rate, placed, doc);
    if (rate.meterIndex === undefined) rates.push(...lines);
    else meter(rate.meterIndex, rate.utilityType).rates.push(...lines);
  }
  for (const m of meters.values()) {
    const reading = readingFromValues(m.values);
    if (reading) m.readings.push(reading);
  }
  return {
    values,
    rates,
    meters: [...meters.values()].sort((a, b) => a.meterIndex - b.meterIndex),
    placed: [...placements.values()].filter((p): p is PlacedBound => p !== undefined),
  };
}

export { toPounds };
