import { normaliseUnit } from './charges.ts';
import { findDates } from './date-text.ts';
import { parseBoolean, parseReadType } from './formats.ts';
import { normaliseMeterPoint } from './meter-points.ts';
import type {
  ExtractedReading,
  ExtractedValue,
  ExtractedValues,
  InvoiceKey,
  TemplateValueType,
} from './model.ts';
import { findNumbers, findPrices, numberSeparators, pickPrice } from './number-text.ts';

/** A value read from a text, with where in the text it was printed. */
export interface ParsedValue {
  value: string | number | boolean;
  start: number;
  end: number;
}

function whole(text: string, value: string | boolean): ParsedValue {
  return { value, start: 0, end: text.length };
}

/**
 * A value of a given type from the text of a bound: prices in pounds (pence converted), numbers,
 * ISO dates (a month alone means its last day for a period end), booleans from read markers; text as
 * printed, except meter point numbers (the MPAN core or MPRN digits) and units (one spelling).
 */
export function parseTyped(
  type: TemplateValueType,
  key: InvoiceKey,
  text: string,
  format?: string,
): ParsedValue | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  switch (type) {
    case 'price': {
      const token = pickPrice(findPrices(text, format, { penceToPounds: true }));
      return token ? { value: token.value, start: token.start, end: token.end } : null;
    }
    case 'number': {
      const token = findNumbers(text, numberSeparators(format))[0];
      return token ? { value: token.value, start: token.start, end: token.end } : null;
    }
    case 'date': {
      const token = findDates(text, format, { monthEnd: key === 'endDate' })[0];
      return token ? { value: token.iso, start: token.start, end: token.end } : null;
    }
    case 'boolean': {
      const value = parseBoolean(text);
      return value === null ? null : whole(text, value);
    }
    default: {
      if (key === 'meterPointNumber') return whole(text, normaliseMeterPoint(trimmed));
      if (key === 'consumptionUnit') return whole(text, normaliseUnit(trimmed) ?? trimmed);
      return whole(text, trimmed.replace(/\s+/g, ' '));
    }
  }
}

function numeric(value: ExtractedValue | undefined): number | undefined {
  return typeof value?.value === 'number' ? value.value : undefined;
}

/** The reading of a meter from its values: reads, their type, serial and consumption. */
export function readingFromValues(values: ExtractedValues): ExtractedReading | undefined {
  const opening = numeric(values.openingRead);
  const closing = numeric(values.closingRead);
  if (opening === undefined && closing === undefined) return undefined;
  const marker = values.isEstimate;
  const kind = marker ? parseReadType(marker.text) : null;
  const readType: ExtractedReading['readType'] =
    kind === 'customer' ? 'customer' : marker?.value === true ? 'estimated' : 'actual';
  const serial = values.meterSerialNumber?.value;
  const consumption = numeric(values.consumption);
  const date = values.endDate?.value;
  return {
    ...(typeof serial === 'string' ? { meterSerialNumber: serial } : {}),
    ...(opening !== undefined ? { openingRead: opening } : {}),
    ...(closing !== undefined ? { closingRead: closing } : {}),
    readType,
    ...(consumption !== undefined ? { consumption } : {}),
    ...(typeof date === 'string' ? { date } : {}),
  };
}
