/**
 * Operational energy benchmarks (LETI, REEB, ETN): a target and typical / good practice figures per
 * building type, against which a site's energy intensity is placed.
 */

export const ENERGY_BENCHMARK_KINDS = ['leti', 'reeb', 'etn'] as const;
export type EnergyBenchmarkKind = (typeof ENERGY_BENCHMARK_KINDS)[number];

/** One building type's figures, kWh/m²/yr; a set gives whichever of them its source publishes. */
export interface EnergyFigures {
  propertyType: string;
  target?: number;
  goodPractice?: number;
  typical?: number;
}

export type EnergyRating =
  | 'meets-target'
  | 'good-practice'
  | 'better-than-typical'
  | 'worse-than-typical'
  | 'above-target';

export interface EnergyComparison {
  rating?: EnergyRating;
  /** Intensity less the reference figure (the target, else good practice, else typical): positive is worse. */
  gap?: number;
  reference?: 'target' | 'goodPractice' | 'typical';
}

/** Where an intensity sits against a building type's figures. */
export function compareEnergy(kwhM2: number, figures: EnergyFigures): EnergyComparison {
  const reference =
    figures.target !== undefined
      ? 'target'
      : figures.goodPractice !== undefined
        ? 'goodPractice'
        : figures.typical !== undefined
          ? 'typical'
          : undefined;
  if (!reference) return {};
  const gap = kwhM2 - (figures[reference] as number);
  let rating: EnergyRating;
  if (figures.target !== undefined && kwhM2 <= figures.target) rating = 'meets-target';
  else if (figures.goodPractice !== undefined && kwhM2 <= figures.goodPractice) rating = 'good-practice';
  else if (figures.typical !== undefined)
    rating = kwhM2 <= figures.typical ? 'better-than-typical' : 'worse-than-typical';
  else if (figures.target !== undefined) rating = 'above-target';
  else rating = 'worse-than-typical';
  return { rating, gap, reference };
}

export const ENERGY_RATING_LABELS: Readonly<Record<EnergyRating, string>> = {
  'meets-target': 'Meets the target',
  'good-practice': 'Good practice',
  'better-than-typical': 'Better than typical',
  'worse-than-typical': 'Worse than typical',
  'above-target': 'Above the target',
};

/** The names a site type may go by in a benchmark source ("Education" is LETI's "School"). */
const TYPE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  office: ['offices'],
  'residential block': ['residential'],
  education: ['school', 'schools'],
  retail: ['retail, high street', 'shops'],
};

/** A building type's figures in a set, matched without case; none when the set does not cover the type. */
export function figuresFor(set: readonly EnergyFigures[], propertyType: string): EnergyFigures | undefined {
  const wanted = propertyType.trim().toLowerCase();
  for (const name of [wanted, ...(TYPE_ALIASES[wanted] ?? [])]) {
    const found = set.find((f) => f.propertyType.trim().toLowerCase() === name);
    if (found) return found;
  }
  return undefined;
}
