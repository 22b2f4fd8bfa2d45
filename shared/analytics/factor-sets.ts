import { EMISSION_FACTORS, type EmissionFactor, FIRST_EDITION_FACTORS } from '../domain/emission-factors.ts';

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
  /** The edition new figures are worked out in. */
  current?: boolean;
}

export const FACTOR_SET_EDITIONS: readonly FactorSetEdition[] = [
  {
    id: 'desnz-v1',
    label: 'UK Government GHG Conversion Factors (DESNZ) 2023–2025, first edition',
    factors: FIRST_EDITION_FACTORS,
  },
  {
    id: 'desnz-v2',
    label:
      'UK Government GHG Conversion Factors (DESNZ) 2022–2025, second edition (natural gas 2024 and 2025 corrected, 2025 water supply corrected; 2022, 2024 well-to-tank, 2023 and 2025 water and 2023 and 2024 waste added)',
    factors: EMISSION_FACTORS,
    current: true,
  },
];

/**
 * The edition a company's figures are in until it restates them: the first, which every figure written
 * before the second edition was worked out in.
 */
export const DEFAULT_FACTOR_SET = 'desnz-v1';

/** The edition new figures are worked out in, which a company's older figures can be restated in. */
export const CURRENT_FACTOR_SET = FACTOR_SET_EDITIONS.find((e) => e.current)?.id ?? DEFAULT_FACTOR_SET;

export function findFactorSetEdition(id: string): FactorSetEdition | undefined {
  return FACTOR_SET_EDITIONS.find((e) => e.id === id);
}
