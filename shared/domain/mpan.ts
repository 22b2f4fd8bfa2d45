/**
 * MPAN (Meter Point Administration Number) of an electricity supply. The 13-digit core is the distributor
 * id (2 digits), a unique id (8), two more digits and a check digit; a full MPAN adds a top line of
 * profile class (2), meter time-switch code (3) and line loss factor class (3).
 */
export const MPAN_MESSAGE = 'Must be a valid 13-digit MPAN';

const CHECK_WEIGHTS = [3, 5, 7, 13, 17, 19, 23, 29, 31, 37, 41, 43] as const;

/** Distribution network areas by the first two digits of an MPAN core. */
export const MPAN_DISTRIBUTORS: Readonly<Record<string, { area: string; operator: string }>> = {
  '10': { area: 'Eastern England', operator: 'UK Power Networks' },
  '11': { area: 'East Midlands', operator: 'National Grid Electricity Distribution' },
  '12': { area: 'London', operator: 'UK Power Networks' },
  '13': { area: 'Merseyside and North Wales', operator: 'SP Energy Networks' },
  '14': { area: 'West Midlands', operator: 'National Grid Electricity Distribution' },
  '15': { area: 'North East England', operator: 'Northern Powergrid' },
  '16': { area: 'North West England', operator: 'Electricity North West' },
  '17': { area: 'North Scotland', operator: 'Scottish and Southern Electricity Networks' },
  '18': { area: 'South Scotland', operator: 'SP Energy Networks' },
  '19': { area: 'South East England', operator: 'UK Power Networks' },
  '20': { area: 'Southern England', operator: 'Scottish and Southern Electricity Networks' },
  '21': { area: 'South Wales', operator: 'National Grid Electricity Distribution' },
  '22': { area: 'South West England', operator: 'National Grid Electricity Distribution' },
  '23': { area: 'Yorkshire', operator: 'Northern Powergrid' },
};

/** The check digit of an MPAN core from its first 12 digits: weighted sum, mod 11, mod 10. */
export function mpanCheckDigit(first12: string): number {
  if (!/^\d{12}$/.test(first12)) throw new Error('An MPAN check digit needs exactly 12 digits');
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (CHECK_WEIGHTS[i] as number);
  return (sum % 11) % 10;
}

export function isValidMpanCore(value: string): boolean {
  if (!/^\d{13}$/.test(value)) return false;
  return mpanCheckDigit(value.slice(0, 12)) === Number(value[12]);
}

/** The field message for an MPAN core, or undefined when it is valid. Spaces between digit groups are allowed. */
export function mpanError(value: string): string | undefined {
  return isValidMpanCore(value.replace(/\s+/g, '')) ? undefined : MPAN_MESSAGE;
}

export interface FullMpan {
  profileClass: string;
  meterTimeswitchCode: string;
  lineLossFactorClass: string;
  core: string;
  distributorId: string;
}

/**
 * A full 21-digit MPAN as printed on a bill ("S 02 801 100 / 13 1234 5678 907"): top line then core.
 * Returns undefined unless it has 21 digits and a valid core. A leading "S" and separators are ignored.
 */
export function parseFullMpan(text: string): FullMpan | undefined {
  const digits = text.replace(/^\s*S\s*/i, '').replace(/[\s/-]+/g, '');
  if (!/^\d{21}$/.test(digits)) return undefined;
  const core = digits.slice(8);
  if (!isValidMpanCore(core)) return undefined;
  return {
    profileClass: digits.slice(0, 2),
    meterTimeswitchCode: digits.slice(2, 5),
    lineLossFactorClass: digits.slice(5, 8),
    core,
    distributorId: core.slice(0, 2),
  };
}
