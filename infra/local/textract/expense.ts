import type {
  ExpenseDetection,
  ExpenseDocument,
  ExpenseField,
  LineItemFields,
  LineItemGroup,
} from '../../../shared/capture/textract.ts';
import { confidenceOf, geometry, type PageLayout, pageBlocks } from './blocks.ts';
import { type PartyField, partyFields, recipientWindow, vendorByLook } from './expense-parties.ts';
import { findPairs, valueNear } from './forms.ts';
import { type TextLine, type TextWord, unionBox } from './page-text.ts';
import { isNumeric, type Table } from './tables.ts';

type ValueKind = 'amount' | 'date' | 'id' | 'text' | 'address' | 'phone' | 'tax-id';

/**
 * The summary fields AnalyzeExpense names, found from the labels invoices print beside or above the
 * values (after lower-casing and turning "no."/"nr"/"#" into "number"). A label only counts when its
 * value looks like what the label promises: an amount, a date, a reference with a digit in it.
 */
const SUMMARY: { type: string; label: RegExp; kind: ValueKind }[] = [
  {
    type: 'INVOICE_RECEIPT_ID',
    label:
      /^(?:(?:tax |vat )?invoice|bill|receipt|credit note|statement)(?: (?:number|id|reference|ref))?$|^(?:document|reference|ref)(?: number)?$/,
    kind: 'id',
  },
  {
    type: 'DUE_DATE',
    label:
      /^(?:(?:payment )?due(?: date| by| on)?|date due|pay(?:ment)? by|payment date|(?:date (?:d['’] ?)?)?[ée]ch[ée]ance)$/,
    kind: 'date',
  },
  {
    type: 'INVOICE_RECEIPT_DATE',
    label:
      /^(?:(?:invoice|bill|receipt|issue|document|statement) )?date(?: of (?:issue|invoice))?$|^(?:date issued|issued(?: on)?|tax point(?: date)?)$/,
    kind: 'date',
  },
  {
    type: 'ACCOUNT_NUMBER',
    label:
      /^(?:customer |your |billing )?(?:account|acct|a\/c)(?: number| reference| ref| id)?$|^customer (?:number|reference|ref|id)$/,
    kind: 'id',
  },
  {
    type: 'AMOUNT_DUE',
    label:
      /^(?:total )?(?:amount|balance) (?:now )?(?:due|payable|to pay|outstanding)$|^total (?:due|payable|to pay)$|^(?:balance|amount owed|please pay)$/,
    kind: 'amount',
  },
  {
    type: 'SUBTOTAL',
    label:
      /^(?:sub ?-?total|net(?: total| amount)?|total net|total (?:\(?ex(?:cl?(?:uding)?)?\.? (?:vat|tax)\)?|before (?:vat|tax)))$/,
    kind: 'amount',
  },
  {
    type: 'TAX',
    label:
      /^(?:total )?(?:vat|tax|gst|sales tax)(?: amount| total| charged)?(?: (?:@|at) ?\d+(?:\.\d+)?%| \(?\d+(?:\.\d+)?%\)?)?$/,
    kind: 'amount',
  },
  {
    type: 'TOTAL',
    label:
      /^(?:invoice |grand |bill )?total(?: amount| charges| cost| this (?:invoice|bill|period))?(?: \(?inc(?:l?(?:uding)?)?\.? (?:vat|tax)\)?)?$/,
    kind: 'amount',
  },
  {
    type: 'RECEIVER_ADDRESS',
    label: /^(?:bill(?:ed)? to|billing address|invoice (?:to|address)|invoiced to|sold to|customer address)$/,
    kind: 'address',
  },
  { type: 'VENDOR_NAME', label: /^(?:supplier|vendor|seller|sold by|supplied by|from)$/, kind: 'text' },
  {
    type: 'VENDOR_PHONE',
    label: /^(?:tel(?:ephone)?|phone|call us(?: on)?)(?: number)?\.?$/,
    kind: 'phone',
  },
  {
    type: 'VENDOR_VAT_NUMBER',
    label: /^(?:vat|gst)(?: reg(?:istration)?\.?)?(?: number| id)?$|^(?:vat|tax) id$|^ust-?id(?:-?number)?$/,
    kind: 'tax-id',
  },
];

/**
 * "From:" names the sender of a letter or an e-mail; "From" without its colon is a column heading (a
 * period's "From" over "To"), which the service reads as a table, not as the vendor.
 */
function namesSender(spec: { type: string }, label: readonly TextWord[]): boolean {
  if (spec.type !== 'VENDOR_NAME') return true;
  const text = textOf(label).trim();
  return !/^from$/i.test(text);
}

const normaliseLabel = (text: string) =>
  text
    .toLowerCase()
    .replace(/[#№]/g, ' number ')
    .replace(/\b(?:no|nr|num)\b\.?/g, 'number')
    .replace(/[:*]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\.$/, '');

const AMOUNT = /^(?:[A-Z]{3} ?)?[(-]?[£$€]? ?-?\d[\d,]*(?:\.\d{1,2})?\)?(?: ?(?:[A-Z]{3}|CR|DR))?$/i;
const DATE =
  /\b(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th)? [a-z]{3,9}\.?,? \d{2,4}|[a-z]{3,9}\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4})\b/i;

function fits(kind: ValueKind, text: string, words: number): boolean {
  if (!text || text.includes(':')) return kind === 'address' && text.length > 0;
  switch (kind) {
    case 'amount':
      return AMOUNT.test(text);
    case 'date':
      return DATE.test(text) && words <= 5;
    case 'id':
      return /\d/.test(text) && words <= 3 && text.length <= 40;
    case 'text':
      return /\p{L}/u.test(text) && words <= 8;
    case 'address':
      return /\p{L}/u.test(text);
    case 'phone':
      return /^\+?[\d ()./-]+$/.test(text) && (text.match(/\d/g) ?? []).length >= 6 && words <= 6;
    case 'tax-id':
      return /\d{3}/.test(text) && !/[.,]\d{2}$/.test(text) && words <= 5 && text.length <= 25;
  }
}

const CURRENCIES: [RegExp, string][] = [
  [/£|\bGBP\b/, 'GBP'],
  [/€|\bEUR\b/, 'EUR'],
  [/\$|\bUSD\b/, 'USD'],
];
const currencyOf = (text: string) => CURRENCIES.find(([re]) => re.test(text))?.[1];

const textOf = (words: readonly TextWord[]) => words.map((w) => w.text).join(' ');

function detection(words: readonly TextWord[], text = textOf(words)): ExpenseDetection {
  return {
    Text: text,
    Geometry: geometry(unionBox(words.map((w) => w.box))),
    Confidence: confidenceOf(words),
  };
}

interface Found {
  type: string;
  kind: ValueKind;
  label?: TextWord[];
  value: TextWord[];
  /** Address lines are kept apart, as Textract joins them with line breaks. */
  valueText?: string;
  lines?: TextLine[];
  confidence: number;
}

/** One expense document per page, as AnalyzeExpense gives for a document it reads page by page. */
export function expenseDocuments(layouts: readonly PageLayout[]): ExpenseDocument[] {
  return layouts.map((layout) => ({
    ExpenseIndex: layout.number,
    SummaryFields: summaryFields(layout),
    LineItemGroups: lineItemGroups(layout),
    Blocks: pageBlocks(layout, { tables: false, forms: false }),
  }));
}

/**
 * The rest of a label printed over two lines ('Date' over 'échéance'): a short line without digits
 * just under the label and starting under it. Read together they may name another field than the
 * first word alone, as 'Date échéance' names the due date.
 */
function labelGoesOn(line: TextLine, layout: PageLayout): TextLine | undefined {
  const box = unionBox(line.words.map((w) => w.box));
  return layout.rows
    .flatMap((r) => r.lines)
    .find((l) => {
      if (l === line || l.words.length > 2 || /\d/.test(textOf(l.words))) return false;
      const b = unionBox(l.words.map((w) => w.box));
      const gap = b.Top - (box.Top + box.Height);
      return (
        gap > -box.Height * 0.6 &&
        gap < box.Height * 0.8 &&
        b.Top > box.Top &&
        Math.abs(b.Left - box.Left) < box.Height * 2
      );
    });
}

function summaryFields(layout: PageLayout): ExpenseField[] {
  const found: Found[] = [];
  const usedValues = new Set<TextWord>();
  const labelled = new Set<TextLine>();
  const add = (f: Found) => {
    if (f.value.some((w) => usedValues.has(w))) return;
    for (const w of f.value) usedValues.add(w);
    found.push(f);
  };
  for (const row of layout.rows) {
    for (const line of row.lines) {
      const words = line.words;
      // "Label value" on one line: the longest leading run of words that is a known label.
      for (let k = Math.min(6, words.length - 1); k >= 1; k--) {
        const label = normaliseLabel(textOf(words.slice(0, k)));
        const value = words.slice(k);
        const match = SUMMARY.find(
          (s) =>
            s.label.test(label) &&
            fits(s.kind, textOf(value), value.length) &&
            namesSender(s, words.slice(0, k)),
        );
        if (match) {
          labelled.add(line);
          add({ type: match.type, kind: match.kind, label: words.slice(0, k), value, confidence: 95 });
          break;
        }
      }
      if (labelled.has(line)) continue;
      // A label alone on its line, with the value to its right or underneath.
      const label = normaliseLabel(textOf(words));
      const continued = labelGoesOn(line, layout);
      const whole = continued ? normaliseLabel(`${textOf(words)} ${textOf(continued.words)}`) : undefined;
      const longer = whole === undefined ? undefined : SUMMARY.find((s) => s.label.test(whole));
      if (continued && longer) labelled.add(continued);
      const match = longer ?? SUMMARY.find((s) => s.label.test(label) && namesSender(s, words));
      if (!match) continue;
      const lines = valueNear(
        continued && longer ? continued : line,
        layout.rows,
        labelled,
        (l) => match.kind === 'address' || fits(match.kind, textOf(l.words), l.words.length),
        match.kind === 'address' ? 5 : 1,
      );
      if (lines.length === 0) continue;
      labelled.add(line);
      add({
        type: match.type,
        kind: match.kind,
        label: words,
        value: lines.flatMap((l) => l.words),
        valueText: lines.map((l) => textOf(l.words)).join('\n'),
        lines,
        confidence: 90,
      });
    }
  }
  // Textract names the amount to pay as the total too when the invoice prints no separate total.
  const due = found.find((f) => f.type === 'AMOUNT_DUE');
  if (due && !found.some((f) => f.type === 'TOTAL')) found.push({ ...due, type: 'TOTAL', confidence: 80 });
  const labelledVendor = found.find((f) => f.type === 'VENDOR_NAME');
  const labelledReceiver = found.find((f) => f.type === 'RECEIVER_ADDRESS');
  const window = layout.number === 1 ? recipientWindow(layout) : [];
  const receiver =
    labelledReceiver?.lines && labelledReceiver.label
      ? { lines: labelledReceiver.lines, label: labelledReceiver.label }
      : window.length > 0
        ? { lines: window }
        : undefined;
  const vendorLine = labelledVendor
    ? undefined
    : layout.number === 1
      ? vendorByLook(layout, window)
      : undefined;
  const taken = new Set<TextLine>([...labelled, ...(receiver?.lines ?? [])]);
  // The vendor read by its label is answered among the flat fields as before; the party fields add
  // its group. One read from the letterhead has no label, and the type's confidence is 70, as in the
  // service's documented example.
  const parties = partyFields(layout, {
    ...(labelledVendor
      ? {
          vendor: {
            line: { words: labelledVendor.value },
            ...(labelledVendor.label ? { label: labelledVendor.label } : {}),
            confidence: 95,
          },
        }
      : vendorLine
        ? { vendor: { line: vendorLine, confidence: 70 } }
        : {}),
    ...(receiver ? { receiver } : {}),
    taken,
  });
  for (const p of parties) for (const w of p.value) usedValues.add(w);
  const withoutVendor = found.filter((f) => f !== labelledVendor);
  found.length = 0;
  found.push(...withoutVendor);
  // Other labelled values are passed on as OTHER, as Textract does.
  const inTables = new Set<TextLine>(layout.tables.flatMap((t) => [...t.lines]));
  for (const pair of findPairs(layout.rows, inTables)) {
    if (pair.value.length === 0 || pair.value.some((w) => usedValues.has(w))) continue;
    found.push({ type: 'OTHER', kind: 'text', label: pair.key, value: pair.value, confidence: 80 });
  }
  // The parties' grouped fields come first, as the service lists them.
  const partyAnswers = parties.map((p: PartyField) => ({
    Type: { Text: p.type, Confidence: p.typeConfidence },
    ...(p.label ? { LabelDetection: detection(p.label) } : {}),
    ValueDetection: detection(p.value, p.valueText),
    PageNumber: layout.number,
    ...(p.group ? { GroupProperties: [{ Types: [p.group.type], Id: p.group.id }] } : {}),
  }));
  const grouped = partyAnswers.filter((a) => a.GroupProperties);
  const flatParties = partyAnswers.filter((a) => !a.GroupProperties);
  const answers: ExpenseField[] = found.map((f) => {
    const currency = f.kind === 'amount' ? currencyOf(textOf(f.value)) : undefined;
    return {
      Type: { Text: f.type, Confidence: f.confidence },
      ...(f.label ? { LabelDetection: detection(f.label) } : {}),
      ValueDetection: detection(f.value, f.valueText),
      PageNumber: layout.number,
      ...(currency ? { Currency: { Code: currency } } : {}),
    };
  });
  const other = answers.findIndex((a) => a.Type?.Text === 'OTHER');
  const at = other < 0 ? answers.length : other;
  return [...grouped, ...answers.slice(0, at), ...flatParties, ...answers.slice(at)];
}

/** Column headings and the line item field each names; the first that matches takes the column. */
const COLUMNS: { type: string; header: RegExp }[] = [
  { type: 'UNIT_PRICE', header: /\bunit (?:price|cost|rate)\b|^rate\b|\bprice per\b|^p\/kwh$|\bper unit\b/i },
  { type: 'QUANTITY', header: /^(?:qty|quantity|units|usage|consumption|volume|hours|kwh)\b/i },
  { type: 'ITEM', header: /\b(?:description|item|details|product|service|particulars)\b|^charges?$/i },
  { type: 'PRICE', header: /\b(?:amount|total|price|net|value|cost|charge|sum)\b/i },
];
const SUMMARY_ROW = /^(?:sub ?total|total|vat|tax|balance|amount due)\b/i;

function lineItemGroups(layout: PageLayout): LineItemGroup[] {
  const groups: LineItemGroup[] = [];
  for (const table of layout.tables) {
    const types = columnTypes(table);
    if (!types.includes('PRICE')) continue;
    const header = table.hasHeader ? table.cells.filter((c) => c.row === 1) : [];
    const items: LineItemFields[] = [];
    for (let r = table.hasHeader ? 2 : 1; r <= table.rowCount; r++) {
      const cells = table.cells.filter((c) => c.row === r);
      const itemCell = cells[types.indexOf('ITEM')];
      if (itemCell && SUMMARY_ROW.test(textOf(itemCell.words))) continue;
      const fields: ExpenseField[] = [];
      cells.forEach((cell, k) => {
        if (cell.words.length === 0) return;
        const label = header[k];
        fields.push({
          Type: { Text: types[k] ?? 'OTHER', Confidence: table.hasHeader ? 90 : 70 },
          ...(label && label.words.length > 0 ? { LabelDetection: detection(label.words) } : {}),
          ValueDetection: detection(cell.words),
          PageNumber: layout.number,
        });
      });
      if (fields.length === 0) continue;
      const rowWords = cells.flatMap((c) => c.words);
      const band = cells[0]?.box;
      fields.push({
        Type: { Text: 'EXPENSE_ROW', Confidence: 90 },
        ValueDetection: {
          Text: textOf(rowWords),
          Geometry: geometry(band ? { ...band, Left: table.box.Left, Width: table.box.Width } : table.box),
          Confidence: confidenceOf(rowWords),
        },
        PageNumber: layout.number,
      });
      items.push({ LineItemExpenseFields: fields });
    }
    if (items.length > 0) groups.push({ LineItemGroupIndex: groups.length + 1, LineItems: items });
  }
  return groups;
}

/**
 * What each column holds: from its heading when the table has one; without, the first column of text
 * is the item and the last column of numbers the price, with quantity and unit price before it when
 * there are three number columns.
 */
function columnTypes(table: Table): string[] {
  const types: string[] = Array.from({ length: table.columnCount }, () => 'OTHER');
  if (table.hasHeader) {
    const header = table.cells.filter((c) => c.row === 1);
    for (const { type, header: re } of COLUMNS) {
      const k = header.findIndex((c, i) => types[i] === 'OTHER' && re.test(textOf(c.words)));
      if (k >= 0) types[k] = type;
    }
    return types;
  }
  const numeric = Array.from({ length: table.columnCount }, (_, k) => {
    const cells = table.cells.filter((c) => c.column === k + 1 && c.words.length > 0);
    return cells.length > 0 && cells.every((c) => isNumeric(textOf(c.words)));
  });
  const item = numeric.indexOf(false);
  if (item >= 0) types[item] = 'ITEM';
  const numbers = numeric.flatMap((n, k) => (n ? [k] : []));
  const last = numbers.at(-1);
  if (last !== undefined) types[last] = 'PRICE';
  if (numbers.length >= 3) {
    const [q, u] = numbers.slice(-3);
    if (q !== undefined) types[q] = 'QUANTITY';
    if (u !== undefined) types[u] = 'UNIT_PRICE';
  }
  return types;
}
