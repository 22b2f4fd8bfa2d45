import type { CaptureResults, SupplierClues, SupplierMatch } from './model.ts';
import { normaliseVatNumber, registeredDomain } from './supplier-keys.ts';

/**
 * The supplier a bill is from, found on the suppliers list by the strongest evidence it prints: its VAT
 * number, then the domain of its web address, then of its e-mail addresses (the supplier's website or
 * customer portal), then its name: the same name, the same name once case, accents, punctuation and
 * legal form are set aside ('ENBRIDGE GAS DISTRIBUTION INC.' is 'Enbridge Gas Distribution'), or a
 * name close enough to be the same one misread or shortened.
 */

export interface ListedSupplier {
  _id: string;
  name: string;
  vatNumber?: string;
  website?: string;
  portal?: string;
}

const NO_CLUES: SupplierClues = { vatNumbers: [], webDomains: [], mailDomains: [] };

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

/** The domains a listed supplier answers to: its website's and its customer portal's. */
const domainsOf = (s: ListedSupplier) =>
  [s.website, s.portal].map((u) => (u ? registeredDomain(u) : undefined)).filter((d) => d !== undefined);

/**
 * The supplier on the list the bill is from, by what it prints: VAT number, web domain, e-mail domain,
 * then name; 'none' offers to create one. Several suppliers sharing a domain are told apart by the
 * name, or that domain is no answer.
 */
export function matchSupplier(
  read: string,
  suppliers: readonly ListedSupplier[],
  clues: SupplierClues = NO_CLUES,
): SupplierMatch {
  const text = read.trim();
  for (const vat of clues.vatNumbers) {
    const found = suppliers.filter((s) => s.vatNumber && normaliseVatNumber(s.vatNumber) === vat);
    const one = found.length === 1 ? found[0] : text !== '' ? pickByName(text, found) : undefined;
    if (one) return { read: text, how: 'vatNumber', evidence: vat, supplierId: one._id, name: one.name };
  }
  const byDomain = [
    ...clues.webDomains.map((d) => ['website', d] as const),
    ...clues.mailDomains.map((d) => ['email', d] as const),
  ];
  for (const [how, domain] of byDomain) {
    const found = suppliers.filter((s) => domainsOf(s).includes(domain));
    const one = found.length === 1 ? found[0] : text !== '' ? pickByName(text, found) : undefined;
    if (one) return { read: text, how, evidence: domain, supplierId: one._id, name: one.name };
  }
  const byName = text === '' ? { read: text, how: 'none' as const } : matchName(text, suppliers);
  if (byName.how !== 'none') return byName;
  const vatNumber = clues.vatNumbers[0];
  const website = clues.webDomains[0] ?? clues.mailDomains[0];
  return { ...byName, ...(vatNumber ? { vatNumber } : {}), ...(website ? { website } : {}) };
}

/** The one of several suppliers sharing a VAT number or domain that the name read is. */
function pickByName(text: string, among: readonly ListedSupplier[]): ListedSupplier | undefined {
  if (among.length < 2) return undefined;
  const match = matchName(text, among);
  return among.find((s) => s._id === match.supplierId);
}

/** The supplier on the list the name read is, and how sure the match is. */
function matchName(text: string, suppliers: readonly ListedSupplier[]): SupplierMatch {
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
 * Each invoice read without a template, given the supplier its VAT number, web or e-mail domain or name
 * matches. A template's invoice already knows its supplier; an invoice with none of these read has
 * nothing to match.
 */
export function matchInvoiceSuppliers(results: CaptureResults, suppliers: readonly ListedSupplier[]): void {
  for (const invoice of results.multiInvoice.invoices) {
    const value = invoice.values.supplierName?.value;
    const read = typeof value === 'string' ? value : '';
    const clues = invoice.supplierClues ?? NO_CLUES;
    const anyClue = clues.vatNumbers.length + clues.webDomains.length + clues.mailDomains.length > 0;
    if (invoice.supplierId || (read.trim() === '' && !anyClue)) continue;
    const match = matchSupplier(read, suppliers, clues);
    invoice.supplierMatch = match;
    if (match.supplierId) invoice.supplierId = match.supplierId;
  }
}
