import { normaliseUnit } from './charges.ts';
import { parseReadType } from './formats.ts';
import {
  bestByKey,
  type Candidate,
  type Region,
  type SearchScope,
  toValue,
  WEAK_FACTOR,
} from './generic-labels.ts';
import { type RegisterRead, readRegisters } from './generic-reads.ts';
import { findMpans } from './meter-points.ts';
import type { ExtractedRate, ExtractedReading, ExtractedValue, ExtractedValues } from './model.ts';
import { type PageDocument, rowsBetween, spanOfWords, subSpan, verticalOverlap } from './pages.ts';
import { readingFromValues } from './value-parsing.ts';

/**
 * The meters of an invoice without a template: where each meter point is printed and the section of
 * the bill it heads, its reads (per register from a table of reads, or by their labels) and markers,
 * its consumption and unit, and the money of its own charge lines.
 */

export interface MeterPointAt {
  value: ExtractedValue;
  page: number;
  top: number;
}

const ENDS_IN_AMOUNT = /\d\.\d{2}\s*(?:CR|DR)?\s*$/i;

const MPAN_LABEL = /\bmpan\b|\bmeters\b|\bsupply\s*(?:number|no\b)|\bmeter\s*point|\bs\s*\/?\s*n\b|^\s*s\b/i;

/** The top line of an MPAN's S-box printed above its core: profile class, meter time-switch code, LLFC. */
const S_BOX_TOP_LINE = /(?:^|\s)S?\s*\d{2}\s+\d{3}\s+\d{3}\s*$/;

/** MPAN cores on the pages in reading order, every time they are printed. */
export function mpanOccurrences(doc: PageDocument, pages: readonly number[]): MeterPointAt[] {
  const found: MeterPointAt[] = [];
  for (const n of pages) {
    const page = doc.pages[n - 1];
    if (!page) continue;
    const rows = rowsBetween(page);
    rows.forEach((row, r) => {
      for (const m of findMpans(row.text)) {
        const part = subSpan(row, m.start, m.end);
        const labelled =
          MPAN_LABEL.test(row.text.slice(0, m.start)) ||
          MPAN_LABEL.test(rows[r - 1]?.text ?? '') ||
          S_BOX_TOP_LINE.test(rows[r - 1]?.text ?? '');
        // Thirteen digits whose check digit happens to fall right are no meter point without a label
        // or the S-box that says they are one.
        if (!labelled && !m.topLine) continue;
        const top = part.box?.Top ?? 0;
        // The meter's heading rows (its serial, the top line of its MPAN) sit just above the core.
        let sectionTop = top;
        for (let k = r - 1; k >= 0; k--) {
          const above = rows[k];
          if (!above?.box || above.box.Top < top - 0.05 || ENDS_IN_AMOUNT.test(above.text)) break;
          sectionTop = above.box.Top;
        }
        found.push({ value: toValue(part, m.core, !labelled), page: n, top: sectionTop });
      }
    });
  }
  return found;
}

/**
 * The sections of a multi-meter invoice: each meter's from where its number is printed to where the
 * next meter's is. Of several printings of one number, the one heading the longest section wins, so a
 * summary table on the first page does not claim the detail.
 */
export function meterSections(
  points: readonly MeterPointAt[],
  pages: readonly number[],
): Map<string, { regions: Region[]; at: MeterPointAt }> {
  const sections = new Map<string, { regions: Region[]; at: MeterPointAt; size: number }>();
  points.forEach((point, k) => {
    const next = points[k + 1];
    const regions: Region[] = [];
    for (const n of pages) {
      if (n < point.page || (next && n > next.page)) continue;
      const top = n === point.page ? Math.max(0, point.top - 0.005) : 0;
      const bottom = next && n === next.page ? next.top - 0.002 : 1;
      if (bottom > top) regions.push({ page: n, top, bottom });
    }
    const size = regions.reduce((s, r) => s + r.bottom - r.top, 0);
    const key = String(point.value.value);
    const current = sections.get(key);
    if (!current || size > current.size) sections.set(key, { regions, at: point, size });
  });
  return sections;
}

