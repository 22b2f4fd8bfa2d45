import type { EpcBand } from '../domain/epc.ts';

/** Answers of the site's public-data calls, as the server shapes them from the public services. */

export interface Geocoordinates {
  lat: number;
  lng: number;
  postcode?: string;
  /** stored: the site already had them; postcode: looked up now from its postcode. */
  source: 'stored' | 'postcode';
}

export interface CrimeSummary {
  /** The month the police data covers, YYYY-MM. */
  month?: string;
  total: number;
  byCategory: { category: string; count: number }[];
  crimes: { id: string; category: string; month?: string; street?: string; outcome?: string }[];
  fetchedAt: string;
}

export interface FloodWarning {
  id: string;
  description: string;
  areaName?: string;
  severity: string;
  /** 1 severe flood warning, 2 flood warning, 3 flood alert, 4 no longer in force. */
  severityLevel: number;
  message?: string;
  timeRaised?: string;
  isTidal?: boolean;
}

export interface FloodRisks {
  data: FloodWarning[];
  total: number;
  radiusKm: number;
  fetchedAt: string;
}

export interface AirQualityMeasurement {
  parameter: string;
  displayName: string;
  value: number;
  units: string;
  datetime?: string;
}

export interface AirQuality {
  location?: { id: number; name: string; distanceMetres?: number };
  measurements: AirQualityMeasurement[];
  fetchedAt: string;
}

export const EPC_KINDS = ['domestic', 'non-domestic', 'display'] as const;
export type EpcKind = (typeof EPC_KINDS)[number];

export interface EpcCertificate {
  /** The register's lmk-key. */
  id: string;
  kind: EpcKind;
  address: string;
  postcode?: string;
  /** SAP score (domestic) or asset / operational rating (non-domestic, display). */
  rating: number;
  /** Worked out from the rating by the published bands. */
  band: EpcBand;
  lodgementDate?: string;
  floorArea?: number;
  propertyType?: string;
}
