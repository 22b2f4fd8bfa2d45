/**
 * Every key of the single table is built here. Items of a company live under keys that start with
 * `C#{companyId}`, so no query built from these can cross tenants; reference data shared by all
 * companies lives under `G#`.
 */
export interface Scope {
  /** undefined: the global (shared) partition */
  companyId?: string;
}

const root = (scope: Scope) => (scope.companyId ? `C#${scope.companyId}` : 'G');

export const keys = {
  /** Partition of all items of one resource in a scope. */
  collection: (scope: Scope, resource: string) => `${root(scope)}#${resource}`,
  /** Partition of one item's sub-resource items. */
  subCollection: (scope: Scope, resource: string, parentId: string, sub: string) =>
    `${root(scope)}#${resource}#${parentId}#${sub}`,
  /** Generic index partition: the items of a collection whose `field` equals `value`. */
  indexed: (collectionPk: string, field: string, value: string) => `${collectionPk}#${field}#${value}`,
  userProfile: (sub: string) => ({ pk: `U#${sub}`, sk: 'profile' }),
  liveConnection: (connectionId: string) => ({ pk: `WS#${connectionId}`, sk: 'connection' }),
  liveConnectionsOfCompany: (companyId: string) => `C#${companyId}#live`,
  /** One per account and uncovered period, so the daily missing-bills check tells people once. */
  missingBillNotices: (companyId: string) => `C#${companyId}#missing-bill-notices`,
} as const;

export const INDEX_NAMES = ['gsi1', 'gsi2'] as const;

/** The index of a collection's live items in its declared order (ResourceDecl.orderBy). */
export const ORDERED_INDEX = 'gsi3';
