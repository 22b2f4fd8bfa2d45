import type { GasMeterChoice } from '../../../shared/schemas/util-staff.ts';

/** What the field shows for a chosen meter: its name and, when it has one, its MPRN. */
export const gasMeterLabel = (m: GasMeterChoice) =>
  m.meterPointNumber ? `${m.name} · MPRN ${m.meterPointNumber}` : m.name;

/**
 * Whether a meter answers what was typed: every word typed is part of its name, MPRN or site, in any
 * order, so an MPRN typed in digit groups still finds it.
 */
export function gasMeterMatches(m: GasMeterChoice, search: string): boolean {
  const haystack = [m.name, m.meterPointNumber, m.siteName].filter(Boolean).join(' ').toLowerCase();
  return search
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}