/** The marker printed after a read ('12345 E', '12345 (A)', '12345E'), as printed. */
function readMarker(doc: PageDocument, value: ExtractedValue | undefined): string | undefined {
  if (!value?.bbox || value.page === undefined) return undefined;
  const page = doc.pages[value.page - 1];
  if (!page) return undefined;
  const box = value.bbox;
  const right = box.Left + box.Width;
  const own = page.words.find(
    (w) => Math.abs(w.box.Left + w.box.Width - right) < 0.002 && verticalOverlap(w.box, box) > 0.5,
  );
  const glued = own?.text.replace(/[\d,.\s]/g, '') ?? '';
  if (/^\(?[AEC]\)?$/i.test(glued)) return glued.replace(/[()]/g, '');
  const next = page.words
    .filter(
      (w) => w.box.Left >= right - 0.001 && w.box.Left - right < 0.06 && verticalOverlap(w.box, box) >= 0.5,
    )
    .sort((a, b) => a.box.Left - b.box.Left)[0];
  const marker = next?.text.replace(/[()[\]]/g, '') ?? '';
  return /^(?:a|e|c|est\.?|estd|estimated?|actual|act|customer|cust)$/i.test(marker) ? marker : undefined;
}

/** The unit printed right after a consumption, or named by its label. */
function unitAfter(doc: PageDocument, value: ExtractedValue | undefined): string | undefined {
  if (!value?.bbox || value.page === undefined) return undefined;
  const page = doc.pages[value.page - 1];
  if (!page) return undefined;
  const box = value.bbox;
  const right = box.Left + box.Width;
  const words = page.words
    .filter(
      (w) => w.box.Left >= right - 0.002 && w.box.Left - right < 0.08 && verticalOverlap(w.box, box) >= 0.5,
    )
    .sort((a, b) => a.box.Left - b.box.Left)
    .slice(0, 2);
  return normaliseUnit(spanOfWords(words, value.page, true).text) ?? normaliseUnit(value.text);
}

export function derived(value: number, text: string, confidence: number, weak = true): ExtractedValue {
  return { value, text, confidence: Math.round(confidence * (weak ? WEAK_FACTOR : 1) * 10) / 10 };
}

export const sumOf = (lines: readonly ExtractedRate[]) =>
  Math.round(lines.reduce((s, l) => s + (l.amount ?? 0), 0) * 100) / 100;

interface MeterReadOut {
  values: ExtractedValues;
  readings: ExtractedReading[];
}

/** Readings of a meter: one per register of its table of reads, else from its labelled reads. */
function readingsOf(
  registers: readonly RegisterRead[],
  values: ExtractedValues,
  date: ExtractedValue | undefined,
) {
  if (registers.length === 0) {
    const reading = readingFromValues({ ...values, ...(date ? { endDate: date } : {}) });
    return reading ? [reading] : [];
  }
  return registers.map((r): ExtractedReading => {
    const serial = r.meterSerialNumber ?? values.meterSerialNumber?.value;
    const opening = r.openingRead?.value;
    const closing = r.closingRead?.value;
    const consumption = r.consumption?.value;
    return {
      ...(typeof serial === 'string' ? { meterSerialNumber: serial } : {}),
      ...(r.register ? { register: r.register } : {}),
      ...(typeof opening === 'number' ? { openingRead: opening } : {}),
      ...(typeof closing === 'number' ? { closingRead: closing } : {}),
      readType:
        r.closingType === 'estimated' ? 'estimated' : r.closingType === 'customer' ? 'customer' : 'actual',
      ...(typeof consumption === 'number' ? { consumption } : {}),
      ...(typeof date?.value === 'string' ? { date: date.value } : {}),
    };
  });
}

