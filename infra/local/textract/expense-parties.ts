import { randomUUID } from 'node:crypto';
import type { PageLayout } from './blocks.ts';
import { lineBox, lineText, type TextLine, type TextWord } from './page-text.ts';

/**
 * The vendor and the receiver as AnalyzeExpense answers them: each party's name and address as a group
 * (NAME, ADDRESS, ADDRESS_BLOCK and, for a postcode, ZIP_CODE, each with GroupProperties of one Id and
 * the party's type), and the same values again as flat fields (VENDOR_NAME, VENDOR_ADDRESS,
 * RECEIVER_NAME, RECEIVER_ADDRESS), plus the vendor's phone, web address and VAT number. Only a printed
 * label gives a field a LabelDetection; the letterhead's name and address have none.
 */

export interface PartyField {
  type: string;
  label?: TextWord[];
  value: TextWord[];
  /** Multi-line values keep their line breaks, as Textract gives addresses. */
  valueText?: string;
  typeConfidence: number;
  group?: { type: 'VENDOR' | 'RECEIVER'; id: string };
}

/**
 * A document's title, alone or with its number and date ('Invoice INV/2023/03/0008', 'Facture
 * FA-2017-0010', 'Handelsrechnung Nr. 471102 vom 05.03.2018', 'Utility Bill'): never the vendor.
 */
const TITLES =
  /^(?:(?:tax|vat|utility|energy|electricity|gas|water|final|interim)\s+)?(?:invoice|receipt|statement|bill|credit\s*note|proforma|factuur|facture|avoir|\p{L}*rechnung|gutschrift|nota|quittung)\b/iu;
const words = (lines: readonly TextLine[]) => lines.flatMap((l) => l.words);
const joined = (lines: readonly TextLine[]) => lines.map(lineText).join('\n');

/**
 * A postage-paid imprint and its postal operator ('P.P. 1211 Genève 2', 'Poste CH SA', 'Entgelt
 * bezahlt'): printed in the letterhead's place, but it names the post, never the vendor.
 */
const POSTAGE =
  /^\s*(?:P\.\s?P\.|port\s*pay[ée]|postage\s*paid|entgelt\s*bezahlt)|\b(?:poste?\s*ch(?:\s*(?:sa|ag))?|la\s*poste|royal\s*mail|deutsche\s*post|canada\s*post)\b/i;

const RETURN_SEPARATOR = /[●•·|]|\s[-–]\s|,.*,/;

/**
 * The addressee's block of a letter posted in a window envelope: under a small return-address line
 * ("Bei Spiel GmbH ● Ecke 12 ● 12345 Stadthausen"), the addressee's name and address, in the column
 * the return address starts in. Printed large so the post can read it; it is the receiver, however
 * large its name.
 */
export function recipientWindow(layout: PageLayout): TextLine[] {
  const lines = layout.page.lines;
  for (const line of lines) {
    const box = lineBox(line);
    if (box.Top > 0.4) continue;
    // The return address may come as several lines on one baseline: read them as one.
    const row = [line];
    let right = box.Left + box.Width;
    for (const l of lines
      .filter((l) => Math.abs(lineBox(l).Top - box.Top) < box.Height * 0.5 && lineBox(l).Left > box.Left)
      .sort((a, b) => lineBox(a).Left - lineBox(b).Left)) {
      // Only what runs on from it: another column on the same baseline is not part of it.
      if (lineBox(l).Left - right > 0.05) break;
      row.push(l);
      right = lineBox(l).Left + lineBox(l).Width;
    }
    const text = row.map(lineText).join(' ');
    if (right - box.Left > 0.6 || !POSTCODE.test(text) || !RETURN_SEPARATOR.test(text)) continue;
    const below: TextLine[] = [];
    let bottom = box.Top + box.Height;
    for (const next of lines
      .filter(
        (l) => lineBox(l).Top > box.Top + box.Height * 0.5 && Math.abs(lineBox(l).Left - box.Left) < 0.06,
      )
      .sort((a, b) => lineBox(a).Top - lineBox(b).Top)) {
      const nextBox = lineBox(next);
      if (below.length >= 5 || nextBox.Top - bottom > 3 * nextBox.Height) break;
      // The addressee is printed larger than the return address over it.
      if (below.length === 0 && nextBox.Height < box.Height * 1.2) break;
      below.push(next);
      bottom = nextBox.Top + nextBox.Height;
    }
    if (below.length >= 2 && below.some((l) => POSTCODE.test(lineText(l)))) return below;
  }
  return [];
}

/**
 * With no "Supplier:" label, the vendor is the name printed largest at the top of the first page; the
 * addressee in an envelope's window is not it.
 */
