import { isValidMpanCore, parseFullMpan } from '../domain/mpan.ts';
import { isValidMprn } from '../domain/mprn.ts';
import { findDates } from './date-text.ts';

/**
 * Meter point numbers in printed text. An MPAN is found by its check digit, whether printed as 13 digits,
 * in groups ('13 1234 5678 907') or as the full 21 digits of the S-box (top line then core); an MPRN has
 * no check digit, so only a label says a number is one.
 */

export interface MpanMatch {
  /** The 13-digit core. */
  core: string;
  /** The 8 digits of the top line when the full MPAN was printed. */
  topLine?: string;
  start: number;
  end: number;
}

/**
 * Runs of digits with single separators between them, as meter numbers are printed. A slash parts a
 * date, not the groups of a meter number.
 */
const DIGIT_RUN = /(?<![\dA-Za-z])(?:S\s*)?\d+(?:[ \u00a0-]{1,3}\d+)*(?![\d])/g;

/** The text with its dates blanked out, so that a date and a reading beside it never make one number. */
function withoutDates(text: string): string {
  let masked = text;
  for (const d of findDates(text)) {
    masked = masked.slice(0, d.start) + ' '.repeat(d.end - d.start) + masked.slice(d.end);
  }
  return masked;
}

export function findMpans(text: string): MpanMatch[] {
  const found: MpanMatch[] = [];
  for (const run of withoutDates(text).matchAll(DIGIT_RUN)) {
    const groups = [...run[0].matchAll(/\d+/g)].map((g) => ({
      digits: g[0],
      start: run.index + g.index,
      end: run.index + g.index + g[0].length,
    }));
    let i = 0;
    while (i < groups.length) {
      const match = mpanAt(groups, i);
      if (match) {
        found.push(match.mpan);
        i = match.next;
      } else {
        i++;
      }
    }
  }
  return found;
}

type Group = { digits: string; start: number; end: number };

/**
 * An MPAN starting at a group of digits. Printed cores start with their two-digit distributor id (or
 * are 13 digits in one), full MPANs with the two-digit profile class; a window that starts mid-group
 * is not an MPAN, however its check digit falls.
 */
function mpanAt(groups: readonly Group[], i: number): { mpan: MpanMatch; next: number } | undefined {
  const first = groups[i];
  if (!first || (first.digits.length !== 2 && first.digits.length !== 13 && first.digits.length !== 21)) {
    return undefined;
  }
  let best: { mpan: MpanMatch; next: number } | undefined;
  let digits = '';
  for (let j = i; j < groups.length && digits.length < 21; j++) {
    const group = groups[j] as Group;
    digits += group.digits;
    if (digits.length === 21) {
      const full = parseFullMpan(digits);
      if (full)
        best = {
          mpan: { core: full.core, topLine: digits.slice(0, 8), start: first.start, end: group.end },
          next: j + 1,
        };
    } else if (digits.length === 13 && isValidMpanCore(digits)) {
      best = { mpan: { core: digits, start: first.start, end: group.end }, next: j + 1 };
    }
  }
  return best;
}

/** An MPRN in a text that follows an MPRN label: 6 to 11 digits, maybe printed in groups. */
export function findMprn(text: string): { mprn: string; start: number; end: number } | undefined {
  for (const run of text.matchAll(/(?<![\dA-Za-z])\d+(?: \d+)*(?!\d)/g)) {
    const digits = run[0].replace(/\D/g, '');
    if (isValidMprn(digits)) return { mprn: digits, start: run.index, end: run.index + run[0].length };
  }
  return undefined;
}

/** A meter point number as stored: the MPAN core, or the digits of an MPRN, or the text as printed. */
export function normaliseMeterPoint(text: string): string {
  const mpan = findMpans(text)[0];
  if (mpan) return mpan.core;
  const digits = text.replace(/[\s-]/g, '');
  if (isValidMprn(digits)) return digits;
  return text.trim().replace(/\s+/g, ' ');
}
