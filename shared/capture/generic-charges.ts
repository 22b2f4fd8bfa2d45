import { classifyCharge, normaliseUnit, parseChargeText, reconcilePence, toPounds } from './charges.ts';
import { findDates } from './date-text.ts';
import type { Region } from './generic-labels.ts';
import type { ExtractedRate, RateColumn } from './model.ts';
import { findNumbers, findPrices, pickPrice } from './number-text.ts';
import {
  centre,
  centreInside,
  type PageDocument,
  type PageTable,
  rowsBetween,
  type TextSpan,
  unionBox,
} from './pages.ts';
import type { BoundingBox } from './textract.ts';

/**
 * Charge lines of an invoice without a template: from Textract's tables when a header names the
 * columns, else from rows of words that read as a charge ('Day units 1,000 kWh 25.123p £251.23').
 */

const HEADERS: [RateColumn, RegExp][] = [
  ['unitRate', /\brate\b|\bprice\b|p\s*\/\s*kwh|\bpence\b|per\s*(?:kwh|unit|day)/i],
  ['units', /\bunits\b|\bquantity\b|\bqty\b|\bconsumption\b|\busage\b|\bkwh\b|\bdays\b|\bvolume\b/i],
  ['amount', /\bamount\b|\btotal\b|\bcost\b|£|\bvalue\b|\bnet\b/i],
  ['description', /\bdescription\b|\bdetails\b|\bcharges?\b|\bitem\b|\btariff\b|\bservice\b/i],
  ['startDate', /\bfrom\b|\bstart\b/i],
  ['endDate', /\bto\b|\bend\b/i],
];

/** Rows that total, tax or carry a balance are not charge lines. */
const NOT_A_CHARGE =
  /^\s*(?:sub\s*-?\s*)?total\b|\b(?:excl(?:uding)?\.?|before|ex)\s+vat\b|\bincl(?:uding)?\.?\s+vat\b|\bbalance\b|\bamount\s*(?:due|payable)|\bpayments?\b|\bbrought\s*forward|\bcarried\s*forward|\bplease\s*pay|\bdirect\s*debit|\bprevious\s*(?:bill|invoice)|\b(?:opening|closing|previous|present|current)\s*(?:meter\s*)?read|\bmpan\b|\bmprn\b|\binvoice\s*(?:number|no|date)|\baccount\s*(?:number|no)|^\s*vat\b|\bvat\s*@|\bvat\s*(?:at|on)\b/i;

const CHARGE_WORDS =
  /standing|\bunits?\b|kwh|\bday\b|night|peak|evening|weekend|levy|\bccl\b|energy|consumption|\bcharges?\b|capacity|availability|reactive|metering|sewerage|water|\bgas\b|electricity|supply|feed|\bfit\b|\bduos\b|\btnuos\b|\bbsuos\b|\brate\b/i;

function columnsOf(header: string[]): (RateColumn | undefined)[] {
  const taken = new Set<RateColumn>();
  return header.map((text) => {
    for (const [field, pattern] of HEADERS) {
      if (!taken.has(field) && pattern.test(text)) {
        taken.add(field);
        return field;
      }
    }
    return undefined;
  });
}

const FIGURES: readonly RateColumn[] = ['units', 'unitRate', 'amount'];

/** How many of units, rate and amount a line has, and whether they agree: the better reading wins. */
function completeness(line: Omit<ExtractedRate, '_id' | 'kind'>): number {
  const { units, unitRate, amount } = line;
  let score = [units, unitRate, amount].filter((v) => v !== undefined).length;
  if (units !== undefined && unitRate !== undefined && amount !== undefined) {
    if (Math.abs(units * unitRate - amount) <= Math.max(0.02, Math.abs(amount) * 0.01)) score += 2;
  }
  return score;
}

/**
 * Charge lines of a Textract table with a heading row. Each row is read by its columns and as text;
 * the reading with more figures that agree wins, so a table whose cells Textract split differently from
 * its heading is still read right.
 */
