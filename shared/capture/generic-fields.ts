import { isValidMpanCore } from '../domain/mpan.ts';
import { findDates } from './date-text.ts';
import type { FieldSpec, Finder } from './generic-labels.ts';
import { findMprn } from './meter-points.ts';
import { findNumbers, findPrices, type NumberToken } from './number-text.ts';

/**
 * The labels British utility bills print beside each value, and how each value is recognised in the
 * text that follows its label.
 */

function maskDates(text: string): string {
  let masked = text;
  for (const d of findDates(text)) {
    masked = masked.slice(0, d.start) + ' '.repeat(d.end - d.start) + masked.slice(d.end);
  }
  return masked;
}

const TOKEN_TRIM = /^[#:([,]+|[,.;:)\]]+$/g;

/** Where another label starts on a label's line: what follows belongs to it ('Bill Number Fax: 1-888-…'). */
const CONTACT_LABEL =
  /\b(?:fax|t[ée]l(?:[ée]phone)?|tel|phone|mobile|call|e-?mail|mail|courriel|web(?:site)?)\b\s*(?:no\.?|number)?\s*:?/i;

/** A telephone or fax number as printed in North America, Britain and France. */
const PHONE = /^(?:\+?\d{1,3}[ -]?)?(?:\(\d{2,5}\)[ -]?)?\d{2,4}(?:[ -.]\d{2,4}){1,4}$|^1-8\d\d-\d{3}-\d{4}$/;

const isPhoneLike = (token: string) => /[-. ()]/.test(token) && PHONE.test(token) && !/[A-Za-z]/.test(token);

/**
 * Identifiers printed in groups ('91 00 02 20772 4', 'R3902 700 081'): a token that ends in a digit
 * followed, one space apart, by groups of digits. Two groups join only when the second is 3 digits or
 * more, so that a number and a count beside it ('12345 2') stay apart; a dashed number's lone check
 * digit ending the text joins it.
 */
function groupedTokens(text: string): { token: string; start: number; end: number }[] {
  const words = [...text.matchAll(/\S+/g)].map((m) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));
  const out: { token: string; start: number; end: number }[] = [];
  for (let i = 0; i < words.length; i++) {
    const first = words[i];
    if (!first) continue;
    let j = i;
    if (/^[A-Za-z]{0,3}\d+$/.test(first.text)) {
      while (
        j + 1 < words.length &&
        /^\d{1,6}$/.test(words[j + 1]?.text ?? '') &&
        (words[j + 1]?.start ?? 0) - (words[j]?.end ?? 0) === 1
      )
        j++;
    }
    // A dashed number with its check digit printed apart at the end ('28706321-003 6').
    const next = words[i + 1];
    if (
      j === i &&
      i + 2 === words.length &&
      next &&
      /^\d+(?:-\d+)+$/.test(first.text) &&
      /^\d$/.test(next.text) &&
      next.start - first.end === 1
    )
      j = i + 1;
    const run = words.slice(i, j + 1);
    const joins =
      run.length >= 3 || (run.length === 2 && ((run[1]?.text.length ?? 0) >= 3 || first.text.includes('-')));
    if (joins) {
      const last = run[run.length - 1] ?? first;
      out.push({ token: run.map((w) => w.text).join(''), start: first.start, end: last.end });
      i = j;
    } else {
      out.push({ token: first.text, start: first.start, end: first.end });
    }
  }
  return out;
}

/** An identifier: a token with a digit, at least `min` long, that is not a date, amount, percentage or phone number. */
function idFinder(min: number, accept: (token: string) => boolean = () => true): Finder {
  return (text) => {
    const contact = CONTACT_LABEL.exec(text);
    const masked = maskDates(contact ? text.slice(0, contact.index) : text);
    for (const m of groupedTokens(masked)) {
      if (isPhoneLike(m.token)) continue;
      const token = m.token.replace(TOKEN_TRIM, '');
      if (token.length < min || !/\d/.test(token)) continue;
      if (!/^[A-Za-z0-9][A-Za-z0-9/_.-]*$/.test(token)) continue;
      if (/^\d{1,3}(,\d{3})*\.\d{2}$/.test(token) || /^\d*\.\d+(?:CR)?$/i.test(token)) continue;
      if (!accept(token)) continue;
      const start = m.start + m.token.indexOf(token);
      return { value: token, start, end: start + token.length };
    }
    return null;
  };
}

