/** Energy Performance Certificate bands (England and Wales). */
export const EPC_BANDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
export type EpcBand = (typeof EPC_BANDS)[number];

export const isEpcBand = (v: unknown): v is EpcBand =>
  typeof v === 'string' && (EPC_BANDS as readonly string[]).includes(v);

/**
 * The band a rating typed on a site names: a band letter, perhaps after its score and with a sign ('C',
 * 'c+', '72C'). Other text names no band: 'N/A' or 'EX' (exempt) is unrated, not A or E.
 */
export function typedEpcBand(rating: unknown): EpcBand | undefined {
  const letter = typeof rating === 'string' ? /^\s*\d*\s*([A-G])[+-]?\s*$/i.exec(rating)?.[1] : undefined;
  const band = letter?.toUpperCase();
  return isEpcBand(band) ? band : undefined;
}

/** Domestic: by SAP score, higher is better. Undefined outside 1 and above. */
export function domesticEpcBand(sapScore: number): EpcBand | undefined {
  if (!Number.isFinite(sapScore) || sapScore < 1) return undefined;
  if (sapScore >= 92) return 'A';
  if (sapScore >= 81) return 'B';
  if (sapScore >= 69) return 'C';
  if (sapScore >= 55) return 'D';
  if (sapScore >= 39) return 'E';
  if (sapScore >= 21) return 'F';
  return 'G';
}

/** Non-domestic: by asset rating, lower is better. Undefined for a negative or non-numeric rating. */
export function nonDomesticEpcBand(assetRating: number): EpcBand | undefined {
  if (!Number.isFinite(assetRating) || assetRating < 0) return undefined;
  if (assetRating <= 25) return 'A';
  if (assetRating <= 50) return 'B';
  if (assetRating <= 75) return 'C';
  if (assetRating <= 100) return 'D';
  if (assetRating <= 125) return 'E';
  if (assetRating <= 150) return 'F';
  return 'G';
}
