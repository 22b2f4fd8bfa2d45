import type { RoutePermission } from '../access/permission-names.ts';
import type { HttpFunctionName } from './functions.ts';
import { ACCOUNTS_AREA_RESOURCES } from './resources/accounts.ts';
import { ANALYTICS_AREA_RESOURCES } from './resources/analytics.ts';
import { ASSETS_AREA_RESOURCES } from './resources/assets.ts';
import { AUTOMATION_AREA_RESOURCES } from './resources/automation.ts';
import { BENCHMARKS_AREA_RESOURCES } from './resources/benchmarks.ts';
import { COLLABORATION_AREA_RESOURCES } from './resources/collaboration.ts';
import { COMPANY_AREA_RESOURCES } from './resources/company.ts';
import { ENTITIES_AREA_RESOURCES } from './resources/entities.ts';
import { IMPORTS_AREA_RESOURCES } from './resources/imports.ts';
import { INVOICES_AREA_RESOURCES } from './resources/invoices.ts';
import { KIOSK_AREA_RESOURCES } from './resources/kiosk.ts';
import { LOOKUPS_AREA_RESOURCES } from './resources/lookups.ts';
import { MARKETPLACE_AREA_RESOURCES } from './resources/marketplace.ts';
import { NOTIFICATIONS_AREA_RESOURCES } from './resources/notifications.ts';
import { PORTFOLIOS_AREA_RESOURCES } from './resources/portfolios.ts';
import { RECOMMENDATIONS_AREA_RESOURCES } from './resources/recommendations.ts';
import { REPORTS_AREA_RESOURCES } from './resources/reports.ts';
import { STAFF_TOOLS_AREA_RESOURCES } from './resources/staff-tools.ts';
import { SUPPLIERS_AREA_RESOURCES } from './resources/suppliers.ts';
import { TARGETS_AREA_RESOURCES } from './resources/targets.ts';

/** Per-item grants exist for these types (01 §6, 02 §6). */
export type ItemType = 'entities' | 'assets' | 'accounts';

export interface ResourceDecl {
  /** The path segment(s) of the resource, e.g. `asset-groups` or `marketplace/carbon`. */
  name: string;
  /** The function that serves it; its schemas are registered by `resource-schemas/<fn>.ts`. */
  fn: HttpFunctionName;
  /** company: each company's own items; global: reference data shared by every company. */
  scope: 'company' | 'global';
  read: RoutePermission;
  write: RoutePermission;
  itemType?: ItemType;
  /**
   * The field naming the member an item belongs to (a notification's `userSub`): each member lists, reads
   * and changes only their own, whatever their role, and creates items for themselves only.
   */
  owner?: string;
  /** Fields served by the generic indexes, in index order (gsi1, gsi2): list filters on them avoid a filter scan. */
  indexes?: readonly string[];
  /**
   * The field a list of the resource is ordered by unless asked otherwise: the ordered index (gsi3) holds
   * the live items by this field, so a page of them is one short read.
   */
  orderBy?: string;
  /** Fields whose text `GET /{resource}/search?query=` matches. */
  searchFields: readonly string[];
  /** Items kept under each item (`/{resource}/{id}/{sub}`), by path segment. */
  subResources?: readonly string[];
  /**
   * Items that hang off an asset or account (a project, a reading): access to the item named by `field`
   * decides access to them. A list field (an asset group's assets) needs access to every item in it.
   * Without the field, `whenMissing` says who may still see the item; by default only company users.
   */
  parent?: { type: ItemType; field: string; whenMissing?: RoutePermission };
  /**
   * Field errors that the schema alone cannot see, checked on the whole item as it will be stored (after
   * a PATCH is merged): a zod refinement would stop the generic layer from making the schema partial.
   */
  refine?: (item: Readonly<Record<string, unknown>>) => Record<string, string> | undefined;
}

/**
 * Every resource of the system: each area's, in the order of `AREAS`, which lists the same. Kept apart from
 * the areas' routes, so a function that looks up resources (every one does) does not carry every route.
 */
export const RESOURCES: readonly ResourceDecl[] = [
  ...ENTITIES_AREA_RESOURCES,
  ...ASSETS_AREA_RESOURCES,
  ...PORTFOLIOS_AREA_RESOURCES,
  ...ACCOUNTS_AREA_RESOURCES,
  ...RECOMMENDATIONS_AREA_RESOURCES,
  ...SUPPLIERS_AREA_RESOURCES,
  ...LOOKUPS_AREA_RESOURCES,
  ...COMPANY_AREA_RESOURCES,
  ...NOTIFICATIONS_AREA_RESOURCES,
  ...IMPORTS_AREA_RESOURCES,
  ...STAFF_TOOLS_AREA_RESOURCES,
  ...COLLABORATION_AREA_RESOURCES,
  ...KIOSK_AREA_RESOURCES,
  ...INVOICES_AREA_RESOURCES,
  ...AUTOMATION_AREA_RESOURCES,
  ...ANALYTICS_AREA_RESOURCES,
  ...REPORTS_AREA_RESOURCES,
  ...BENCHMARKS_AREA_RESOURCES,
  ...MARKETPLACE_AREA_RESOURCES,
  ...TARGETS_AREA_RESOURCES,
];

const BY_NAME: ReadonlyMap<string, ResourceDecl> = new Map(RESOURCES.map((r) => [r.name, r]));

export function findResource(name: string): ResourceDecl | undefined {
  return BY_NAME.get(name);
}

/**
 * A resource the routes take their permissions from. A name that is not declared would leave a route
 * without a permission to check, so it stops the system declaration from loading at all.
 */
export function declaredResource(name: string): ResourceDecl {
  const resource = findResource(name);
  if (!resource) throw new Error(`The ${name} resource is not declared`);
  return resource;
}
