/**
 * Year-on-year change in emissions split into what floor area, consumption per m² and emission factors
 * each contributed, by the additive LMDI-I method (Ang 2005, "The LMDI approach to decomposition analysis:
 * a practical guide"). Each item (a meter, or a utility) is E = A × (C/A) × F, with A the floor area, C the
 * consumption and F the item's factor (kg CO2e per unit). For each item and factor x:
 *
 *   ΔE_x = L(E₁, E₀) × ln(x₁ / x₀),   L(a, b) = (a − b) / (ln a − ln b), L(a, a) = a
 *
 * LMDI-I was chosen over a Shapley split because it is exact (the effects add up to the change with no
 * residual, as ln A + ln C/A + ln F = ln E), it sums item by item across any number of meters, it gives one
 * answer whatever order the factors are taken in, and it is the method most used for energy and emissions
 * decomposition. Shapley is also exact but needs every ordering of the factors.
 *
 * Zeros (Ang and Liu 2007, "Handling zero values in the LMDI decomposition"): when an item's emissions are
 * zero in one year only, the limit of LMDI as the zero is replaced by a vanishing δ gives the whole change
 * to the factor that is zero. When several are zero at once, the change goes to the first zero among floor
 * area, consumption, factor: a new site counts as new floor area, a new meter on an old site as
 * consumption, a switch to a zero-rated supply as the factor. Otherwise, when floor area is not positive
 * in both years, no area effect is computed and consumption (not consumption per m²) carries that share.
 */

export interface DecompositionItem {
  key: string;
  consumption0: number;
  consumption1: number;
  /** kg CO2e per unit of consumption in each year */
  factor0: number;
  factor1: number;
}

export interface DecompositionEffects {
  /** From the change in floor area */
  area: number;
  /** From the change in consumption per m² (or in consumption, when area is not used) */
  consumption: number;
  /** From the change in emission factors */
  factor: number;
}

export interface Decomposition extends DecompositionEffects {
  emissions0: number;
  emissions1: number;
  /** emissions1 − emissions0, equal to area + consumption + factor */
  change: number;
  areaUsed: boolean;
  items: (DecompositionEffects & { key: string; emissions0: number; emissions1: number })[];
}

/** The logarithmic mean of two positive numbers, by the difference quotient or a when they are equal. */
export function logarithmicMean(a: number, b: number): number {
  if (a === b) return a;
  if (a <= 0 || b <= 0) return 0;
  return (a - b) / (Math.log(a) - Math.log(b));
}

function itemEffects(
  item: DecompositionItem,
  area0: number,
  area1: number,
  useArea: boolean,
): DecompositionEffects & { emissions0: number; emissions1: number } {
  const e0 = item.consumption0 * item.factor0;
  const e1 = item.consumption1 * item.factor1;
  const base = { emissions0: e0, emissions1: e1 };
  const none = { area: 0, consumption: 0, factor: 0 };
  if (e0 === 0 || e1 === 0) {
    // The zero year decides which factor vanished; the other year only supplies the size of the change.
    const [zero, other] = e0 === 0 ? [0, 1] : [1, 0];
    const areas = [area0, area1];
    const consumption = zero === 0 ? item.consumption0 : item.consumption1;
    const factor = zero === 0 ? item.factor0 : item.factor1;
    const to =
      (areas[zero] ?? 0) <= 0 && (areas[other] ?? 0) > 0
        ? 'area'
        : consumption === 0
          ? 'consumption'
          : factor === 0
            ? 'factor'
            : 'consumption';
    return { ...base, ...none, [to]: e1 - e0 };
  }
  const weight = logarithmicMean(e1, e0);
  const total = Math.log(e1 / e0);
  const areaLog = useArea ? Math.log(area1 / area0) : 0;
  const factorLog = Math.log(item.factor1 / item.factor0);
  // Taken as the remainder of ln(E₁/E₀) so the three logs add up to it to the last bit.
  const consumptionLog = total - areaLog - factorLog;
  return {
    ...base,
    area: weight * areaLog,
    consumption: weight * consumptionLog,
    factor: weight * factorLog,
  };
}

export function decomposeEmissionsChange(input: {
  items: readonly DecompositionItem[];
  /** Floor area in m² in each year */
  area0?: number;
  area1?: number;
}): Decomposition {
  const area0 = input.area0 ?? 0;
  const area1 = input.area1 ?? 0;
  const useArea = area0 > 0 && area1 > 0;
  const items = input.items.map((item) => ({ key: item.key, ...itemEffects(item, area0, area1, useArea) }));
  const add = (pick: (i: (typeof items)[number]) => number) => items.reduce((t, i) => t + pick(i), 0);
  const emissions0 = add((i) => i.emissions0);
  const emissions1 = add((i) => i.emissions1);
  return {
    emissions0,
    emissions1,
    change: emissions1 - emissions0,
    area: add((i) => i.area),
    consumption: add((i) => i.consumption),
    factor: add((i) => i.factor),
    areaUsed: useArea,
    items,
  };
}
