import { buyerLines } from './generic-supplier.ts';
import type { SupplierClues } from './model.ts';
import type { PageDocument } from './pages.ts';
import { normaliseVatNumber, registeredDomain } from './supplier-keys.ts';
import type { ExpenseAnalysis } from './textract.ts';

/**
 * What on a bill says who sent it better than a name can: the supplier's VAT number, its web address
 * and the domain of its e-mail addresses, each written one way (see supplier-keys.ts).
 */

/** A VAT number's label, in the languages bills come in; the buyer's own ('your VAT number') is not one. */
const VAT_LABEL =
  /\b(?:VAT|TVA|BTW|IVA|MwSt|USt|UID)\b[\s.-]*(?:reg(?:istration|\.)?\s*)?(?:(?:id(?:ent(?:ification)?)?|no|nr|n[°º]|number|num[ée]ro|nummer|intracom\w*)\.?\s*)*(?:-?IdNr\.?\s*)?[:#]?|\bUSt-?Id(?:Nr)?\.?\s*:?|\bN[°º]\s*(?:de\s*)?TVA\b(?:\s*intracom\w*)?\s*:?|\bTax\s*(?:reg(?:istration)?\s*)?(?:no|number|id)\.?\s*:?/gi;
const BUYER_VAT = /\b(?:your|customer|client|buyer|kunden|acheteur)\b[^:]{0,20}$/i;
/** A prefixed EU or UK VAT number anywhere in a line: 'DE136695976', 'GB 123 4567 89'. */
const PREFIXED_VAT =
  /\b(?:GB|XI|AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK)\s?[A-Z\d][\dA-Z .-]{5,16}[\dA-Z]\b/g;

/** The longest start of a run, ending at a space or its end, that is a VAT number: words may follow it. */
function leadingVat(run: string): string | undefined {
  const ends = [run.length, ...[...run.matchAll(/\s/g)].map((m) => m.index).reverse()];
  for (const end of ends) {
    const vat = normaliseVatNumber(run.slice(0, end));
    if (vat) return vat;
  }
  return undefined;
}

/** A bank account's number is no VAT number, though a German IBAN starts like one. */
const BANK = /\b(?:IBAN|BIC|SWIFT|sort\s*code|BLZ|Konto)\b/i;

/** The VAT numbers a line prints by a label, or with their country prefix. */
function vatNumbersIn(text: string): string[] {
  if (BANK.test(text)) return [];
  const out: (string | undefined)[] = [];
  // Past the customer's own VAT label, nothing on the line is the supplier's.
  let buyerFrom = text.length;
  for (const label of text.matchAll(VAT_LABEL)) {
    if (BUYER_VAT.test(text.slice(0, label.index))) {
      buyerFrom = Math.min(buyerFrom, label.index);
      continue;
    }
    const rest = text.slice(label.index + label[0].length);
    // The number is the run of digits, letters and spacing right after the label.
    out.push(leadingVat(/^\s*((?:[A-Z]{2}\s?)?[A-Z\d][\dA-Z .-]{5,18}[\dA-Z])/i.exec(rest)?.[1] ?? ''));
  }
  for (const m of text.matchAll(PREFIXED_VAT)) {
    if (m.index < buyerFrom && !BUYER_VAT.test(text.slice(0, m.index))) out.push(leadingVat(m[0]));
  }
  return out.filter((v): v is string => v !== undefined);
}

const WEB =
  /\b(?:https?:\/\/)?(?:www\.)[a-z0-9-]+(?:\.[a-z0-9-]+)+|\bhttps?:\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;
const MAIL = /\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi;

const unique = (list: readonly (string | undefined)[]) => [
  ...new Set(list.filter((s): s is string => s !== undefined)),
];

/**
 * The supplier's VAT numbers, web domains and mail domains on the invoice's pages, the ones
 * AnalyzeExpense gives the vendor (VENDOR_VAT_NUMBER, VENDOR_URL) first; nothing from the customer's
 * block.
 */
export function findSupplierClues(
  doc: PageDocument,
  pages: readonly number[],
  expense?: ExpenseAnalysis,
): SupplierClues {
  const vat: (string | undefined)[] = [];
  const web: (string | undefined)[] = [];
  const mail: (string | undefined)[] = [];
  for (const document of expense?.ExpenseDocuments ?? []) {
    for (const field of document.SummaryFields ?? []) {
      const text = field.ValueDetection?.Text ?? '';
      if (field.PageNumber !== undefined && !pages.includes(field.PageNumber)) continue;
      const type = field.Type?.Text;
      if (type === 'VENDOR_VAT_NUMBER') vat.push(normaliseVatNumber(text) ?? vatNumbersIn(text)[0]);
      if (type === 'VENDOR_URL') web.push(text.includes('@') ? undefined : registeredDomain(text));
    }
  }
  for (const n of pages) {
    const page = doc.pages[n - 1];
    if (!page) continue;
    const buyer = buyerLines(page);
    for (const line of page.lines) {
      if (buyer.has(line)) continue;
      vat.push(...vatNumbersIn(line.text));
      for (const m of line.text.matchAll(MAIL)) mail.push(registeredDomain(m[0]));
      for (const m of line.text.replace(MAIL, ' ').matchAll(WEB)) web.push(registeredDomain(m[0]));
    }
  }
  return { vatNumbers: unique(vat), webDomains: unique(web), mailDomains: unique(mail) };
}
