import type { ExtractedValue } from './model.ts';
import { type DocPage, lineSpan, type PageDocument, type PageLine } from './pages.ts';

/**
 * Who sent a bill, and in what money, read without a template: the supplier from a label that names
 * it, a company name with its legal form in the letterhead, or the web address or e-mail domain it
 * prints; the currency from the codes and signs its amounts carry.
 */

const SUPPLIER_LABEL =
  /^(?:.*?\b)?(?:supplier|service\s*provider|energy\s*service\s*provider|sold\s*by|vendor|issued\s*by|supplied\s*by|fournisseur|[ée]mis\s*par|(?:seller|verk[äa]ufer|vendeur)\s*:)(?![a-z])\s*:?\s*/i;

/**
 * Lines that name someone other than the sender: a postage-paid imprint and its postal operator
 * ('P.P. 1211 Genève 2 / Poste CH SA'), and the copyright of a form or stylesheet ('(c) AWV e.V. 2020').
 */
const NOT_SENDER =
  /^\s*(?:P\.\s?P\.|port\s*pay[ée]|postage\s*paid|entgelt\s*bezahlt|\(c\)|©|copyright\b)|\b(?:poste\s*ch|la\s*poste|royal\s*mail|deutsche\s*post|canada\s*post)\b/i;

const LEGAL_FORMS = [
  'inc',
  'incorporated',
  'ltd',
  'limited',
  'llc',
  'l\\.l\\.c',
  'plc',
  'gmbh',
  'ag',
  'b\\.\\s?v',
  'bv',
  'n\\.\\s?v',
  'sas',
  's\\.a\\.s',
  'sarl',
  's\\.a',
  'sa',
  'pvt\\.?\\s*ltd',
  'co',
  'corp',
  'corporation',
  'llp',
];
/** Legal forms printed in mixed case, matched as printed: 'GmbH', 'mbH', 'KG', 'a.G.', 'e.K.', 'SE'. */
const MIXED_FORMS = [
  'GmbH',
  'mbH',
  'GMBH',
  'KG',
  'UG',
  'a\\.\\s?G',
  'e\\.\\s?K',
  'e\\.\\s?V',
  'SE',
  'SARL',
  'S\\.A\\.R\\.L',
  'Ltée',
  'N\\.V',
  'B\\.V',
];
/** Each legal form as printed in lower case, capitalised or in capitals ('Inc', 'INC'), not 'iNc'. */
const LEGAL_FORM = `(?:${[...MIXED_FORMS, ...LEGAL_FORMS.flatMap((f) => [f, f.replace(/^[a-z]/, (c) => c.toUpperCase()), f.toUpperCase().replace(/\\S/g, '\\s')])].join('|')})\\.?`;
/** Up to five capitalised words, then a legal form: 'Enbridge Gas Distribution Inc.', 'Free SAS'. */
const COMPANY = new RegExp(
  String.raw`((?:[A-Z0-9][\w&'’.-]*\s+){0,4}[A-Z][\w&'’.-]*)\s*,?\s+(${LEGAL_FORM})(?![\w])`,
  'g',
);

/**
 * A name that opens its line may hold words in lower case ('Au bon moulin SARL'); inside a line such
 * words are more often a sentence running into a company's name.
 */
const LINE_COMPANY = new RegExp(
  String.raw`^\s*([A-Z][\w&'’.-]*(?:\s+[\p{L}\d&'’.-]+){1,3}?)\s*,?\s+(${LEGAL_FORM})(?![\w])`,
  'u',
);

/** Words that start a customer's block or a sentence, not a company name. */
const NOT_A_NAME = /^(?:bill|ship|invoice|to|from|for|the|your|our|please|payable|page|customer|account)\b/i;

/**
 * Where a bill says whom to pay ('make payable to LADWP.', 'Please make checks payable to City of
 * Poway', 'Write account number on check & mail to: Pacific Power, PO Box 26000'): the payee is the
 * one who sent it.
 */
const PAYEE =
  /\b(?:payable\s+to|(?:check|cheque)\s*(?:&|and)\s*mail\s+to|remit\s+(?:payments?\s+)?to)\s*:?\s*/i;