function tableLines(table: PageTable, idPrefix: string): ExtractedRate[] {
  const headerAt = table.rows.findIndex((row) => {
    if (row.some((c) => /\d/.test(c.span.text.replace(/\(.*?\)/g, '')))) return false;
    const fields = columnsOf(row.map((c) => c.span.text)).filter(Boolean);
    return fields.length >= 2 && (fields.includes('amount') || fields.includes('unitRate'));
  });
  if (headerAt < 0) return [];
  const header = table.rows[headerAt] ?? [];
  const fields = columnsOf(header.map((c) => c.span.text));
  const headerText = header.map((c) => c.span.text).join(' ');
  const penceHeader = /p\s*\/\s*(kwh|day|unit)|\bpence\b|\(p\)/i.test(
    header[fields.indexOf('unitRate')]?.span.text ?? '',
  );
  const lines: ExtractedRate[] = [];
  table.rows.slice(headerAt + 1).forEach((row, i) => {
    const cell = (field: RateColumn) => {
      const at = fields.indexOf(field);
      return at < 0 ? undefined : row.find((c) => c.columnIndex === (header[at]?.columnIndex ?? -1))?.span;
    };
    const rowText = row.map((c) => c.span.text).join(' ');
    if (NOT_A_CHARGE.test(rowText)) return;
    // A row with no figure under any of the figure headings continues the description above it
    // ('10 48 MB/s Memory Card', 'inclusive of a discount of Rs -40.00'): its numbers are words.
    if (!FIGURES.some((f) => /\d/.test(cell(f)?.text ?? '')) && FIGURES.some((f) => fields.includes(f)))
      return;
    const description = (cell('description') ?? row[0]?.span)?.text.replace(/\s+/g, ' ').trim() ?? '';
    const unitsSpan = cell('units');
    const units = unitsSpan ? findNumbers(unitsSpan.text)[0]?.value : undefined;
    const rateSpan = cell('unitRate');
    const rateToken = rateSpan
      ? pickPrice(findPrices(rateSpan.text, undefined, { penceToPounds: true }))
      : undefined;
    const amountSpan = cell('amount');
    const amount = amountSpan ? pickPrice(findPrices(amountSpan.text))?.value : undefined;
    const unit = normaliseUnit(`${unitsSpan?.text ?? ''} ${description}`) ?? normaliseUnit(headerText);
    const dates = findDates(`${cell('startDate')?.text ?? ''} ${cell('endDate')?.text ?? ''}`);
    let unitRate = rateToken?.value;
    if (unitRate !== undefined && penceHeader && !rateToken?.pence) unitRate = toPounds(unitRate);
    const byColumns = reconcilePence(
      {
        description,
        ...(units !== undefined ? { units } : {}),
        ...(unit ? { unit } : {}),
        ...(unitRate !== undefined ? { unitRate } : {}),
        ...(amount !== undefined ? { amount } : {}),
        ...(dates[0] ? { startDate: dates[0].iso } : {}),
        ...(dates[1] ? { endDate: dates[1].iso } : {}),
      },
      rowText,
      Boolean(rateToken?.pence) || penceHeader,
    );
    const byText = parseChargeText(rowText);
    const chosen =
      byText && completeness(byText) > completeness(byColumns) ? { ...byText, description } : byColumns;
    if (chosen.amount === undefined && chosen.unitRate === undefined) return;
    const boxes = row.map((c) => c.span.box).filter((b) => b !== undefined);
    lines.push({
      _id: `${idPrefix}:t${i}`,
      kind: classifyCharge(description, chosen.unit),
      ...chosen,
      page: table.page,
      ...(boxes[0] ? { bbox: unionBox(boxes) ?? boxes[0] } : {}),
    });
  });
  return lines;
}

/** A charge row ends in what it costs: an amount in pounds and pence. */
const ENDS_IN_AMOUNT = /(?:£\s*)?-?\(?\d[\d,]*\.\d{2}\)?\s*(?:CR|DR)?\s*$/i;

function rowLine(row: TextSpan, id: string): ExtractedRate | undefined {
  if (!CHARGE_WORDS.test(row.text) || NOT_A_CHARGE.test(row.text) || !ENDS_IN_AMOUNT.test(row.text)) {
    return undefined;
  }
  const line = parseChargeText(row.text);
  if (
    !line ||
    line.amount === undefined ||
    !/[A-Za-z]{2}/.test(row.text.slice(0, 1 + row.text.search(/\d/)))
  ) {
    return undefined;
  }
  const kind = classifyCharge(line.description, line.unit);
  // A row with one number is a charge only when its description says what it is.
  if (line.units === undefined && line.unitRate === undefined && kind !== 'standing' && kind !== 'ccl') {
    if (!/charge|levy|fee/i.test(line.description)) return undefined;
  }
  if (kind === 'vat') return undefined;
  return { _id: id, kind, ...line, page: row.page, ...(row.box ? { bbox: row.box } : {}) };
}

/** Whether a charge line lies within the regions (a meter's section). */
export function chargeWithin(regions: readonly Region[], line: ExtractedRate): boolean {
  if (!line.bbox || line.page === undefined) return false;
  const y = centre(line.bbox).y;
  return regions.some((r) => r.page === line.page && y >= r.top && y <= r.bottom);
}

/**
 * The charge lines on the given pages. A summary line that repeats a detailed one (same kind and
 * amount, without units or rate) is dropped.
 */
export function findCharges(doc: PageDocument, pages: readonly number[]): ExtractedRate[] {
  const lines: ExtractedRate[] = [];
  for (const n of pages) {
    const page = doc.pages[n - 1];
    if (!page) continue;
    const read: BoundingBox[] = [];
    page.tables.forEach((table, i) => {
      const fromTable = tableLines(table, `g:${n}:${i}`);
      if (fromTable.length === 0) return;
      lines.push(...fromTable);
      if (table.box) read.push(table.box);
    });
    // Rows outside the tables already read: charges printed as aligned text.
    rowsBetween(page).forEach((row, i) => {
      if (row.box && read.some((box) => centreInside(row.box as BoundingBox, box))) return;
      const line = rowLine(row, `g:${n}:r${i}`);
      if (line) lines.push(line);
    });
  }
  return lines.filter(
    (line) =>
      !(
        line.units === undefined &&
        line.unitRate === undefined &&
        lines.some(
          (o) =>
            o !== line &&
            o.kind === line.kind &&
            o.amount === line.amount &&
            (o.units !== undefined || o.unitRate !== undefined),
        )
      ),
  );
}
