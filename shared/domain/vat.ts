/**
 * VAT on energy supplies: the reduced 5% rate applies to qualifying use (domestic, charity non-business)
 * and to supplies under the de minimis quantities; otherwise the standard 20%. The Climate Change Levy
 * itself bears the rate of the supply it is charged on.
 */
export const STANDARD_VAT_RATE = 20;
export const REDUCED_VAT_RATE = 5;

export interface DeMinimisLimit {
  /** kWh a day, averaged over the days the bill covers, at or under which the reduced rate applies */
  kwhPerDay: number;
  /** The monthly figure the law states, which the daily one stands for */
  kwhPerMonth: number;
  source: string;
}

/**
 * HMRC judges the de minimis by the day because bills rarely cover a whole month: a 31-day bill of
 * 1,020 kWh (32.9 a day) is within the electricity limit although it is over 1,000 kWh.
 */
export const DE_MINIMIS: Readonly<Record<'electricity' | 'gas', DeMinimisLimit>> = {
  electricity: {
    kwhPerDay: 33,
    kwhPerMonth: 1000,
    source: 'HMRC, Fuel and power (VAT Notice 701/19) section 5: 33 kWh a day (1,000 kWh a month)',
  },
  gas: {
    kwhPerDay: 145,
    kwhPerMonth: 4397,
    source:
      'VAT Act 1994 Schedule 7A Group 1 Note 5(c) and HMRC manual VFUP2310: 4,397 kWh a month, 145 kWh a day (5 therms)',
  },
};

export function energyVatRate(input: {
  utility: 'electricity' | 'gas';
  kwhPerDay: number;
  qualifyingUse?: boolean;
}): number {
  if (input.qualifyingUse) return REDUCED_VAT_RATE;
  return input.kwhPerDay <= DE_MINIMIS[input.utility].kwhPerDay ? REDUCED_VAT_RATE : STANDARD_VAT_RATE;
}
