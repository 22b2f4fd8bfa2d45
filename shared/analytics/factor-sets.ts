import { EMISSION_FACTORS, type EmissionFactor } from '../domain/emission-factors.ts';

/**
 * An edition of the emission factor tables a company's figures can be stated in. Each factor in it has a
 * version per year (`desnz-2025-v1`), which every figure keeps; a corrected edition gives the corrected
 * factors new versions, so figures of either edition name theirs. A company moves to another edition only
 * by an explicit restatement, which recomputes its figures and records what changed.
 */
export interface FactorSetEdition {
  id: string;
  label: string;
  factors: readonly EmissionFactor[];
}

export const FACTOR_SET_EDITIONS: readonly FactorSetEdition[] = [
  {
    id: 'desnz-v1',
    label: 'UK Government GHG Conversion Factors (DESNZ) 2023–2025, first edition',
    factors: EMISSION_FACTORS,
  },
];

/** The edition a company's figures are in until it restates them. */
export const DEFAULT_FACTOR_SET = 'desnz-v1';

export function findFactorSetEdition(id: string): FactorSetEdition | undefined {
  return FACTOR_SET_EDITIONS.find((e) => e.id === id);
}