const dateFinder: Finder = (text) => {
  const d = findDates(text)[0];
  return d ? { value: d.iso, start: d.start, end: d.end } : null;
};

const looksLikeAmount = (t: NumberToken) => t.currency !== undefined || /[.,]\d{2}$/.test(t.digits);

/** An amount in pounds: printed with a pound sign or with pence, so a phone number or a count is not one. */
export const priceFinder: Finder = (text) => {
  const masked = maskDates(text);
  // Pence and prices per unit ('112.50p per day', '£0.00801/kWh') are rates, not amounts; the amount
  // a tax is charged on ('Tax 15% on $ 112.90') is its base, not the tax.
  const token = findPrices(masked).find(
    (t) =>
      looksLikeAmount(t) &&
      !t.pence &&
      !/^\s*(?:\/|per\b|a\s+day\b)/i.test(masked.slice(t.end)) &&
      !/\b(?:on|sur|auf)\s*$/i.test(masked.slice(0, t.start)),
  );
  return token ? { value: token.value, start: token.start, end: token.end } : null;
};

/** A price per unit: in pence or pounds, with as many decimals as it has. */
const rateFinder: Finder = (text) => {
  const tokens = findPrices(maskDates(text), undefined, { penceToPounds: true });
  const token = tokens.find((t) => t.pence || t.currency) ?? tokens.find((t) => /[.,]\d+$/.test(t.digits));
  return token ? { value: token.value, start: token.start, end: token.end } : null;
};

/** A quantity (a read, a consumption): not an amount, a percentage or a piece of a date. */
export const quantityFinder: Finder = (text) => {
  const token = findNumbers(maskDates(text)).find((t) => !t.percent && !t.currency && !t.pence);
  return token ? { value: token.value, start: token.start, end: token.end } : null;
};

const percentFinder: Finder = (text) => {
  const token = findNumbers(text).find((t) => t.percent);
  return token ? { value: token.value, start: token.start, end: token.end } : null;
};

const mprnFinder: Finder = (text) => {
  const found = findMprn(maskDates(text));
  return found ? { value: found.mprn, start: found.start, end: found.end } : null;
};

/** A postal address: the text itself when it has letters and a digit (a house number or postcode). */
const addressFinder: Finder = (text) => {
  const trimmed = text.replace(/^[\s:,-]+/, '').trimEnd();
  if (!/[A-Za-z]/.test(trimmed) || !/\d/.test(trimmed) || trimmed.length < 6) return null;
  const start = text.indexOf(trimmed);
  return { value: trimmed.replace(/\s*\n\s*/g, ', '), start, end: start + trimmed.length };
};

const l = (pattern: RegExp, weight = 3) => ({ pattern, weight });
const NO = String.raw`(?:number|no\b\.?|num\b\.?|#)`;

