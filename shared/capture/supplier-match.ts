import type { CaptureResults, SupplierMatch } from './model.ts';

/**
 * The supplier a bill names, found on the suppliers list: the same name, the same name once case,
 * accents, punctuation and legal form are set aside ('ENBRIDGE GAS DISTRIBUTION INC.' is 'Enbridge Gas
 * Distribution'), or a name close enough to be the same one misread or shortened.
 */

export interface ListedSupplier {
  _id: string;
  name: string;
}

/** Legal forms and words that say nothing of who the supplier is. */
const NOISE = new Set([
  'the',
  'inc',
  'incorporated',
  'ltd',
  'limited',
  'llc',
  'plc',
  'llp',
  'gmbh',
  'ag',
  'bv',
  'nv',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'co',
  'corp',
  'corporation',
  'company',
  'group',
  'pvt',
  'private',
  'uk',
]);

/** The words of a name that identify it, lower case, without accents, punctuation or legal form. */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/\b([a-z])\.(?=[a-z]\b)/g, '$1')
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((w) => w !== '' && !NOISE.has(w));
}

/** Edit distance of two short strings. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? Math.max(a.length, b.length);
}

/** How alike two names are, 0 to 1: the closeness of their letters, or all of one's words in the other. */
function similarity(a: string[], b: string[]): number {
  const x = a.join(' ');
  const y = b.join(' ');
  if (x === '' || y === '') return 0;
  const letters = 1 - distance(x, y) / Math.max(x.length, y.length);
  // 'Enbridge' for 'Enbridge Gas Distribution': the shorter name's words all lead the longer one's.
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const leads = short.every((w, i) => long[i] === w) && short.join('').length >= 4 ? 0.9 : 0;
  return Math.max(letters, leads);
}

/** Below this a name is another supplier's, not this one's misread. */
export const FUZZY_THRESHOLD = 0.85;

/** The supplier on the list the name read is, and how sure the match is; 'none' offers to create one. */
export function matchSupplier(read: string, suppliers: readonly ListedSupplier[]): SupplierMatch {
  const text = read.trim();
  const exact = suppliers.find((s) => s.name.trim().toLowerCase() === text.toLowerCase());
  if (exact) return { read: text, how: 'exact', supplierId: exact._id, name: exact.name };
  const words = nameWords(text);
  const key = words.join(' ');
  const normalised = key !== '' && suppliers.find((s) => nameWords(s.name).join(' ') === key);
  if (normalised) return { read: text, how: 'normalised', supplierId: normalised._id, name: normalised.name };
  let best: { supplier: ListedSupplier; score: number; tie: boolean } | undefined;
  for (const supplier of suppliers) {
    const score = similarity(words, nameWords(supplier.name));
    if (!best || score > best.score) best = { supplier, score, tie: false };
    else if (score === best.score) best.tie = true;
  }
  // Two suppliers alike enough are no answer: a person chooses.
  if (best && best.score >= FUZZY_THRESHOLD && !best.tie)
    return {
      read: text,
      how: 'fuzzy',
      supplierId: best.supplier._id,
      name: best.supplier.name,
      score: Math.round(best.score * 100) / 100,
    };
  return { read: text, how: 'none' };
}

/**
 * Each invoice read without a template, given the supplier its name matches. A template's invoice
 * already knows its supplier; an invoice with no name read has nothing to match.
 */
export function matchInvoiceSuppliers(results: CaptureResults, suppliers: readonly ListedSupplier[]): void {
  for (const invoice of results.multiInvoice.invoices) {
    const read = invoice.values.supplierName?.value;
    if (invoice.supplierId || typeof read !== 'string' || read.trim() === '') continue;
    const match = matchSupplier(read, suppliers);
    invoice.supplierMatch = match;
    if (match.supplierId) invoice.supplierId = match.supplierId;
  }
}
