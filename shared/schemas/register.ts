import * as z from 'zod/mini';
import { SEARCH_MIN_CHARS } from '../constants.ts';
import type { UtilityType } from './common.ts';
import { onFirstUse } from './on-first-use.ts';

/** One entity of the company tree (GET /entities/structure), its subsidiaries nested below it. */
export interface EntityNode {
  _id: string;
  legalName: string;
  companyNumber?: string;
  parentEntityId: string | null;
  /** Assets held by this entity itself. */
  assetsCount: number;
  /** Assets held by this entity and all its subsidiaries. */
  totalAssetsCount: number;
  children: EntityNode[];
}

export const SEARCH_TYPES = ['entity', 'asset', 'account'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export interface NamedRef {
  _id: string;
  name?: string;
  legalName?: string;
  siteName?: string;
}

/** A global search result (01 §3): which fields are set depends on searchType. */
export interface SearchResult {
  searchType: SearchType;
  sourceId: string;
  company: { _id: string; name: string };
  legalName?: string;
  parentEntity?: { _id: string; legalName: string } | null;
  siteName?: string;
  addressString?: string;
  primaryImageUrl?: string | null;
  entity?: { _id: string; legalName: string } | null;
  asset?: { _id: string; siteName: string } | null;
  type?: UtilityType;
  name?: string;
  meterPointNumber?: string;
  status?: string;
  assetId?: string;
  parentAccountId?: string | null;
}

/**
 * GET /search: built on first use with zod's small build, as the functions that carry search mostly serve
 * other calls.
 */
export const searchQuerySchema = onFirstUse(() =>
  z.object({
    query: z
      .string()
      .check(
        z.trim(),
        z.minLength(SEARCH_MIN_CHARS, `Enter at least ${SEARCH_MIN_CHARS} characters`),
        z.maxLength(100, 'Enter at most 100 characters'),
      ),
    type: z.optional(z.enum(SEARCH_TYPES)),
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 30),
  }),
);

/** Consumption, cost and emissions of one utility over the report period. */
export interface UtilityTotals {
  consumption: number;
  unit: string;
  cost: number;
  emissionsKg: number;
}

/** GET /asset-groups/{id}/report-data. */
export interface AssetGroupReport {
  assetGroup: { _id: string; name: string; description?: string };
  period: { from: string; to: string };
  assets: {
    _id: string;
    siteName: string;
    addressString: string;
    assetType?: string;
    floorAreaM2: number | null;
    accountsCount: number;
    utilities: Partial<Record<UtilityType, UtilityTotals>>;
  }[];
  totals: {
    floorAreaM2: number;
    accountsCount: number;
    utilities: Partial<Record<UtilityType, UtilityTotals>>;
  };
}

/** GET /asset-groups/{id}/floor-area. */
export interface FloorAreaTotal {
  m2: number;
  ft2: number;
  assetsCount: number;
  assetsWithFloorArea: number;
}
