import type * as z from 'zod';
import { importItemsQuery, importUploadQuery } from '../imports/import-api.ts';
import { recipientChoicesQuery, unsubscribeQuery } from '../reports/report-schedule.ts';
import { crremSiteQuery, crremSitesQuery, energySitesQuery } from '../schemas/benchmarks.ts';
import { carbonProjectsQuery } from '../schemas/carbon-marketplace.ts';
import { messageMembersQuery } from '../schemas/collaboration.ts';
import { provenanceQuery } from '../schemas/provenance.ts';
import {
  activeBillingQuerySchema,
  assetDocumentsQuery,
  assetGroupPageQuery,
  assetGroupReportQuery,
  assetGroupSearchQuery,
  companiesPageQuery,
  contractDownloadQuery,
  entitySearchQuery,
  invoiceDownloadQuery,
  invoicePreviewQuery,
  logoSearchQuery,
  notificationsQuery,
} from '../schemas/queries.ts';
import {
  activityQuerySchema,
  assetFinderQuerySchema,
  emailDownloadQuery,
  liveConnectionsQuerySchema,
  screensQuerySchema,
  siteQuery,
  staffEmailsQuerySchema,
} from '../schemas/staff-admin.ts';
import { calendarEventsQuery, calendarFeedQuery } from '../schemas/targets.ts';
import { gasMeterChoicesQuerySchema, gridfetchUsageQuerySchema } from '../schemas/util-staff.ts';
import type { HttpMethod } from './routes.ts';

/**
 * The schema of the query each route takes, by `METHOD /path` as the route declares them. The operation
 * serving the route declares the same schema and receives the values it parses; a route not listed here
 * passes its query on as text (the generic list and search calls read filters by field name).
 */
type RouteKey = `${HttpMethod} /${string}`;

export const ROUTE_QUERIES: ReadonlyMap<string, z.ZodType> = new Map<RouteKey, z.ZodType>([
  // Portfolios
  ['GET /asset-groups/{id}/assets', assetGroupPageQuery],
  ['GET /asset-groups/{id}/report-data', assetGroupReportQuery],
  ['GET /asset-groups/{id}/search-assets', assetGroupSearchQuery],
  ['GET /users/me/asset-groups', assetGroupPageQuery],
  // Profile
  ['GET /users/me/notifications', notificationsQuery],
  // Companies
  ['GET /companies/global', companiesPageQuery],
  // Entities
  ['GET /entities/search', entitySearchQuery],
  // Staff tools and lookups
  ['GET /util/gridfetch-usage', gridfetchUsageQuerySchema],
  ['GET /util/gas-prediction-accounts', gasMeterChoicesQuerySchema],
  ['GET /util/company-logo-search', logoSearchQuery],
  ['GET /util/activity', activityQuerySchema],
  ['GET /util/emails', staffEmailsQuerySchema],
  ['GET /util/emails/{id}/attachments/{attachmentId}/download', emailDownloadQuery],
  ['GET /util/live-connections', liveConnectionsQuerySchema],
  ['GET /util/asset-finder', assetFinderQuerySchema],
  ['GET /util/asset-finder/{id}', siteQuery],
  // Kiosks
  ['GET /kiosks/optisigns/screens', screensQuerySchema],
  // Accounts
  ['GET /accounts/active-billing', activeBillingQuerySchema],
  ['GET /accounts/{id}/contracts/{contractId}/download', contractDownloadQuery],
  // Invoices
  ['GET /invoices/{id}/download', invoiceDownloadQuery],
  ['GET /accounts/{id}/invoice/{invoiceId}/download', invoiceDownloadQuery],
  ['GET /accounts/{id}/credit-notes/{creditNoteId}/download', invoiceDownloadQuery],
  // Assets
  ['GET /assets/{id}/documents', assetDocumentsQuery],
  // Insights
  ['GET /analytics/provenance', provenanceQuery],
  // Benchmarks
  ['GET /benchmarks/crrem/sites', crremSitesQuery],
  ['GET /benchmarks/crrem/sites/{id}', crremSiteQuery],
  ['GET /benchmarks/{kind}/sites', energySitesQuery],
  // Templates
  ['GET /suppliers/{id}/invoice-preview', invoicePreviewQuery],
  // Regulatory calendar
  ['GET /calendar/events', calendarEventsQuery],
  ['GET /calendar/feed.ics', calendarFeedQuery],
  // Scheduled reports: the unsubscribe link of their mails
  ['GET /scheduled-reports/recipients', recipientChoicesQuery],
  ['GET /scheduled-reports/unsubscribe', unsubscribeQuery],
  ['POST /scheduled-reports/unsubscribe', unsubscribeQuery],
  // Imports
  ['GET /imports/upload-url', importUploadQuery],
  ['GET /imports/{id}/items', importItemsQuery],
  // Discussions and the carbon marketplace
  ['GET /messages/members', messageMembersQuery],
  ['GET /marketplace/carbon', carbonProjectsQuery],
]);

/** The query schema a route declares, if any. */
export function routeQuerySchema(route: { method: HttpMethod; path: string }): z.ZodType | undefined {
  return ROUTE_QUERIES.get(`${route.method} ${route.path}`);
}
