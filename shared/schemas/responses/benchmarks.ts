import type { CrremAssessment, IntensityPoint, MissingField, PathwayPoint } from '../../benchmarks/crrem.ts';
import type {
  EnergyBenchmarkKind,
  EnergyComparison,
  EnergyFigures,
} from '../../benchmarks/energy-benchmarks.ts';

/** Answers of the benchmark calls (`/benchmarks…`), as the browser reads them. */

/** A CRREM pathway set, as the tables name it. */
export interface PathwaySetView {
  _id: string;
  name: string;
  version: string;
  source: string;
  illustrative: boolean;
}

/** A site against its CRREM pathway (GET /benchmarks/crrem/sites). */
export interface CrremRow {
  _id: string;
  siteName: string;
  entityId?: string;
  propertyType?: string;
  country?: string;
  floorAreaM2?: number;
  benchmarked: boolean;
  /** Why the site cannot be benchmarked: the fields it lacks. */
  missing?: MissingField[];
  pathway?: { country: string; propertyType: string };
  latest?: CrremAssessment['latest'];
  misalignment?: CrremAssessment['misalignment'];
}

/** GET /benchmarks/crrem/sites: every readable site against its pathway. */
export interface CrremTable {
  pathwaySet: PathwaySetView | null;
  years: { from: number; to: number };
  restricted: boolean;
  sites: CrremRow[];
}

/** GET /benchmarks/crrem/sites/{id}: one site's intensities and pathway, for its chart. */
export interface CrremSiteDetail {
  pathwaySet: PathwaySetView;
  site: CrremRow;
  points: IntensityPoint[];
  pathway: PathwayPoint[];
}

/** A benchmark item's figures, as the source publishes them. */
export interface EnergyBenchmarkView extends EnergyFigures {
  _id: string;
  name: string;
  source?: string;
  period?: string;
  version?: string;
  illustrative: boolean;
  check?: string;
}

export interface EnergyRow {
  _id: string;
  siteName: string;
  entityId?: string;
  propertyType?: string;
  floorAreaM2?: number;
  benchmarked: boolean;
  missing?: MissingField[];
  year?: number;
  kwhM2?: number;
  benchmarkId?: string;
  comparison?: EnergyComparison;
}

/** GET /benchmarks/{kind}/sites: sites against LETI, REEB or ETN figures. */
export interface EnergyTable {
  kind: EnergyBenchmarkKind;
  benchmarks: EnergyBenchmarkView[];
  restricted: boolean;
  sites: EnergyRow[];
}

/** An item of GET /benchmarks/crrem/pathway-sets: a set, with when it was loaded. */
export interface PathwaySetListItem extends PathwaySetView {
  uploadedAt: string;
}
