import type { RoutePermission } from '../access/permission-names.ts';
import { accountFieldErrors } from '../schemas/account-rules.ts';
import type { HttpFunctionName } from './functions.ts';

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

const PORTFOLIO_READERS = [
  'company_user',
  'company_user_full',
  'entity_user',
  'asset_user',
  'account_user',
] as const;
const COMPANY_USERS = ['company_user', 'company_user_full'] as const;
/** Imports, marketplace and entity import need company_user itself (01 §6). */
const COMPANY_USER_ONLY = ['company_user'] as const;
const COMPANY_ADMINS = ['company_admin'] as const;
const BILLING = ['company_admin', 'bill_validation', 'bill_validation_v2'] as const;
const ADMIN_ONLY: RoutePermission = [];

export const RESOURCES: readonly ResourceDecl[] = [
  {
    name: 'entities',
    fn: 'entities',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: PORTFOLIO_READERS,
    itemType: 'entities',
    indexes: ['parentEntityId'],
    searchFields: ['legalName', 'companyNumber'],
  },
  {
    name: 'assets',
    fn: 'assets',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: PORTFOLIO_READERS,
    itemType: 'assets',
    indexes: ['entityId'],
    orderBy: 'siteName',
    searchFields: ['siteName', 'address.streetAddress', 'address.locality', 'address.postCode'],
    subResources: ['timeline-events', 'status-history', 'tenants'],
  },
  {
    name: 'asset-groups',
    fn: 'asset-groups',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: COMPANY_USERS,
    searchFields: ['name'],
    parent: { type: 'assets', field: 'assetIds' },
  },
  {
    name: 'accounts',
    fn: 'accounts',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: PORTFOLIO_READERS,
    itemType: 'accounts',
    indexes: ['assetId', 'supplierId'],
    searchFields: ['name', 'meterPointNumber'],
    subResources: ['status-history'],
    refine: accountFieldErrors,
  },
  {
    name: 'readings',
    fn: 'accounts',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: PORTFOLIO_READERS,
    indexes: ['accountId'],
    searchFields: [],
    parent: { type: 'accounts', field: 'accountId' },
  },
  {
    name: 'projects',
    fn: 'assets',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: PORTFOLIO_READERS,
    indexes: ['assetId'],
    searchFields: ['name'],
    subResources: ['tasks'],
    parent: { type: 'assets', field: 'assetId' },
  },
  {
    name: 'recommendations',
    fn: 'assets',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: COMPANY_USERS,
    indexes: ['assetId'],
    searchFields: ['title'],
    parent: { type: 'assets', field: 'assetId' },
  },
  {
    name: 'suppliers',
    fn: 'templates',
    scope: 'global',
    read: '*',
    write: ADMIN_ONLY,
    indexes: ['type'],
    searchFields: ['name'],
  },
  {
    name: 'countries',
    fn: 'util',
    scope: 'global',
    read: '*',
    write: ADMIN_ONLY,
    searchFields: ['name', 'fullName'],
  },
  {
    name: 'companies',
    fn: 'companies',
    scope: 'global',
    read: ADMIN_ONLY,
    write: ADMIN_ONLY,
    searchFields: ['name'],
  },
  {
    name: 'users',
    fn: 'session',
    scope: 'company',
    read: ['company_owner', 'company_user', 'company_user_full'],
    // Company admins change members through the user administration routes, which keep identities.
    write: ADMIN_ONLY,
    searchFields: ['name', 'email'],
  },
  {
    name: 'roles',
    fn: 'companies',
    scope: 'company',
    read: COMPANY_ADMINS,
    write: COMPANY_ADMINS,
    searchFields: ['name'],
  },
  {
    name: 'permissions',
    fn: 'companies',
    scope: 'company',
    read: COMPANY_ADMINS,
    write: COMPANY_ADMINS,
    searchFields: ['name'],
  },
  {
    name: 'settings',
    fn: 'companies',
    scope: 'company',
    read: COMPANY_ADMINS,
    write: COMPANY_ADMINS,
    searchFields: ['key'],
  },
  {
    name: 'notifications',
    fn: 'session',
    scope: 'company',
    read: '*',
    write: COMPANY_ADMINS,
    indexes: ['userSub'],
    searchFields: ['content'],
  },
  {
    name: 'logs',
    fn: 'util',
    scope: 'company',
    read: ['company_admin', 'company_log'],
    write: ADMIN_ONLY,
    indexes: ['type', 'batchId'],
    searchFields: ['message'],
  },
  {
    name: 'emails',
    fn: 'util',
    scope: 'company',
    read: BILLING,
    write: ADMIN_ONLY,
    searchFields: ['from', 'subject'],
  },
  {
    name: 'messages',
    fn: 'util',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: PORTFOLIO_READERS,
    indexes: ['assetId'],
    searchFields: ['subject'],
    subResources: ['replies'],
    parent: { type: 'assets', field: 'assetId' },
  },
  {
    name: 'kiosks',
    fn: 'util',
    scope: 'company',
    read: COMPANY_ADMINS,
    write: COMPANY_ADMINS,
    indexes: ['assetId'],
    searchFields: ['name'],
    parent: { type: 'assets', field: 'assetId' },
  },
  {
    name: 'invoices',
    fn: 'invoices',
    scope: 'company',
    read: [...BILLING, ...PORTFOLIO_READERS],
    write: BILLING,
    indexes: ['accountId', 'batchId'],
    searchFields: ['fileName', 'invoiceNumber'],
    parent: { type: 'accounts', field: 'accountId', whenMissing: BILLING },
  },
  {
    name: 'invoice-validation',
    fn: 'invoice-validation',
    scope: 'company',
    read: BILLING,
    write: BILLING,
    indexes: ['status'],
    searchFields: ['displayName', 'invoiceNumber', 'tags'],
    // A validation is its invoice's: readable with the invoice's account, by the billing roles before it has one.
    parent: { type: 'accounts', field: 'accountId', whenMissing: BILLING },
  },
  {
    name: 'templates',
    fn: 'templates',
    scope: 'global',
    read: ADMIN_ONLY,
    write: ADMIN_ONLY,
    indexes: ['supplierId'],
    searchFields: [],
  },
  {
    name: 'scraper-runs',
    fn: 'automation',
    scope: 'company',
    // Connector runs: the connectors area is for company admins (01 §6).
    read: COMPANY_ADMINS,
    write: COMPANY_ADMINS,
    indexes: ['supplierId'],
    searchFields: [],
  },
  {
    name: 'imports',
    fn: 'automation',
    scope: 'company',
    read: COMPANY_USER_ONLY,
    write: COMPANY_USER_ONLY,
    indexes: ['type'],
    searchFields: [],
  },
  {
    name: 'import-templates',
    fn: 'automation',
    scope: 'company',
    read: COMPANY_USER_ONLY,
    write: COMPANY_USER_ONLY,
    searchFields: ['name'],
  },
  {
    name: 'automations',
    fn: 'automation',
    scope: 'company',
    read: ['company_admin', 'view_integrations'],
    write: ['company_admin', 'view_integrations'],
    searchFields: ['name'],
  },
  {
    name: 'automation-runs',
    fn: 'automation',
    scope: 'company',
    read: ['company_admin', 'view_integrations'],
    write: ['company_admin', 'view_integrations'],
    indexes: ['automationId'],
    searchFields: [],
  },
  {
    name: 'dashboards',
    fn: 'insights',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: PORTFOLIO_READERS,
    searchFields: ['name'],
  },
  {
    name: 'widgets',
    fn: 'insights',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: PORTFOLIO_READERS,
    indexes: ['dashboardId'],
    searchFields: [],
  },
  {
    name: 'reports',
    fn: 'insights',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: PORTFOLIO_READERS,
    searchFields: ['name'],
  },
  {
    name: 'report-templates',
    fn: 'insights',
    scope: 'company',
    read: PORTFOLIO_READERS,
    write: COMPANY_USERS,
    searchFields: ['name'],
  },
  {
    name: 'scheduled-reports',
    fn: 'insights',
    scope: 'company',
    read: COMPANY_USERS,
    write: COMPANY_USERS,
    searchFields: [],
  },
  {
    name: 'targets',
    fn: 'insights',
    scope: 'company',
    read: ADMIN_ONLY,
    write: ADMIN_ONLY,
    searchFields: ['name'],
  },
  {
    name: 'benchmarks',
    fn: 'insights',
    scope: 'global',
    read: PORTFOLIO_READERS,
    write: ADMIN_ONLY,
    indexes: ['kind'],
    searchFields: ['name'],
  },
  {
    name: 'marketplace/carbon',
    fn: 'util',
    scope: 'global',
    read: COMPANY_USER_ONLY,
    write: ADMIN_ONLY,
    indexes: ['projectType'],
    searchFields: ['name'],
  },
];

export function findResource(name: string): ResourceDecl | undefined {
  return RESOURCES.find((r) => r.name === name);
}