export function vendorByLook(layout: PageLayout, addressee: readonly TextLine[] = []): TextLine | undefined {
  const heights = layout.page.lines.map((l) => lineBox(l).Height).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  const candidates = layout.page.lines.filter((l) => {
    const box = lineBox(l);
    const text = lineText(l);
    return (
      !addressee.includes(l) &&
      box.Top < 0.25 &&
      box.Height >= 1.15 * median &&
      /\p{L}{2}/u.test(text) &&
      !text.includes(':') &&
      !TITLES.test(text.trim()) &&
      !POSTAGE.test(text)
    );
  });
  const largest = candidates.sort((a, b) => lineBox(b).Height - lineBox(a).Height)[0];
  if (largest) return largest;
  // Nothing printed large: the first company name, by its legal form, at the top of the page; else
  // the name over the letterhead's postal address.
  return (
    layout.page.lines.find((l) => {
      const text = lineText(l);
      return (
        !addressee.includes(l) &&
        lineBox(l).Top < 0.2 &&
        LEGAL_FORM.test(text) &&
        !POSTAGE.test(text) &&
        !text.includes(':') &&
        !TITLES.test(text.trim()) &&
        !/\d{4,}/.test(text)
      );
    }) ?? nameOverAddress(layout, addressee)
  );
}

/** A line that may name the sender: no digits, no label, not the post, a title or a phone or web line. */
const nameLike = (text: string) =>
  /\p{L}{2}/u.test(text) &&
  !/\d|:/.test(text) &&
  !POSTAGE.test(text) &&
  !TITLES.test(text.trim()) &&
  !PHONE_OR_WEB.test(text);

/**
 * The letterhead's name when it is printed no larger than the rest: at the top of the page, the lines
 * over a postal address in one column ('Service Clients SIG', 'Services Industriels de Genève', 'Case
 * postale 2777', '1211 Genève 2'). Of those over the address, the longest is the sender's full name.
 */
function nameOverAddress(layout: PageLayout, addressee: readonly TextLine[]): TextLine | undefined {
  const top = layout.page.lines
    .filter((l) => !addressee.includes(l) && lineBox(l).Top < 0.2)
    .sort((a, b) => lineBox(a).Top - lineBox(b).Top);
  for (const first of top) {
    if (!nameLike(lineText(first))) continue;
    const box = lineBox(first);
    const block = [first];
    let bottom = box.Top + box.Height;
    for (const next of top.filter(
      (l) => lineBox(l).Top > box.Top && Math.abs(lineBox(l).Left - box.Left) < 0.02,
    )) {
      const b = lineBox(next);
      if (block.length >= 5 || b.Top - bottom > 1.5 * b.Height) break;
      block.push(next);
      bottom = b.Top + b.Height;
    }
    const address = block.findIndex(
      (l) => POSTCODE.test(lineText(l)) || /\b\d{4,5}\s+\p{Lu}/u.test(lineText(l)),
    );
    if (address < 1) continue;
    const names = block.slice(0, address).filter((l) => nameLike(lineText(l)));
    const fullest = names.sort((a, b) => lineText(b).length - lineText(a).length)[0];
    if (fullest) return fullest;
  }
  return undefined;
}