export const INVOICE_NUMBER: FieldSpec = {
  hint: /invoice|bill|document|statement|factu|rechnung|beleg|betaaloverzicht|nota/i,
  key: 'invoiceNumber',
  labels: [
    l(new RegExp(String.raw`\b(?:tax\s+)?invoice\s*(?:${NO}|ref(?:erence)?(?:\s*${NO})?|id\b)`, 'i')),
    l(new RegExp(String.raw`\bbill\s*(?:${NO}|ref(?:erence)?)`, 'i')),
    l(new RegExp(String.raw`\b(?:document|statement)\s*${NO}`, 'i'), 2),
    l(/\binvoice\s*:/i, 1),
    // A document's title followed by its number ('Facture FA-2017-0010', 'Rechnung R0005532486').
    l(/^\s*(?:tax\s+)?(?:invoice|facture|rechnung|factuur)(?=\s+[A-Z]*[-/]?\d)/i, 1),
    l(
      /\bfactuur\s*(?:nummer|nr\b)|\bfacture\s*(?:n\s*[°ºo]|num[ée]ro)|\b(?:n\s*[°ºo]|num[ée]ro)\s*(?:de\s*)?facture\b/i,
    ),
    // A Dutch payment overview or note, which stands for the invoice ('Betaaloverzichtnummer').
    // 'Détail de votre facture du 29/01/2021 n° 10123590373'.
    l(/(?<=\bfacture\s+du\s+\S+\s+)n\s*[°º]/i),
    l(/\bbetaaloverzicht\s*-?\s*(?:nummer|nr\b\.?)|\bnota\s*-?\s*(?:nummer|nr\b\.?)/i),
    // 'Rechnungsnummer', 'Rechnung Nr.', 'Handelsrechnung (380) Nr.', 'Beleg-Nr'.
    l(/rechnungs?\s*-?\s*(?:\(\d+\)\s*)?(?:nummer|nr\b\.?|#)|\bbeleg\s*-?\s*(?:nummer|nr\b\.?)/i),
    // A titled bill and its number: 'Beitragsrechnung zur Kraftfahrtversicherung Nr. 00.123.456.7'.
    // Only the 'Nr.' is the label, so that the title stays free to label the date beside it; an
    // order's number named in the title ('Rechnung gemäß Bestellung Nr.') is not the bill's.
    l(
      /(?<=^\s*\p{L}*rechnung\b(?:\s+(?!gem|bestell|auftrag|liefer|kunde|order)(?:\p{L}+|\(\d+\))){0,3}?\s+)(?:nr\b\.?|nummer)/iu,
      2,
    ),
  ],
  // 'Rechnung Nr. 42': after a label, a number of two digits is the invoice's; letters need three.
  find: idFinder(2, (t) => !isValidMpanCore(t) && (t.length >= 3 || /^\d+$/.test(t))),
};

export const ACCOUNT_NUMBER: FieldSpec = {
  hint: /acc|customer|client|compte|kunde|klant|debiteur|relatie/i,
  key: 'accountNumber',
  labels: [
    l(new RegExp(String.raw`\bacc(?:oun)?t\.?\s*(?:${NO}|ref(?:erence)?)`, 'i')),
    l(new RegExp(String.raw`\bcustomer\s*(?:${NO}|ref(?:erence)?|account)`, 'i'), 2),
    l(/\baccount\s*:/i, 1),
    l(
      /\b(?:n\s*[°ºo]|num[ée]ro|id\.?|identifiant|r[ée]f[ée]rence)\s*(?:de\s*)?client\b|\bcompte\s*client\b|\bcustomer\s*id\b/i,
      2,
    ),
    // 'N° du compte', 'Compte de facturation': the account, which beats a customer number beside it.
    l(/\b(?:n\s*[°ºo]|num[ée]ro)\s*(?:du|de)\s*compte\b|\bcompte\s*de\s*facturation\b/i),
    l(/\bkunden\s*-?\s*(?:nummer|nr\b\.?)|\b(?:klant|debiteur(?:en)?|relatie)\s*-?\s*(?:nummer|nr\b\.?)/i, 2),
  ],
  find: idFinder(4, (t) => !isValidMpanCore(t)),
};

export const INVOICE_DATE: FieldSpec = {
  hint: /date|datum|tax\s*point|factu|[ée]mis|\bdu\b|\bvom\b|\bvon\b|rechnung|invoice/i,
  key: 'invoiceDate',
  labels: [
    l(
      /\b(?:invoice|bill|statement)\s*(?:\/\s*tax\s*point\s*)?date|\bdate\s*of\s*(?:invoice|issue|bill)|\b(?:issue|issued)\s*date|\bdate\s*issued|\bissued\s*(?:at|on)\b|\btax\s*point(?:\s*date)?|\bbilling\s*date|\bnotice\s*date|\bstatement\s*issued|\bdate\s*(?:de\s*(?:la\s*)?)?factur(?:e|ation)\b|\bdate\s*d['’]\s*[ée]mission|\b[ée]mise?\s*le\b/i,
    ),
    l(/(?<=\bfacture\s*n\s*[°ºo]?\s*\S+\s+)du\b/i, 2),
    // 'Facture du 29/01/2021'.
    l(/\bfacture\s+du\b(?=\s*\d)/i, 2),
    // An invoice's number with its date after it ('83419233 du 01.09.2016', under 'N° facture'): the
    // 'du' is the label; a period ('du … au …') is not a date of issue.
    l(/(?<=^\s*[A-Z]{0,4}\d[\w/.-]{3,}\s+)(?:du|vom|dated)\b(?=\s*\d)(?!\s*\S+\s+(?:au|bis|to)\b)/i, 2),
    l(
      /\b(?:factuur|betaaloverzicht)\s*-?\s*datum\b|\bdatum\s*(?:factuur|betaaloverzicht)\b|\brechnungs\s*-?\s*datum\b|\bbeleg\s*-?\s*datum\b/i,
    ),
    // 'Rechnung Nr. 471102 vom 05.03.2018': the date that follows the invoice's own number.
    l(/\bvo[nm]\b(?<=rechnung\S*(?:\s+(?:\p{L}+|\(\d+\))){0,3}?\s*(?:nr\.?|#|nummer)\s*\S+\s+vo[nm])/iu, 2),
    l(/^\s*(?:date|datum)\b/i, 1),
    // A bill's title with the date it was issued beside it ('Beitragsrechnung    24. Januar 2014').
    l(/^\s*\p{L}*rechnung\b|^\s*(?:tax\s+)?invoice\s*$/iu, 1),
  ],
  find: dateFinder,
};

export const DUE_DATE: FieldSpec = {
  hint: /due|pay|paid|collected|direct|verval|f[äa]llig|zahlbar|betaal|betalen|ch[ée]ance/i,
  key: 'dueDate',
  labels: [
    l(
      /\bplease\s+pay\s+£?\s*[\d,.]+\s+by\b|\bdue\s*date|\bpayment\s*due(?:\s*(?:date|by|on))?|\bdue\s*(?:by|on)\b|\bpay(?:ment)?\s*by\b|\bpayable\s*by|\bto\s*be\s*paid\s*by|\bcollected\s*on|\bdirect\s*debit\s*(?:date|on)/i,
    ),
    l(
      /\b(?:date\s*d['’]\s*)?[ée]ch[ée]ance\b|\bvervaldatum\b|\bf[äa]lligkeits?\s*-?\s*datum|\bf[äa]llig\s*(?:am|bis)\b|\bzahlbar\s*bis\b/i,
    ),
    // 'Uiterste betaaldatum'; 'Te betalen vóór' names the date, where 'Te betalen' alone names the amount.
    l(/\b(?:uiterste\s*)?betaal\s*datum\b|\bte\s*betalen\s*(?:v[oó][oó]r|uiterlijk(?:\s*op)?)\b/i),
  ],
  find: dateFinder,
};

export const PERIOD_START: FieldSpec = {
  hint: /start|from/i,
  key: 'startDate',
  labels: [
    l(/\b(?:period|supply|billing)\s*(?:start|from)(?:\s*date)?|\bstart\s*date/i),
    l(/^\s*from\b/i, 1),
  ],
  find: dateFinder,
};

export const PERIOD_END: FieldSpec = {
  hint: /end|to|until/i,
  key: 'endDate',
  labels: [
    l(/\b(?:period|supply|billing)\s*(?:end|to)(?:\s*date)?|\bend\s*date/i),
    l(/^\s*(?:to|until)\b/i, 1),
  ],
  find: (text) => {
    const d = findDates(text, undefined, { monthEnd: true })[0];
    return d ? { value: d.iso, start: d.start, end: d.end } : null;
  },
};

export const MPRN: FieldSpec = {
  hint: /mprn|meter|gas|supply/i,
  key: 'meterPointNumber',
  labels: [
    l(
      /\bmprn\b|\bmeter\s*point\s*ref(?:erence)?(?:\s*(?:number|no\.?))?|\bgas\s*(?:supply|meter)\s*(?:point\s*)?(?:number|no\.?|ref(?:erence)?)/i,
    ),
    l(/\bsupply\s*point\s*(?:number|no\.?|ref(?:erence)?)|\bmeter\s*point\s*(?:number|no\.?)/i, 2),
  ],
  find: mprnFinder,
};

/**
 * A metering point known by a European identifier, read only where it is labelled as one ('Point de
 * mesure : CH10225…', 'PRM 12345678901234', 'Zählpunkt DE000…'): the 33 characters of a Swiss, German
 * or Austrian metering point, or the 14 digits of a French delivery point.
 */
const meteringPointFinder: Finder = (text) => {
  const m = /(?<![\w])(?:[A-Z]{2}\d[0-9A-Z]{30}|\d{14})(?![\w])/.exec(
    maskDates(text).replace(/(?<=\d) (?=\d)/g, ''),
  );
  if (!m) return null;
  return { value: m[0], start: m.index, end: m.index + m[0].length };
};

export const METERING_POINT: FieldSpec = {
  hint: /point|\bpdl\b|\bprm\b|z[äa]hlpunkt|messlokation|metering/i,
  key: 'meterPointNumber',
  labels: [
    l(
      /\bpoint\s*de\s*(?:mesure|livraison|r[ée]f[ée]rence\s*mesure)|\b(?:pdl|prm)\b|\bz[äa]hlpunkt(?:\s*-?\s*(?:bezeichnung|nummer))?|\bmesslokation(?:s\s*-?\s*id)?|\bmetering\s*point\s*(?:id|number|no\.?)/i,
    ),
  ],
  find: meteringPointFinder,
};

export const METER_SERIAL: FieldSpec = {
  hint: /meter|serial|msn/i,
  key: 'meterSerialNumber',
  labels: [
    l(
      new RegExp(
        String.raw`\bmeter\s*serial(?:\s*${NO})?|\bserial\s*${NO}|\bmeter\s*(?:${NO}|id\b)|\bmsn\b`,
        'i',
      ),
    ),
    l(/\bmeter\s*:/i, 1),
  ],
  find: idFinder(4, (t) => !isValidMpanCore(t) && !/^\d{1,3}$/.test(t)),
};

export const OPENING_READ: FieldSpec = {
  hint: /read/i,
  key: 'openingRead',
  labels: [l(/\b(?:opening|previous|prev\.?|start|last|old|earlier)\s*(?:meter\s*)?read(?:ing)?s?\b/i)],
  find: quantityFinder,
};

export const CLOSING_READ: FieldSpec = {
  hint: /read/i,
  key: 'closingRead',
  labels: [l(/\b(?:closing|present|current|end|this|latest|new)\s*(?:meter\s*)?read(?:ing)?s?\b/i)],
  find: quantityFinder,
};

export const CONSUMPTION: FieldSpec = {
  hint: /total|units|used|consumption|usage/i,
  key: 'consumption',
  labels: [
    l(
      /\btotal\s*(?:consumption|units(?:\s*used)?|kwh|usage|energy)|\bunits\s*(?:used|consumed)|\b(?:energy|kwh|gas|water|electricity)\s*used|\bconsumption\b|\busage\b/i,
    ),
    l(/^\s*(?:total\s+)?units\s*(?:\(kwh\))?\s*:?\s*$/i, 1),
  ],
  find: quantityFinder,
};

export const UNIT_RATE: FieldSpec = {
  hint: /rate|price/i,
  key: 'unitRate',
  labels: [l(/\bunit\s*(?:rate|price)|\b(?:rate|price)\s*per\s*(?:kwh|unit)/i, 2)],
  find: rateFinder,
};

export const STANDING_CHARGE: FieldSpec = {
  hint: /charge/i,
  key: 'standingCharge',
  labels: [l(/\bstanding\s*charges?\b/i), l(/\b(?:daily|fixed)\s*charges?\b/i, 2)],
  find: priceFinder,
  last: true,
};

export const CCL: FieldSpec = {
  hint: /levy|ccl/i,
  key: 'climateChangeLevy',
  labels: [l(/\bclimate\s*change\s*levy\b|\bccl\b/i)],
  find: priceFinder,
  last: true,
};

const VAT_LABEL = /\bvat\b(?!\s*(?:reg|registration|no\b|number|exempt))|\bvalue\s*added\s*tax\b/i;

export const NET_TOTAL: FieldSpec = {
  hint: /net|total|vat|montant|summe|subtotaal|excl|ohne/i,
  key: 'netTotal',
  labels: [
    l(
      /\bsub\s*-?\s*total\b|\bnet\s*(?:total|amount|charges?|value)\b|\btotal\s*net\b|\b(?:total|charges|amount)\b[\w\s]{0,25}?[\s(]*(?:excl?\.?|excluding|before|exclusive\s+of|net\s+of|ex\.?)\s*vat\b\)?/i,
    ),
    l(/\btotal\s*(?:energy\s*)?charges\b/i, 2),
    l(/\b(?:total|montant)\s*(?:eur\s*)?h\.?t\.?\b/i),
    l(
      /\b(?:summe|betrag)\s*netto\b|\bnetto\s*-?\s*(?:betrag|summe)\b|\bnettobetrag\b|\brechnungssumme\s*ohne\s*ust|\bzwischensumme\b|\bsubtotaal\b|\btotaal\s*(?:excl(?:usief)?\.?|ex\.?)\s*btw\b|^\s*netto\s*$/i,
    ),
    l(/^\s*(?:excl(?:usief|uding|\.)?|ohne|hors)\s*(?:btw|vat|ust|mwst|taxes?)\b/i, 2),
    // The net of one tax rate ('Net @ 20%'): rows of several rates are added up (see rateSums).
    l(/^\s*net\s*(?:@|at)?\s*(?=\d{1,2}(?:[.,]\d{1,2})?\s*%)/i, 2),
  ],
  find: priceFinder,
  last: true,
};

export const VAT_TOTAL: FieldSpec = {
  hint: /vat|value|tva|tax|ust|mwst|steuer|btw/i,
  key: 'vatTotal',
  labels: [
    l(/\btotal\s*vat\b|\bvat\s*(?:amount|total|charged)\b|\b(?:montant|total)\s*(?:de\s*la\s*)?tva\b/i),
    l(VAT_LABEL, 2),
    l(/^\s*(?:tva|tax)\b(?!\s*(?:reg|registration|no\b|number|id|intra|acquitt))/i, 2),
    l(/\b(?:ust|mwst)\.?\s*-?\s*(?:gesamt|betrag)\b|\bsteuerbetrag\b|\btotal\s*taxes\b/i),
    l(
      /^\s*(?:(?:zuz[üu]glich\s*)?(?:ust|mwst|umsatzsteuer)\.?|\d{1,2}\s*%\s*btw|btw)\b(?!\s*-?\s*(?:id|nr|nummer|reg))/i,
      2,
    ),
  ],
  find: priceFinder,
  last: true,
};

export const VAT_RATE: FieldSpec = {
  hint: /vat|value/i,
  key: 'vatRate',
  labels: [l(/\bvat\s*rate\b/i), l(VAT_LABEL, 2)],
  find: percentFinder,
};

/**
 * The amount due, by what its label means: what the customer is asked to pay beats a total of the
 * invoice, which beats a bare 'Total'. A total of one section ('Total Stormwater Rate Charges') is not
 * the amount due, so a 'Total' followed by other words is no label of it.
 */
export const GROSS_TOTAL: FieldSpec = {
  hint: /total|due|payable|owing|balance|pay|withdrawal|debit|d[ée]bit|pr[ée]lev|ttc|totaal|betal|betrag|beitrag|summe|brutto|zahl|bedrag/i,
  key: 'grossTotal',
  labels: [
    l(
      /\btotal\s*(?:amount\s*)?(?:due|payable|to\s*pay|owing|now\s*due)\b|\bamount\s*(?:now\s*)?(?:due|payable|owing|to\s*pay)\b|\bbalance\s*(?:now\s*)?(?:due|to\s*pay|payable)\b|\bplease\s*pay\b|\b(?:somme|montant|reste|net|total)\s*(?:total\s*)?(?:[àa]\s*payer|d[ûu])\b|\bpre-?\s*authori[sz]ed\s*(?:withdrawal|debit|payment)\b|\b(?:nog\s*)?te\s*betalen\b|\bzahlbetrag\b|\bzu\s*zahlen(?:der\s*betrag)?\b|\bdue\s*payable\b|\bpayable\s*on\s*or\s*before(?:\s*the)?\s*due\s*date\b/i,
      4,
    ),
    // What is taken from the customer's bank account is what the bill asks for ('Montant prélevé').
    l(/\bmontant\s*(?:qui\s*sera\s*)?(?:pr[ée]lev[ée]|d[ée]bit[ée])(?![a-zà-ÿ])/i, 4),
    // A total of the invoice in German or Dutch; 'Gesamtbetrag der Zuschläge' is the total of a part.
    l(
      /\brechnungs\s*-?\s*(?:betrag|beitrag|summe)\b|\bgesamt\s*-?\s*(?:betrag|summe)\b(?!\s*der\b)|\bsumme\s*(?:inkl\.?|inklusive|einschl\.?|incl\.?)\s*(?:der\s*)?(?:ust|mwst|umsatzsteuer)\b|\bbrutto\s*-?\s*(?:betrag|summe)?\b|\bendbetrag\b|\btotaalbedrag\b|\bfactuur\s*bedrag\b|\b(?:bedrag|totaal)\s*incl(?:usief|\.)?\s*btw\b/i,
    ),
    l(
      /\btotal\s*(?:charges?\s*|amount\s*|en\s*[a-z]{3}\s*,?\s*|in\s*[a-z]{3}\s*,?\s*)?(?:incl?\.?|including|inclusive\s*of|inclus[e]?|y\.?\s*c(?:ompris|\.))\s*(?:la\s*)?(?:vat|tva|tax(?:es)?)\b|\b(?:invoice|grand|gross)\s*total\b|\btotal\s*(?:this\s*)?(?:invoice|bill)\b|\btotal\s*gross\b|\b(?:total|montant)\s*(?:eur\s*)?t\.?t\.?c\.?\b|\btotal\s*(?:de\s*la\s*)?facture\b|\b(?:factuur\s*)?totaal\b/i,
    ),
    l(/^\s*total\s*(?=[:(€$£]|$|\d|eur\b|usd\b|gbp\b|cad\b|amount\b)/i, 1),
    // A statement's balance is what it asks for; the charges of this period only when nothing says so.
    l(/\b(?:new|total|closing)\s*balance\b|\bbalance\s*(?:owing|outstanding)\b|\boffener\s*betrag\b/i, 3),
    l(/\btotal\s*(?:current|new)\s*charges\b/i, 1),
  ],
  find: priceFinder,
  last: true,
};

/**
 * A statement's account summary: what was owed before this bill and is carried on to it ('Balance
 * Forward', after the previous bill, its payments and adjustments), and what this bill adds ('New
 * Charges This Bill'). Their sum is what the statement asks for; see statementSum.
 */
export const BALANCE_FORWARD: FieldSpec = {
  hint: /forward|b\/f/i,
  key: 'grossTotal',
  labels: [l(/\bbalance\s*(?:brought\s*|carried\s*)?(?:forward|b\/f)\b/i)],
  find: priceFinder,
  last: true,
};

export const NEW_CHARGES: FieldSpec = {
  hint: /charges/i,
  key: 'grossTotal',
  labels: [
    l(/\b(?:total\s*)?(?:new|current)\s*charges(?:\s*(?:for\s*)?this\s*(?:bill|period|month|statement))?\b/i),
  ],
  find: priceFinder,
  last: true,
};

/** MJ/m³ of gas: British gas burns at about 37 to 43, so other numbers by the label are not it. */
const calorificFinder: Finder = (text) => {
  const token = findNumbers(maskDates(text)).find(
    (t) => !t.percent && !t.currency && !t.pence && Number(t.value) >= 30 && Number(t.value) <= 50,
  );
  return token ? { value: token.value, start: token.start, end: token.end } : null;
};

/** Printed on gas bills read by volume, which turn m³ into kWh with it. */
export const CALORIFIC_VALUE: FieldSpec = {
  hint: /calorific|cv/i,
  key: 'calorificValue',
  labels: [l(/\b(?:average\s*)?calorific\s*value\b/i), l(/\bcv\b/i, 1)],
  find: calorificFinder,
};

export const SITE_ADDRESS: FieldSpec = {
  hint: /address/i,
  key: 'siteAddress',
  labels: [l(/\b(?:supply|site|premises|property|installation)\s*address\b/i)],
  find: addressFinder,
};

/** Fields of the invoice as a whole. */
export const INVOICE_SPECS: readonly FieldSpec[] = [
  INVOICE_NUMBER,
  ACCOUNT_NUMBER,
  INVOICE_DATE,
  DUE_DATE,
  PERIOD_START,
  PERIOD_END,
  UNIT_RATE,
  STANDING_CHARGE,
  CCL,
  NET_TOTAL,
  VAT_TOTAL,
  VAT_RATE,
  GROSS_TOTAL,
  SITE_ADDRESS,
  CALORIFIC_VALUE,
];

/** Fields of a meter, read within its section of a multi-meter invoice. */
export const METER_SPECS: readonly FieldSpec[] = [
  MPRN,
  METERING_POINT,
  METER_SERIAL,
  OPENING_READ,
  CLOSING_READ,
  CONSUMPTION,
];
