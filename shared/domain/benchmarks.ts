/** Published energy benchmarks, as data with their source. */
export interface EnergyTarget {
  kind: 'leti';
  propertyType: string;
  /** Operational energy use intensity, kWh per m² a year */
  kwhPerM2Year: number;
  source: string;
  check?: string;
}

const LETI = 'LETI Climate Emergency Design Guide, operational energy targets';
const LETI_CHECK = 'figures to be checked against the LETI Climate Emergency Design Guide';

export const LETI_TARGETS: readonly EnergyTarget[] = [
  { kind: 'leti', propertyType: 'Residential', kwhPerM2Year: 35, source: LETI, check: LETI_CHECK },
  { kind: 'leti', propertyType: 'Office', kwhPerM2Year: 55, source: LETI, check: LETI_CHECK },
  { kind: 'leti', propertyType: 'School', kwhPerM2Year: 65, source: LETI, check: LETI_CHECK },
];
