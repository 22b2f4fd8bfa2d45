/**
 * VAT on energy supplies: the reduced 5% rate applies to qualifying use (domestic, charity non-business)
 * and to supplies under the de minimis monthly quantities; otherwise the standard 20%. The Climate Change
 * Levy itself bears the rate of the supply it is charged on.
 */
export const STANDARD_VAT_RATE = 20;
export const REDUCED_VAT_RATE = 5;

/** kWh a month at or under which a business supply still gets the reduced rate. */
export const DE_MINIMIS_KWH_PER_MONTH = {
  gas: 4397,
  /** The commonly quoted figure; to be checked against HMRC's notice. */
  electricity: 1000,
} as const;

export function energyVatRate(input: {
  utility: 'electricity' | 'gas';
  kwhPerMonth: number;
  qualifyingUse?: boolean;
}): number {
  if (input.qualifyingUse) return REDUCED_VAT_RATE;
  return input.kwhPerMonth <= DE_MINIMIS_KWH_PER_MONTH[input.utility] ? REDUCED_VAT_RATE : STANDARD_VAT_RATE;
}
