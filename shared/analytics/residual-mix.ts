import { EMISSION_FACTORS, type EmissionFactor } from '../domain/emission-factors.ts';

/**
 * Residual-mix factors for market-based scope 2: the grid's emissions once electricity sold with
 * certificates (REGOs in the UK) is taken out, used for supply that no certificate or supplier figure covers.
 */
export interface ResidualMixFactor {
  year: number;
  /** kg CO2e per kWh */
  factor: number;
  source: string;
  version: string;
  /** Why the figure needs checking or replacing, when it does. */
  check?: string;
}

const STAND_IN_CHECK =
  'No published UK residual mix figure was confirmed (AIB European Residual Mixes, or the UK fuel mix ' +
  'disclosure residual mix); the DESNZ grid average stands in, as the GHG Protocol Scope 2 hierarchy allows ' +
  'when no residual mix is available. It understates market-based emissions; replace it with the published figure.';

/**
 * Built-in residual-mix rows: for each year with a DESNZ grid factor, that factor as a labelled stand-in.
 * A table loaded from storage replaces this one when a confirmed figure is entered.
 */
export const RESIDUAL_MIX_FACTORS: readonly ResidualMixFactor[] = EMISSION_FACTORS.filter(
  (f: EmissionFactor) => f.utility === 'electricity' && f.activity === 'generation',
).map((f) => ({
  year: f.year,
  factor: f.factor,
  source: `Stand-in: ${f.source}, UK grid average`,
  version: `residual-stand-in-${f.version}`,
  check: STAND_IN_CHECK,
}));

/** The year's residual mix, else the nearest earlier year's, else the earliest later year's. */
export function findResidualMix(
  year: number,
  table: readonly ResidualMixFactor[] = RESIDUAL_MIX_FACTORS,
): ResidualMixFactor | undefined {
  const earlier = table.filter((f) => f.year <= year).sort((a, b) => b.year - a.year)[0];
  return earlier ?? [...table].sort((a, b) => a.year - b.year)[0];
}