/** The payee's name: up to a comma, a full stop ending it, or the post box or street that follows. */
function payeeOf(text: string): string | undefined {
  const label = PAYEE.exec(text);
  if (!label) return undefined;
  const rest = text.slice(label.index + label[0].length);
  const name = rest.split(/,|\.\s*$|\.\s+(?=[A-Z])|\s+(?:P\.?\s?O\.?\s*Box|\d)/i)[0] ?? '';
  const clean = cleanName(name);
  return clean && /^[A-Z]/.test(clean) && clean.split(/\s+/).length <= 6 ? clean : undefined;
}

/** Mail and web hosts that say nothing of who sent the bill. */
const GENERIC_HOSTS = new Set([
  'gmail',
  'googlemail',
  'hotmail',
  'outlook',
  'yahoo',
  'icloud',
  'aol',
  'example',
  'orange',
  'wanadoo',
  'btinternet',
  'live',
  'msn',
  'tcpdf',
]);

interface Found {
  text: string;
  name: string;
  line: PageLine;
  page: number;
  score: number;
}

const titleCase = (s: string) => s.replace(/\b([a-z])/g, (c) => c.toUpperCase());

function extractedOf(found: Found): ExtractedValue {
  const span = lineSpan(found.line);
  return {
    value: found.name,
    text: found.text,
    page: found.page,
    ...(span.box ? { bbox: span.box } : {}),
    confidence: Math.round(span.confidence * (found.score >= 3 ? 1 : 0.7) * 10) / 10,
  };
}

/** The lines just below a label in its column, nearest first: where a value sits under a heading. */
function linesBelow(page: DocPage, line: PageLine): PageLine[] {
  const bottom = line.box.Top + line.box.Height;
  return page.lines
    .filter(
      (l) =>
        l !== line &&
        l.box.Top >= bottom - line.box.Height * 0.3 &&
        l.box.Top - bottom < line.box.Height * 5 &&
        l.box.Left < line.box.Left + line.box.Width &&
        l.box.Left + l.box.Width > line.box.Left,
    )
    .sort((a, b) => a.box.Top - b.box.Top)
    .slice(0, 3);
}