/** Meter values within a scope: meter point, serial, reads and their type, consumption and its unit. */
export function readMeter(
  doc: PageDocument,
  scope: SearchScope,
  candidates: readonly Candidate[],
  point: ExtractedValue | undefined,
  charges: readonly ExtractedRate[],
  date: ExtractedValue | undefined,
): MeterReadOut {
  const best = bestByKey(candidates);
  const values: ExtractedValues = {};
  for (const key of ['meterSerialNumber', 'openingRead', 'closingRead', 'consumption'] as const) {
    const found = best.get(key);
    if (found) values[key] = found.value;
  }
  const mprn = best.get('meterPointNumber');
  if (point) values.meterPointNumber = point;
  else if (mprn) values.meterPointNumber = mprn.value;

  const registers = readRegisters(doc, scope.pages, scope.regions);
  if (registers.length > 0) {
    // A meter with several registers has no one opening or closing read: they are per register.
    delete values.openingRead;
    delete values.closingRead;
    const [only] = registers;
    if (registers.length === 1 && only) {
      if (only.openingRead) values.openingRead = only.openingRead;
      if (only.closingRead) values.closingRead = only.closingRead;
    }
    const serial = registers.find((r) => r.meterSerialNumber)?.meterSerialNumber;
    if (!values.meterSerialNumber && serial)
      values.meterSerialNumber = { value: serial, text: serial, confidence: 90 };
    const closing = registers.filter((r) => r.closingType !== undefined);
    if (closing.length > 0) {
      const estimated = closing.some((r) => r.closingType === 'estimated');
      const from = closing[0]?.closingRead;
      values.isEstimate = {
        value: estimated,
        text: estimated ? 'E' : 'A',
        ...(from?.page !== undefined ? { page: from.page } : {}),
        confidence: from?.confidence ?? 80,
      };
    }
  } else {
    const marker = readMarker(doc, values.closingRead) ?? readMarker(doc, values.openingRead);
    if (marker) {
      const from = values.closingRead ?? values.openingRead;
      values.isEstimate = {
        value: parseReadType(marker) === 'estimated',
        text: marker,
        ...(from?.page !== undefined ? { page: from.page } : {}),
        confidence: from?.confidence ?? 50,
      };
    }
  }

  const registerUse = registers.map((r) => r.consumption?.value);
  if (registers.length > 1) delete values.consumption;
  if (registers.length > 1 && registerUse.every((c) => typeof c === 'number')) {
    // Several registers: the meter's consumption is what they add up to.
    const total = (registerUse as number[]).reduce((s, c) => s + c, 0);
    const unit = registers[0]?.unit;
    if (!unit || registers.every((r) => r.unit === unit)) {
      values.consumption = derived(total, registerUse.join(' + '), 90, false);
      if (unit) values.consumptionUnit = { value: unit, text: unit, confidence: 90 };
    }
  }
  const unitLines = charges.filter((c) => c.kind === 'unit' && c.units !== undefined);
  const lineUnits = new Set(unitLines.map((c) => c.unit ?? ''));
  const labelled = registers.length > 1 ? undefined : best.get('consumption');
  const labelledUnit = labelled
    ? (unitAfter(doc, labelled.value) ?? normaliseUnit(labelled.label ?? ''))
    : undefined;
  // Energy is billed in kWh: a volume of gas read off the meter, or a weak 'Units' heading, gives way
  // to the kWh the charge lines add up to.
  const preferLines =
    unitLines.length > 0 &&
    lineUnits.size === 1 &&
    (labelled?.weak || (lineUnits.has('kWh') && labelledUnit !== undefined && labelledUnit !== 'kWh'));
  let unit = labelled && !preferLines ? labelledUnit : undefined;
  if (preferLines) delete values.consumption;
  if (!values.consumption && unitLines.length > 0 && lineUnits.size === 1) {
    const total = unitLines.reduce((s, c) => s + (c.units ?? 0), 0);
    values.consumption = derived(
      Math.round(total * 1000) / 1000,
      unitLines.map((c) => c.units).join(' + '),
      90,
    );
    unit = unitLines[0]?.unit;
  }
  const opening = values.openingRead?.value;
  const closing = values.closingRead?.value;
  if (
    !values.consumption &&
    typeof opening === 'number' &&
    typeof closing === 'number' &&
    closing >= opening
  ) {
    values.consumption = derived(closing - opening, `${closing} - ${opening}`, 80);
  }
  if (values.consumption) {
    unit ??=
      registers.find((r) => r.unit)?.unit ??
      (/kwh/i.test(scope.pages.map((n) => doc.pages[n - 1]?.text ?? '').join(' ')) ? 'kWh' : undefined);
    if (unit) values.consumptionUnit = { value: unit, text: unit, confidence: values.consumption.confidence };
  }
  return { values, readings: readingsOf(registers, values, date) };
}

/** The money of a meter's own charge lines: standing charges, the levy, and its unit rate. */
export function chargeValues(charges: readonly ExtractedRate[]): ExtractedValues {
  const values: ExtractedValues = {};
  const standing = charges.filter((c) => c.kind === 'standing' && c.amount !== undefined);
  if (standing.length > 0) {
    values.standingCharge = derived(sumOf(standing), standing.map((c) => c.amount).join(' + '), 90, false);
  }
  const ccl = charges.filter((c) => c.kind === 'ccl' && c.amount !== undefined);
  if (ccl.length > 0)
    values.climateChangeLevy = derived(sumOf(ccl), ccl.map((c) => c.amount).join(' + '), 90, false);
  // One unit rate only when the energy is billed at one rate: a day/night bill has none.
  const unitLines = charges.filter((c) => c.kind === 'unit');
  const rate = unitLines[0]?.unitRate;
  if (unitLines.length === 1 && rate !== undefined) values.unitRate = derived(rate, String(rate), 90, false);
  return values;
}
