import type { AuthKind } from '../../access/route-rules.ts';
import { IMPORT_MAX_BODY_BYTES } from '../../constants.ts';
import {
  airQualityQuery,
  assetListQuery,
  certificateQuery,
  certificateSearchQuery,
  crimeQuery,
  floodRisksQuery,
  geocoordinatesQuery,
  sitePageQuery,
} from '../../schemas/asset-queries.ts';
import { importFileQuery } from '../../schemas/import-file-query.ts';
import { assetDocumentsQuery } from '../../schemas/queries.ts';
import { imageUploadUrlQuery } from '../../schemas/request-queries.ts';
import type { AreaDecl } from '../area.ts';
import type { QueueDecl, SubscriptionDecl } from '../functions.ts';
import { ASSETS_AREA_RESOURCES, ASSETS_RESOURCE, PROJECTS_RESOURCE } from '../resources/assets.ts';
import { IMPORTS_RESOURCE } from '../resources/imports.ts';
import { RECOMMENDATIONS_RESOURCE } from '../resources/recommendations.ts';
import type { ResourceDecl } from '../resources.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpMethod, HttpRoute, ItemCheck } from '../routes.ts';

/**
 * The portfolio register's own calls (02 §7 Assets, Projects, EPC lookup, recommendations): sites with
 * their wizard, documents, pictures and public data, projects with documents, recommendations and EPC
 * certificates. Routes with a generic route's method and path (GET /assets, GET /assets/{id}, POST /assets,
 * PATCH /assets/{id}, GET /projects/{id}, the status-history calls) replace it.
 */

const ASSETS = ASSETS_RESOURCE;
/** Imports and their rollbacks need the import permission (01 §6: company_user). */
const IMPORTS = IMPORTS_RESOURCE;
const PROJECTS = PROJECTS_RESOURCE;
const RECOMMENDATIONS = RECOMMENDATIONS_RESOURCE;

const READS: readonly AuthKind[] = ['user', 'machine'];
const onAsset = (access: 'read' | 'write', param = 'id'): ItemCheck => ({ type: 'assets', param, access });
/** A project or recommendation named by `{id}`: the site it belongs to decides (a global one: company users). */
const offAsset = (resource: ResourceDecl, access: 'read' | 'write') => ({
  item: { type: 'assets', resource: resource.name, param: 'id', access } satisfies ItemCheck,
});

const assetsRoute = routesOf('assets');
/** A call that needs the resource's read or write permission; machines may make the reads. */
const route = (
  method: HttpMethod,
  path: string,
  op: string,
  resource: ResourceDecl,
  access: 'read' | 'write',
  extra: Partial<HttpRoute> = {},
): HttpRoute =>
  assetsRoute(method, path, op, access === 'read' ? resource.read : resource.write, {
    ...(access === 'read' ? { auth: READS } : {}),
    ...extra,
  });

const asset = (method: HttpMethod, path: string, op: string, access: 'read' | 'write') =>
  route(method, path, op, ASSETS, access, { item: onAsset(access) });

const SITE_ROUTES: HttpRoute[] = [
  route('GET', '/assets', 'assets.list', ASSETS, 'read'),
  asset('GET', '/assets/{id}', 'assets.get', 'read'),
  // The generic writes of sites, with their floor area stored in m² and the new site placed.
  route('POST', '/assets', 'assets.create', ASSETS, 'write', { resource: ASSETS.name }),
  route('POST', '/assets/bulk', 'assets.bulk', ASSETS, 'write', { resource: ASSETS.name }),
  route('PATCH', '/assets/{id}', 'assets.update', ASSETS, 'write', {
    item: onAsset('write'),
    resource: ASSETS.name,
  }),
  route('POST', '/assets/wizard-check', 'assets.wizardCheck', ASSETS, 'write'),
  route('POST', '/assets/wizard-submit', 'assets.wizardSubmit', ASSETS, 'write'),
  asset('PATCH', '/assets/{id}/address', 'assets.updateAddress', 'write'),
  asset('GET', '/assets/{id}/asset-groups', 'assets.assetGroups', 'read'),
  asset('GET', '/assets/{id}/account-types', 'assets.accountTypes', 'read'),
  asset('POST', '/assets/{id}/status-history', 'assets.statusHistory.create', 'write'),
  asset('PATCH', '/assets/{id}/status-history/{subId}', 'assets.statusHistory.update', 'write'),
  asset('DELETE', '/assets/{id}/status-history/{subId}', 'assets.statusHistory.delete', 'write'),
  asset('GET', '/assets/{id}/timeline-events', 'assets.timeline.list', 'read'),
  // The generic removal of a tenant, refused while a meter names the tenant as its user.
  route('DELETE', '/assets/{id}/tenants/{subId}', 'assets.tenants.delete', ASSETS, 'write', {
    item: onAsset('write'),
    resource: ASSETS.name,
    subResource: 'tenants',
  }),
  route('POST', '/assets/import', 'assets.import', IMPORTS, 'write', {
    maxBodyBytes: IMPORT_MAX_BODY_BYTES,
    query: importFileQuery,
  }),
  route('POST', '/assets/import-rollback', 'assets.importRollback', IMPORTS, 'write'),
];