function cleanName(text: string): string | undefined {
  const name = text
    .replace(/\s*[,;:|]\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (name.length < 2 || name.length > 80 || !/[A-Za-z]{2}/.test(name) || /\d{4,}/.test(name))
    return undefined;
  return name;
}

function companiesIn(text: string): { name: string; start: number }[] {
  const out: { name: string; start: number }[] = [];
  const opening = LINE_COMPANY.exec(text);
  const matches = opening
    ? [opening, ...[...text.matchAll(COMPANY)].filter((m) => m.index > 0)]
    : text.matchAll(COMPANY);
  for (const m of matches) {
    let words = (m[1] ?? '').split(/\s+/);
    while (words.length > 0 && NOT_A_NAME.test(words[0] ?? '')) words = words.slice(1);
    if (words.length === 0) continue;
    const name = cleanName(`${words.join(' ')} ${m[2] ?? ''}`);
    if (name) out.push({ name, start: m.index });
  }
  return out;
}

function hostName(text: string): string | undefined {
  const web = /\b(?:https?:\/\/)?(?:www\.)([a-z0-9-]+)\.[a-z]{2,}(?:\.[a-z]{2,})?\b/i.exec(text);
  const mail =
    /\b[\w.+-]+@(?:[a-z0-9-]+\.)*?([a-z0-9-]+)\.(?:co\.uk|com|fr|net|org|ca|de|nl|uk|eu|io|in)\b/i.exec(text);
  const bare = /\b([a-z0-9-]{3,})\.(?:com|co\.uk|fr|ca|de|nl)\b/i.exec(text);
  const host = (web?.[1] ?? mail?.[1] ?? bare?.[1])?.toLowerCase();
  if (!host || GENERIC_HOSTS.has(host)) return undefined;
  return titleCase(host.replace(/-/g, ' '));
}

/** Headings of the customer's block: the names printed under them are the buyer's, not the supplier's. */
const BUYER_LABEL =
  /^\s*(?:bill(?:ed)?\s*to|ship(?:ped)?\s*to|sold\s*to|invoice\s*to|deliver(?:ed|y)?\s*to|customer|client|bestellt\s*von|k[äa]ufer|(?:rechnungs|waren)?empf[äa]nger|leistungsempf[äa]nger|factur[ée]\s*[àa]|adresse\s*de\s*(?:facturation|livraison)|afleveradres|factuuradres)\b/i;

/** The lines of a customer's block: under a buyer heading, in its column, up to a few lines down. */
export function buyerLines(page: DocPage): Set<PageLine> {
  const out = new Set<PageLine>();
  for (const heading of page.lines) {
    if (!BUYER_LABEL.test(heading.text)) continue;
    const bottom = heading.box.Top + heading.box.Height;
    for (const l of page.lines) {
      if (l === heading || l.box.Top < bottom - heading.box.Height * 0.3) continue;
      if (l.box.Top - bottom > heading.box.Height * 6) continue;
      if (Math.abs(l.box.Left - heading.box.Left) > 0.03) continue;
      out.add(l);
    }
  }
  return out;
}

/**
 * The first line of a name printed over two ('MVM Musterhafter' over 'Versicherungsverein Musterstadt
 * a.G.'): just above, in the same column, a few capitalised words with no digits or punctuation.
 */
function nameLineAbove(page: DocPage, line: PageLine): PageLine | undefined {
  return page.lines.find(
    (l) =>
      l !== line &&
      Math.abs(l.box.Left - line.box.Left) < 0.005 &&
      l.box.Top < line.box.Top &&
      line.box.Top - (l.box.Top + l.box.Height) < line.box.Height * 0.6 &&
      Math.abs(l.box.Height - line.box.Height) < line.box.Height * 0.25 &&
      /^(?:[A-Z][\p{L}&'’-]*\s*){1,3}$/u.test(l.text.trim()) &&
      !BUYER_LABEL.test(l.text) &&
      !SUPPLIER_LABEL.test(l.text),
  );
}

const bare = (name: string) => name.replace(/[^\p{L}\p{N}]+/gu, '').toLowerCase();

/**
 * The supplier's name as the bill prints it, best evidence first; the recipient's name is never it,
 * nor any of `receivers` (the names AnalyzeExpense read for the receiver).
 */
export function findSupplierName(
  doc: PageDocument,
  pages: readonly number[],
  recipient?: string,
  receivers: readonly string[] = [],
): ExtractedValue | undefined {
  const found: Found[] = [];
  const customer = recipient?.split(/,|\n/)[0]?.trim().toLowerCase();
  for (const n of pages) {
    const page = doc.pages[n - 1];
    if (!page) continue;
    const first = n === pages[0];
    const buyer = buyerLines(page);
    for (const line of page.lines) {
      if (buyer.has(line)) continue;
      const letterhead = first && line.box.Top < 0.35;
      const label = SUPPLIER_LABEL.exec(line.text);
      if (NOT_SENDER.test(line.text)) continue;
      if (
        label &&
        /supplier|provider|sold|vendor|issued|supplied|fournisseur|mis\s*par|seller|verk|vendeur/i.test(
          label[0],
        )
      ) {
        const rest = line.text.slice(label[0].length);
        const beside = cleanName(rest.split(/\s{2,}|\s+[|]\s+/)[0] ?? '');
        // Under the label, a company name with its legal form beats the nearest line.
        const under = beside ? [] : linesBelow(page, line);
        const withForm = under.find((l) => companiesIn(l.text).length > 0);
        const below = withForm ?? under.find((l) => /^[A-Za-z]/.test(l.text));
        const name =
          beside ?? (below ? cleanName(companiesIn(below.text)[0]?.name ?? below.text) : undefined);
        if (name && !/^(?:n\/a|none|-)$/i.test(name))
          found.push({ text: line.text, name, line: below ?? line, page: n, score: 4 });
      }
      const payee = payeeOf(line.text);
      if (payee) found.push({ text: line.text, name: payee, line, page: n, score: 3.5 });
      for (const company of companiesIn(line.text)) {
        if (customer && company.name.toLowerCase().startsWith(customer)) continue;
        const first = company.start === 0 ? nameLineAbove(page, line) : undefined;
        const name = first ? `${first.text.trim()} ${company.name}` : company.name;
        found.push({ text: line.text, name, line, page: n, score: letterhead ? 3 : 2.5 });
      }
      const host = hostName(line.text);
      if (host) found.push({ text: line.text, name: host, line, page: n, score: letterhead ? 2 : 1 });
    }
  }
  const buyers = receivers.map(bare).filter((r) => r.length > 0);
  const best = found
    .filter((f) => {
      const name = bare(f.name);
      // Part of the buyer's name ('Design Co.' of 'Abstractors and Design Co.') is the buyer too.
      return name.length < 4 || !buyers.some((b) => b.includes(name) || name.includes(b));
    })
    .sort((a, b) => b.score - a.score || a.page - b.page || a.line.box.Top - b.line.box.Top)[0];
  return best ? extractedOf(best) : undefined;
}

// ---------------------------------------------------------------- currency

const CODES: readonly [string, RegExp][] = [
  ['GBP', /£|\bGBP\b|\bpounds?\s+sterling\b/g],
  ['EUR', /€|\bEUR\b|\beuros?\b/gi],
  ['USD', /\bUSD\b|\bUS\s?\$/g],
  ['CAD', /\bCAD\b|\bC\$|\bCDN\s?\$/g],
  ['INR', /₹|\bINR\b|\bRs\.?\s?-?\d/g],
  ['CHF', /\bCHF\b|\bSFr\.?(?=\s*\d)/g],
];

/** A dollar sign on a Canadian bill: a province and postcode, GST/HST, or the country's name. */
const CANADIAN =
  /\b(?:ON|QC|BC|AB|MB|SK|NS|NB|NL|PE)\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b|\bG\.?S\.?T\.?\s*\/\s*H\.?S\.?T\b|\bH\.?S\.?T\.?\b|\bCanada\b/;

const UK_POSTCODE = /\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b/;

/** A US state's code and ZIP code closing an address ('KELLER TX 76248', 'FT WORTH TX 76161-4189'). */
const US_ADDRESS =
  /\b(?:A[LKZR]|C[AOT]|D[EC]|FL|GA|HI|I[DLNA]|K[SY]|LA|M[EDAINSOT]|N[EVHJMYCD]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[TA]|W[AVIY]),?\s+\d{5}(?:-\d{4})?\b/;

/**
 * The currency the bill's amounts are in, as an ISO code: the one its amounts are most often marked
 * with. A bare dollar sign is US dollars unless the bill is Canadian. Nothing when no amount is marked:
 * a bill is not taken to be in pounds for want of a sign.
 */
export function findCurrency(doc: PageDocument, pages: readonly number[]): ExtractedValue | undefined {
  const text = pages.map((n) => doc.pages[n - 1]?.text ?? '').join('\n');
  const counts = new Map<string, { count: number; sample: string }>();
  const add = (code: string, count: number, sample: string) => {
    if (count === 0) return;
    const current = counts.get(code);
    counts.set(code, { count: (current?.count ?? 0) + count, sample: current?.sample ?? sample });
  };
  for (const [code, pattern] of CODES) {
    const matches = text.match(pattern) ?? [];
    add(code, matches.length, matches[0] ?? code);
  }
  const dollars = (text.match(/(?<![A-Z])\$\s?\d|\d\s?\$(?!\w)/g) ?? []).length;
  add(CANADIAN.test(text) ? 'CAD' : 'USD', dollars, '$');
  const best = [...counts.entries()].sort((a, b) => b[1].count - a[1].count)[0];
  if (!best) {
    // No amount is marked: the country the bill is addressed in is the only sign left.
    const country = CANADIAN.test(text)
      ? 'CAD'
      : UK_POSTCODE.test(text)
        ? 'GBP'
        : /\bTVA\b|\bTTC\b/.test(text)
          ? 'EUR'
          : US_ADDRESS.test(text)
            ? 'USD'
            : undefined;
    return country ? { value: country, text: '', confidence: 50 } : undefined;
  }
  const [code, { count, sample }] = best;
  return { value: code, text: sample, confidence: count >= 3 ? 90 : 70 };
}