/** A company's legal form ending a short name: 'Lieferant GmbH', 'Au bon moulin SARL', 'Acme Ltd.'. */
const LEGAL_FORM =
  /^[\p{L}][\p{L}\d&'’.\- ]{1,60}\s(?:Ltd|Limited|PLC|plc|LLP|LLC|Inc|GmbH|AG|KG|SE|SARL|SAS|SA|S\.A\.|B\.V|BV|N\.V|NV|a\.G)\.?$/u;

const PHONE_OR_WEB = /^(?:tel|phone|fax|e-?mail|web|www|https?)\b|@|\bwww\./i;
const POSTCODE =
  /\b(?:[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}|[A-Z]\d[A-Z] ?\d[A-Z]\d|\d{5}(?:-\d{4})?|[A-Z]-?\d{4,5})\b/;

/**
 * The address printed under the vendor's name in the letterhead: the lines just below it that start
 * where it starts, up to a labelled line, a phone or web line, or a gap. At most four lines, and only
 * when one of them holds a number (a house number or a postcode): a strap line is not an address.
 */
function letterheadAddress(layout: PageLayout, name: TextLine, taken: ReadonlySet<TextLine>): TextLine[] {
  const rowIndex = layout.rows.findIndex((r) => r.lines.includes(name));
  const nameBox = lineBox(name);
  const lines: TextLine[] = [];
  let lastBottom = nameBox.Top + nameBox.Height;
  for (const row of layout.rows.slice(rowIndex + 1)) {
    if (lines.length >= 4) break;
    const next = row.lines.find((l) => Math.abs(lineBox(l).Left - nameBox.Left) < 0.02);
    if (!next) break;
    const box = lineBox(next);
    if (box.Top - lastBottom > 1.5 * Math.max(box.Height, nameBox.Height * 0.6)) break;
    const text = lineText(next);
    if (taken.has(next) || text.includes(':') || PHONE_OR_WEB.test(text) || !/\p{L}/u.test(text)) break;
    lines.push(next);
    lastBottom = box.Top + box.Height;
  }
  return lines.some((l) => /\d/.test(lineText(l))) ? lines : [];
}

function zipOf(lines: readonly TextLine[]): TextWord[] | undefined {
  for (const line of [...lines].reverse()) {
    const text = lineText(line);
    const match = POSTCODE.exec(text);
    if (!match) continue;
    const parts = match[0].split(' ');
    const start = line.words.findIndex((_w, i) =>
      parts.every((p, k) => line.words[i + k]?.text.replace(/[,.]$/, '') === p),
    );
    if (start >= 0) return line.words.slice(start, start + parts.length);
  }
  return undefined;
}

/** A party's grouped fields: one Id ties its name and address together. */
function group(
  type: 'VENDOR' | 'RECEIVER',
  name: TextLine | undefined,
  address: readonly TextLine[],
  nameConfidence: number,
): PartyField[] {
  if (!name && address.length === 0) return [];
  const g = { type, id: randomUUID() };
  const fields: PartyField[] = [];
  if (address.length > 0) {
    fields.push({
      type: 'ADDRESS',
      value: words(address),
      valueText: joined(address),
      typeConfidence: 95,
      group: g,
    });
    const zip = zipOf(address);
    if (zip) fields.push({ type: 'ZIP_CODE', value: zip, typeConfidence: 95, group: g });
    fields.push({
      type: 'ADDRESS_BLOCK',
      value: words(address),
      valueText: joined(address),
      typeConfidence: 95,
      group: g,
    });
  }
  if (name) fields.push({ type: 'NAME', value: name.words, typeConfidence: nameConfidence, group: g });
  return fields;
}

export interface Parties {
  /** The vendor's name line, and its label when one was printed ("Supplier:"). */
  vendor?: { line: TextLine; label?: TextWord[]; confidence: number };
  /** The receiver's address as read under its label ("Bill to:") or in an envelope's window, name first. */
  receiver?: { lines: TextLine[]; label?: TextWord[] };
  /** Lines already given to another field. */
  taken: ReadonlySet<TextLine>;
}

/** The grouped and flat fields of both parties. */
export function partyFields(layout: PageLayout, parties: Parties): PartyField[] {
  const grouped: PartyField[] = [];
  const flat: PartyField[] = [];
  const { vendor, receiver } = parties;
  if (receiver && receiver.lines.length > 0) {
    const [name, ...rest] = receiver.lines;
    // A name line holds no digits: "1 High Street" under the label is an address without a name.
    const named = name && !/\d/.test(lineText(name)) ? name : undefined;
    grouped.push(...group('RECEIVER', named, named ? rest : receiver.lines, 95));
    if (named) flat.push({ type: 'RECEIVER_NAME', value: named.words, typeConfidence: 95 });
  }
  if (vendor) {
    const address = vendor.label ? [] : letterheadAddress(layout, vendor.line, parties.taken);
    grouped.push(...group('VENDOR', vendor.line, address, vendor.confidence));
    flat.push({
      type: 'VENDOR_NAME',
      ...(vendor.label ? { label: vendor.label } : {}),
      value: vendor.line.words,
      typeConfidence: vendor.confidence,
    });
    if (address.length > 0)
      flat.push({
        type: 'VENDOR_ADDRESS',
        value: words(address),
        valueText: joined(address),
        typeConfidence: 95,
      });
  }
  const url = vendorUrl(layout);
  if (url) flat.push({ type: 'VENDOR_URL', value: [url], typeConfidence: 95 });
  return [...grouped, ...flat];
}

/** The first web address printed on the page; an e-mail address is not one. */
function vendorUrl(layout: PageLayout): TextWord | undefined {
  for (const line of layout.page.lines) {
    const word = line.words.find(
      (w) => !w.text.includes('@') && /^(?:https?:\/\/|www\.)[a-z0-9-]+(?:\.[a-z0-9-]+)+\S*$/i.test(w.text),
    );
    if (word) return word;
  }
  return undefined;
}