const DOCUMENT_ROUTES: HttpRoute[] = [
  asset('GET', '/assets/{id}/documents', 'assets.documents.list', 'read'),
  asset('POST', '/assets/{id}/documents/upload', 'assets.documents.upload', 'write'),
  asset('POST', '/assets/{id}/documents', 'assets.documents.register', 'write'),
  asset('PATCH', '/assets/{id}/documents/{documentId}', 'assets.documents.update', 'write'),
  asset('DELETE', '/assets/{id}/documents/{documentId}', 'assets.documents.delete', 'write'),
  asset('GET', '/assets/{id}/documents/{documentId}/download', 'assets.documents.download', 'read'),
];

const IMAGE_ROUTES: HttpRoute[] = [
  // The site is named by the `assetId` query parameter; the operation checks it.
  route('GET', '/assets/image-upload-url', 'assets.images.uploadUrl', ASSETS, 'write'),
  asset('PUT', '/assets/{id}/primary-thumbnail', 'assets.images.primary', 'write'),
  asset('POST', '/assets/{id}/images/{imageId}/enhance', 'assets.images.enhance', 'write'),
  asset('PUT', '/assets/{id}/satellite-images', 'assets.satellite.put', 'write'),
  asset('GET', '/assets/{id}/satellite-images', 'assets.satellite.get', 'read'),
];

const PUBLIC_DATA_ROUTES: HttpRoute[] = [
  asset('GET', '/assets/{id}/geocoordinates', 'assets.geocoordinates', 'read'),
  asset('GET', '/assets/{id}/crime', 'assets.crime', 'read'),
  asset('GET', '/assets/{id}/flood-risks', 'assets.floodRisks', 'read'),
  asset('GET', '/assets/{id}/air-quality', 'assets.airQuality', 'read'),
  route('GET', '/certificates', 'epc.search', ASSETS, 'read'),
  route('GET', '/certificates/{id}', 'epc.get', ASSETS, 'read'),
  asset('PUT', '/assets/{id}/epc-certificate', 'epc.link', 'write'),
];

const PROJECT_ROUTES: HttpRoute[] = [
  route('GET', '/projects/{id}', 'projects.get', PROJECTS, 'read', offAsset(PROJECTS, 'read')),
  route(
    'POST',
    '/projects/{id}/documents/upload',
    'projects.documents.upload',
    PROJECTS,
    'write',
    offAsset(PROJECTS, 'write'),
  ),
  route(
    'DELETE',
    '/projects/{id}/documents/{documentId}',
    'projects.documents.delete',
    PROJECTS,
    'write',
    offAsset(PROJECTS, 'write'),
  ),
  route(
    'GET',
    '/projects/{id}/documents/{documentId}/download',
    'projects.documents.download',
    PROJECTS,
    'read',
    offAsset(PROJECTS, 'read'),
  ),
];

const RECOMMENDATION_ROUTES: HttpRoute[] = [
  route('POST', '/assets/{id}/recommendations', 'recommendations.createForAsset', RECOMMENDATIONS, 'write', {
    item: onAsset('write'),
  }),
  route(
    'DELETE',
    '/assets/{id}/recommendations/{recommendationId}',
    'recommendations.deleteForAsset',
    RECOMMENDATIONS,
    'write',
    { item: onAsset('write') },
  ),
  route(
    'GET',
    '/recommendations/global/{id}',
    'recommendations.global.get',
    RECOMMENDATIONS,
    'read',
    offAsset(RECOMMENDATIONS, 'read'),
  ),
  route(
    'PATCH',
    '/recommendations/global/{id}',
    'recommendations.global.update',
    RECOMMENDATIONS,
    'write',
    offAsset(RECOMMENDATIONS, 'write'),
  ),
  route(
    'DELETE',
    '/recommendations/global/{id}',
    'recommendations.global.delete',
    RECOMMENDATIONS,
    'write',
    offAsset(RECOMMENDATIONS, 'write'),
  ),
];

const ASSET_ROUTES: readonly HttpRoute[] = [
  ...SITE_ROUTES,
  ...DOCUMENT_ROUTES,
  ...IMAGE_ROUTES,
  ...PUBLIC_DATA_ROUTES,
  ...PROJECT_ROUTES,
  ...RECOMMENDATION_ROUTES,
];

const ASSETS_QUEUES: readonly QueueDecl[] = [
  {
    name: 'asset-images',
    consumer: 'asset-images',
    batchSize: 5,
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: 3,
  },
];

const ASSETS_SUBSCRIPTIONS: readonly SubscriptionDecl[] = [
  // Uploaded site pictures; the worker acts only on `assets/{id}/images/originals/`, never on its own output.
  { bucket: 'documents', prefix: 'assets/', queue: 'asset-images' },
];

/** Sites: the list, wizard, documents, pictures, public data, projects and recommendations. */
export const ASSETS_AREA: AreaDecl = {
  name: 'assets',
  resources: ASSETS_AREA_RESOURCES,
  routes: withQueries([...ASSET_ROUTES], {
    'GET /assets': assetListQuery,
    'GET /assets/{id}/timeline-events': sitePageQuery,
    'GET /assets/{id}/documents': assetDocumentsQuery,
    'GET /assets/{id}/geocoordinates': geocoordinatesQuery,
    'GET /assets/{id}/crime': crimeQuery,
    'GET /assets/{id}/flood-risks': floodRisksQuery,
    'GET /assets/{id}/air-quality': airQualityQuery,
    'GET /certificates': certificateSearchQuery,
    'GET /certificates/{id}': certificateQuery,
    'GET /assets/image-upload-url': imageUploadUrlQuery,
  }),
  queues: ASSETS_QUEUES,
  subscriptions: ASSETS_SUBSCRIPTIONS,
};
