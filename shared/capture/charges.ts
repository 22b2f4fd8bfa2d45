import { findDates } from './date-text.ts';
import type { ExtractedRate, RateKind } from './model.ts';
import { findNumbers, type NumberToken } from './number-text.ts';

/**
 * Charge lines: what kind a line is from its description, the unit it is priced in, and a line read
 * from free text ('Day units 1,000 kWh @ 25.123p/kWh £251.23'). Prices end up in pounds.
 */

/**
 * What a charge line is, from its description: the levy, VAT, a standing (fixed daily) charge, energy or
 * volume (units, kWh, day and night rates), or any other charge, such as pass-through and service
 * charges even when they are priced per kWh or per day. Only a line without a description is judged
 * by its unit.
 */
export function classifyCharge(description: string, unit?: string): RateKind {
  const d = description.toLowerCase();
  if (/climate\s*change\s*levy|\bccl\b/.test(d)) return 'ccl';
  if (/\bvat\b/.test(d)) return 'vat';
  if (/standing|fixed\s+(?:daily\s+)?charge|daily\s+charge|\bdays\b|per\s+day|p\s*\/\s*day/.test(d))
    return 'standing';
  if (
    /kwh|mwh|\bunits?\b|\bday\b|night|peak|evening|weekend|\benergy\b|consumption|\bused\b|volumetric|\bm3\b|m³|\bhcf\b|therms?\b/.test(
      d,
    )
  ) {
    return 'unit';
  }
  if (!/[a-z]/.test(d) && unit) return unit === 'day' ? 'standing' : 'unit';
  return 'other';
}

/** A unit as printed ('KWH', 'days', 'm3', 'cubic metres') in one spelling; undefined when none. */
export function normaliseUnit(text: string): string | undefined {
  const t = text.toLowerCase();
  if (/kvarh/.test(t)) return 'kVArh';
  if (/kva\s*days?\b/.test(t)) return 'kVA day';
  if (/kwh/.test(t)) return 'kWh';
  if (/mwh/.test(t)) return 'MWh';
  if (/kva\b/.test(t)) return 'kVA';
  if (/\bm3\b|m³|cubic\s+met|\bcu\.?\s*m\b/.test(t)) return 'm³';
  if (/\bhcf\b/.test(t)) return 'hcf';
  if (/\bft3\b|ft³|cubic\s+f(ee|oo)t/.test(t)) return 'ft³';
  if (/\blitres?\b|\bltrs?\b/.test(t)) return 'litre';
  if (/\bdays?\b/.test(t)) return 'day';
  if (/\b(kg|kilograms?)\b/.test(t)) return 'kg';
  if (/\b(tonnes?)\b/.test(t)) return 'tonne';
  return undefined;
}

/** The row says its rate is in pence ('p/kWh', 'pence per day'). */
export function mentionsPence(text: string): boolean {
  return /\d\s*p\b|\bp\s*\/\s*(kwh|day|unit|m3|m³)|\bpence\b|\(p\)/i.test(text);
}

const close = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.02, Math.abs(b) * 0.01);

/**
 * A unit rate read without a pence sign is taken as pence when the line's figures only agree that way
 * (units x rate = amount x 100), or when the line says pence.
 */
export function reconcilePence<T extends Pick<ExtractedRate, 'units' | 'unitRate' | 'amount'>>(
  rate: T,
  rowText: string,
  alreadyPounds: boolean,
): T {
  if (rate.unitRate === undefined || alreadyPounds) return rate;
  const { units, unitRate, amount } = rate;
  if (units !== undefined && amount !== undefined && units !== 0) {
    if (close(units * unitRate, amount)) return rate;
    if (close((units * unitRate) / 100, amount)) return { ...rate, unitRate: toPounds(unitRate) };
  }
  return mentionsPence(rowText) ? { ...rate, unitRate: toPounds(unitRate) } : rate;
}

export function toPounds(pence: number): number {
  return Number((pence / 100).toPrecision(12));
}

const UNITS = String.raw`(kvarh|kva\s*days?|kva|kwh|mwh|units?|days?|m3|m³|hcf|litres?|kg)(?![a-z])`;
const UNIT_AFTER = new RegExp(String.raw`^\s*${UNITS}`, 'i');
const RATE_AFTER = new RegExp(String.raw`^\s*(p|pence)?\s*(\/|per|a)\s*${UNITS}`, 'i');

function decimals(token: NumberToken): number {
  return /[.,](\d+)$/.exec(token.digits)?.[1]?.length ?? 0;
}

/**
 * A charge line read from the text of one row. Numbers followed by a unit are quantities, numbers in
 * pence, after '@' or before '/kWh' are rates, and the right-most amount is what the line costs.
 */
export function parseChargeText(text: string): Omit<ExtractedRate, '_id' | 'kind'> | undefined {
  const dates = findDates(text);
  let masked = text;
  for (const d of dates)
    masked = masked.slice(0, d.start) + ' '.repeat(d.end - d.start) + masked.slice(d.end);
  // Words in brackets describe the line ('(400 kVA)', '(95% of water)'); their figures are not its own.
  masked = masked.replace(/\([^()]*[A-Za-z][^()]*\)/g, (m) => ' '.repeat(m.length));
  const tokens = findNumbers(masked).filter((t) => !t.percent);
  if (tokens.length === 0) return undefined;
  let units: NumberToken | undefined;
  let unit: string | undefined;
  let rate: NumberToken | undefined;
  let rateUnit: string | undefined;
  const rest: NumberToken[] = [];
  for (const token of tokens) {
    const after = masked.slice(token.end);
    const before = masked.slice(Math.max(0, token.start - 4), token.start);
    const rateMatch = RATE_AFTER.exec(after);
    if (!rate && (token.pence || rateMatch || /(?:@|\bat)\s*$/i.test(before))) {
      rate = token;
      if (rateMatch?.[3]) rateUnit = normaliseUnit(rateMatch[3]);
      continue;
    }
    const unitMatch = UNIT_AFTER.exec(after);
    if (!units && unitMatch && !token.currency) {
      units = token;
      unit = normaliseUnit(unitMatch[1] ?? '');
      continue;
    }
    rest.push(token);
  }
  let amount: NumberToken | undefined;
  for (let i = rest.length - 1; i >= 0 && !amount; i--) {
    const t = rest[i] as NumberToken;
    if (t.currency || decimals(t) === 2) amount = t;
  }
  amount ??= rest[rest.length - 1];
  const loose = rest.filter((t) => t !== amount);
  if (!units && loose.length > 0 && (rate || loose.length > 1)) units = loose.shift();
  if (!rate && loose.length > 0) rate = loose.shift();
  const first = Math.min(...[...tokens, ...dates].map((t) => t.start));
  const description = text
    .slice(0, first)
    .replace(/\s*\(\s*$/, '')
    .replace(/[\s@:£$€(-]+$/, '')
    .trim();
  let unitRate = rate?.value;
  const inPence = Boolean(rate?.pence);
  if (unitRate !== undefined && inPence) unitRate = toPounds(unitRate);
  const line: Omit<ExtractedRate, '_id' | 'kind'> = {
    description:
      description ||
      masked
        .replace(/[\d.,£$€@%()/-]+/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ...(units ? { units: units.value } : {}),
    ...((unit ?? rateUnit) ? { unit: unit ?? rateUnit } : {}),
    ...(unitRate !== undefined ? { unitRate } : {}),
    ...(amount ? { amount: amount.value } : {}),
    ...(dates[0] ? { startDate: dates[0].iso } : {}),
    ...(dates[1] ? { endDate: dates[1].iso } : {}),
  };
  return reconcilePence(line, text, inPence);
}
