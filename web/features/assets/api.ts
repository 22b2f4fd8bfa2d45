import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { UploadTicket } from '../../../shared/schemas/asset-documents.ts';
import type {
  AirQuality,
  CrimeSummary,
  FloodRisks,
  Geocoordinates,
} from '../../../shared/schemas/asset-public-data.ts';
import type { AssetStatus } from '../../../shared/schemas/asset-wizard.ts';
import type { ImportResult, ImportRollbackResult } from '../../../shared/schemas/register-imports.ts';
import type {
  AddressView,
  AssetAccountTypes,
  AssetView,
  CertificateView,
  DocumentView,
  EnhancedImage,
  HistoryEntry,
  ProjectView,
  Tenant,
} from '../../../shared/schemas/responses/assets.ts';
import type { DownloadLink, ListPage } from '../../../shared/schemas/responses/common.ts';
import type { EntityOption } from '../../../shared/schemas/responses/entities.ts';
import { assetKey } from '../../lib/asset-api.ts';
import { useEndpoint } from '../../lib/endpoint.ts';

export {
  type AddressView,
  type AssetImageView,
  type AssetView,
  assetKey,
  useAsset,
} from '../../lib/asset-api.ts';

import { contentTypeOf, putWithProgress } from '../../lib/upload.ts';

export type {
  CertificateView,
  DocumentView,
  HistoryEntry,
  ProjectView,
  Tenant,
} from '../../../shared/schemas/responses/assets.ts';

import type { WizardCheck } from '../../../shared/schemas/responses/assets.ts';
import type { CompanyView } from '../../../shared/schemas/responses/company.ts';
import type { AssetGroup } from '../../../shared/schemas/responses/portfolios.ts';

export type { ListPage } from '../../../shared/schemas/responses/common.ts';
export type { EntityOption } from '../../../shared/schemas/responses/entities.ts';
export type { RecommendationView } from '../../../shared/schemas/responses/recommendations.ts';

/** While a picture is being processed the site is fetched again every 1.5 s, until the worker is done. */
export function useAssetWhile(id: string | undefined, waiting: boolean) {
  return useSWR<AssetView>(assetKey(id), { refreshInterval: waiting ? 1500 : 0 });
}

export function useEntityOptions() {
  return useSWR<ListPage<EntityOption>>('/entities?limit=1000');
}

/** The company's document categories, from its settings. */
export function useDocumentCategories(): string[] {
  const { data } = useSWR<Pick<CompanyView, 'settings'>>('/users/me/company');
  return data?.settings?.documentCategories ?? [];
}

/** Fetches again every cached answer whose key starts with one of these paths. */
export function useRefresh() {
  const { mutate } = useSWRConfig();
  return useCallback(
    (...prefixes: string[]) =>
      mutate(
        (key) =>
          typeof key === 'string' &&
          prefixes.some((p) => key === p || key.startsWith(`${p}?`) || key.startsWith(`${p}/`)),
      ),
    [mutate],
  );
}

export const STATUS_LABELS: Record<AssetStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  sold: 'Sold',
  development: 'In development',
};

export function addressLine(address: AddressView | undefined): string {
  if (!address) return '';
  return [address.streetAddress, address.locality, address.postCode].filter(Boolean).join(', ');
}

export function fileSize(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Every cached read at one of these paths or below it. */
export const atPaths =
  (...prefixes: string[]) =>
  (key: string): boolean =>
    prefixes.some((p) => key === p || key.startsWith(`${p}?`) || key.startsWith(`${p}/`));

type Body = Record<string, unknown>;
/** What a list read gives a component: the answer, the failure, and whether the first answer is awaited. */
export type Read<T> = { data?: T; error?: unknown; isLoading: boolean };

const siteKeys = (id: string) => [atPaths(`/assets/${id}`, '/assets')];

/** GET /assets?…: a page of the sites list; the previous page stays shown while the next one loads. */
export const useAssetList = (key: string) => useSWR<ListPage<AssetView>>(key, { keepPreviousData: true });

/** POST /assets/import: a CSV file of sites. */
export const useImportAssets = () =>
  useEndpoint(
    (api, file: { fileName: string; csv: string }) => api.post<ImportResult>('/assets/import', file),
    () => [atPaths('/assets')],
  );

/** POST /assets/import-rollback */
export const useRollbackAssetImport = () =>
  useEndpoint(
    (api, batchId: string) => api.post<ImportRollbackResult>('/assets/import-rollback', { batchId }),
    () => [atPaths('/assets')],
  );

/** POST /assets/wizard-check: the values as the site would be created with them. */
export const useCheckWizardAsset = () =>
  useEndpoint((api, body: Body) => api.post<WizardCheck>('/assets/wizard-check', body));

/** POST /assets/wizard-submit */
export const useSubmitWizardAsset = () =>
  useEndpoint(
    (api, body: Body) => api.post<AssetView>('/assets/wizard-submit', body),
    () => [atPaths('/assets')],
  );

/** PATCH /assets/{id} */
export const useUpdateAsset = () =>
  useEndpoint(
    (api, id: string, body: Body) => api.patch(`/assets/${id}`, body),
    (_, [id]) => siteKeys(id),
  );

/** PATCH /assets/{id}/address */
export const useUpdateAssetAddress = () =>
  useEndpoint(
    (api, id: string, body: Body) => api.patch(`/assets/${id}/address`, body),
    (_, [id]) => siteKeys(id),
  );

/** DELETE /assets/{id} */
export const useDeleteAsset = () =>
  useEndpoint(
    (api, id: string) => api.del(`/assets/${id}`),
    () => [atPaths('/assets')],
  );

/** GET /assets/{id}/geocoordinates?refresh=true: looks the site up again from its postcode. */
export const useRefreshGeocoordinates = () =>
  useEndpoint(
    (api, id: string) =>
      api.get<Geocoordinates>(`/assets/${id}/geocoordinates`, { query: { refresh: 'true' } }),
    (_, [id]) => [atPaths(`/assets/${id}`)],
  );

/** PUT /assets/{id}/satellite-images */
export const useSetSatelliteImages = () =>
  useEndpoint(
    (api, id: string, satelliteImages: { url: string; label?: string }[]) =>
      api.put(`/assets/${id}/satellite-images`, { satelliteImages }),
    (_, [id]) => [atPaths(`/assets/${id}`)],
  );

/** GET /assets/{id}/account-types: the utilities of the site's meters, with counts. */
export const useAssetAccountTypes = (id: string) => useSWR<AssetAccountTypes>(`/assets/${id}/account-types`);

/** GET /assets/{id}/asset-groups: the portfolios the site is in. */
export const useAssetGroupsOf = (id: string) =>
  useSWR<ListPage<Pick<AssetGroup, '_id' | 'name'>>>(`/assets/${id}/asset-groups`);

/** GET /assets/image-upload-url, then the PUT: the worker adds the picture to the site later. */
export const useUploadAssetImage = (id: string) =>
  useEndpoint(async (api, file: File, type: string, onProgress: (percent: number) => void) => {
    const ticket = await api.get<UploadTicket>('/assets/image-upload-url', {
      query: { fileType: type, assetId: id, size: String(file.size) },
    });
    await putWithProgress(ticket, file, onProgress);
    return ticket;
  });

/** PUT /assets/{id}/primary-thumbnail */
export const useSetPrimaryImage = (id: string) =>
  useEndpoint(
    (api, choice: { imageId: string } | { index: number }) =>
      api.put(`/assets/${id}/primary-thumbnail`, choice),
    () => [atPaths('/assets')],
  );

/** POST /assets/{id}/images/{imageId}/enhance */
export const useEnhanceImage = (id: string) =>
  useEndpoint(
    (api, imageId: string) => api.post<EnhancedImage>(`/assets/${id}/images/${imageId}/enhance`),
    () => [atPaths(`/assets/${id}`)],
  );

/** GET /certificates?postcode=…&kind=… */
export const useCertificateSearch = (asked: { postcode: string; kind: string } | undefined) =>
  useSWR<ListPage<CertificateView>>(asked ? `/certificates?${new URLSearchParams(asked)}` : null);

/** GET /certificates/{id}?kind=… */
export const useCertificate = (id: string, kind: string | null) =>
  useSWR<CertificateView>(`/certificates/${encodeURIComponent(id)}${kind ? `?kind=${kind}` : ''}`);

/** PUT /assets/{id}/epc-certificate: the certificate becomes the site's rating. */
export const useLinkCertificate = () =>
  useEndpoint(
    (api, id: string, body: { certificateId?: string; kind?: string }) =>
      api.put(`/assets/${id}/epc-certificate`, body),
    (_, [id]) => siteKeys(id),
  );

const documentsKey = (id: string) => `/assets/${id}/documents`;

/** GET /assets/{id}/documents */
export const useAssetDocuments = (id: string) => useSWR<ListPage<DocumentView>>(documentsKey(id));

/** POST /assets/{id}/documents/upload, the PUT, then POST /assets/{id}/documents to keep it. */
export const useUploadAssetDocument = (id: string) =>
  useEndpoint(
    async (
      api,
      file: File,
      meta: { name: string; category?: string },
      onProgress: (percent: number) => void,
    ) => {
      const category = meta.category ? { category: meta.category } : {};
      const ticket = await api.post<UploadTicket>(`/assets/${id}/documents/upload`, {
        fileName: file.name,
        contentType: contentTypeOf(file),
        size: file.size,
        ...category,
      });
      await putWithProgress(ticket, file, onProgress);
      return api.post<DocumentView>(`/assets/${id}/documents`, {
        key: ticket.key,
        name: meta.name,
        fileName: file.name,
        ...category,
      });
    },
    () => [atPaths(documentsKey(id))],
  );

/** GET /assets/{id}/documents/{documentId}/download */
export const useAssetDocumentLink = (id: string) =>
  useEndpoint((api, documentId: string) =>
    api.get<DownloadLink>(`${documentsKey(id)}/${documentId}/download`),
  );

/** PATCH /assets/{id}/documents/{documentId} */
export const useUpdateAssetDocument = (id: string) =>
  useEndpoint(
    (api, documentId: string, body: Body) => api.patch(`${documentsKey(id)}/${documentId}`, body),
    () => [atPaths(documentsKey(id))],
  );

/** DELETE /assets/{id}/documents/{documentId} */
export const useDeleteAssetDocument = (id: string) =>
  useEndpoint(
    (api, documentId: string) => api.del(`${documentsKey(id)}/${documentId}`),
    () => [atPaths(documentsKey(id))],
  );

const statusHistoryKey = (id: string) => `/assets/${id}/status-history`;
/** A status change moves the site's status, so the site and the sites list are read again. */
const statusStale = (id: string) => [atPaths(statusHistoryKey(id), `/assets/${id}`, '/assets')];

/** GET /assets/{id}/status-history */
export const useAssetStatusHistory = (id: string) => useSWR<ListPage<HistoryEntry>>(statusHistoryKey(id));

/** POST /assets/{id}/status-history */
export const useAddAssetStatus = (id: string) =>
  useEndpoint(
    (api, body: Body) => api.post(statusHistoryKey(id), body),
    () => statusStale(id),
  );

/** PATCH /assets/{id}/status-history/{entryId} */
export const useUpdateAssetStatus = (id: string) =>
  useEndpoint(
    (api, entryId: string, body: Body) => api.patch(`${statusHistoryKey(id)}/${entryId}`, body),
    () => statusStale(id),
  );

/** DELETE /assets/{id}/status-history/{entryId} */
export const useDeleteAssetStatus = (id: string) =>
  useEndpoint(
    (api, entryId: string) => api.del(`${statusHistoryKey(id)}/${entryId}`),
    () => statusStale(id),
  );

const timelineKey = (id: string) => `/assets/${id}/timeline-events`;

/** GET /assets/{id}/timeline-events */
export const useTimeline = (id: string) => useSWR<ListPage<HistoryEntry>>(timelineKey(id));

/** POST /assets/{id}/timeline-events */
export const useAddTimelineEvent = (id: string) =>
  useEndpoint(
    (api, body: Body) => api.post(timelineKey(id), body),
    () => [timelineKey(id)],
  );

/** PATCH /assets/{id}/timeline-events/{eventId} */
export const useUpdateTimelineEvent = (id: string) =>
  useEndpoint(
    (api, eventId: string, body: Body) => api.patch(`${timelineKey(id)}/${eventId}`, body),
    () => [timelineKey(id)],
  );

/** DELETE /assets/{id}/timeline-events/{eventId} */
export const useDeleteTimelineEvent = (id: string) =>
  useEndpoint(
    (api, eventId: string) => api.del(`${timelineKey(id)}/${eventId}`),
    () => [timelineKey(id)],
  );

const tenantsKey = (id: string) => `/assets/${id}/tenants`;

/** GET /assets/{id}/tenants */
export const useTenants = (id: string) => useSWR<ListPage<Tenant>>(tenantsKey(id));

/** POST /assets/{id}/tenants */
export const useAddTenant = (id: string) =>
  useEndpoint(
    (api, body: Body) => api.post(tenantsKey(id), body),
    () => [tenantsKey(id)],
  );

/** PATCH /assets/{id}/tenants/{tenantId} */
export const useUpdateTenant = (id: string) =>
  useEndpoint(
    (api, tenantId: string, body: Body) => api.patch(`${tenantsKey(id)}/${tenantId}`, body),
    () => [tenantsKey(id)],
  );

/** DELETE /assets/{id}/tenants/{tenantId} */
export const useDeleteTenant = (id: string) =>
  useEndpoint(
    (api, tenantId: string) => api.del(`${tenantsKey(id)}/${tenantId}`),
    () => [tenantsKey(id)],
  );

/** The public services are slow to change; one answer per visit is enough. */
const ONCE = { revalidateIfStale: false, shouldRetryOnError: false } as const;

/** GET /assets/{id}/flood-risks */
export const useFloodRisks = (id: string) => useSWR<FloodRisks>(`/assets/${id}/flood-risks`, ONCE);
/** GET /assets/{id}/crime */
export const useCrime = (id: string) => useSWR<CrimeSummary>(`/assets/${id}/crime`, ONCE);
/** GET /assets/{id}/air-quality */
export const useAirQuality = (id: string) => useSWR<AirQuality>(`/assets/${id}/air-quality`, ONCE);

const projectKey = (projectId: string) => `/projects/${projectId}`;

/** GET /projects?assetId=… */
export const useProjects = (assetId: string) => useSWR<ListPage<ProjectView>>(`/projects?assetId=${assetId}`);

/** GET /projects/{id} */
export const useProject = (projectId: string | undefined) =>
  useSWR<ProjectView>(projectId ? projectKey(projectId) : null);

/** POST /projects */
export const useAddProject = () =>
  useEndpoint(
    (api, body: Body) => api.post<ProjectView>('/projects', body),
    () => [atPaths('/projects')],
  );

/** PATCH /projects/{id} */
export const useUpdateProject = () =>
  useEndpoint(
    (api, projectId: string, body: Body) => api.patch<ProjectView>(projectKey(projectId), body),
    () => [atPaths('/projects')],
  );

/** DELETE /projects/{id} */
export const useDeleteProject = () =>
  useEndpoint(
    (api, projectId: string) => api.del(projectKey(projectId)),
    () => [atPaths('/projects')],
  );

/** POST /projects/{id}/tasks */
export const useAddTask = (projectId: string) =>
  useEndpoint(
    (api, body: { title: string; dueDate?: string }) => api.post(`${projectKey(projectId)}/tasks`, body),
    () => [projectKey(projectId)],
  );

/** PATCH /projects/{id}/tasks/{taskId} */
export const useUpdateTask = (projectId: string) =>
  useEndpoint(
    (api, taskId: string, body: { done: boolean }) =>
      api.patch(`${projectKey(projectId)}/tasks/${taskId}`, body),
    () => [projectKey(projectId)],
  );

/** DELETE /projects/{id}/tasks/{taskId} */
export const useDeleteTask = (projectId: string) =>
  useEndpoint(
    (api, taskId: string) => api.del(`${projectKey(projectId)}/tasks/${taskId}`),
    () => [projectKey(projectId)],
  );

/** POST /projects/{id}/documents/upload, then the PUT. */
export const useUploadProjectDocument = (projectId: string) =>
  useEndpoint(
    async (api, file: File, onProgress: (percent: number) => void) => {
      const ticket = await api.post<UploadTicket>(`${projectKey(projectId)}/documents/upload`, {
        fileName: file.name,
        contentType: contentTypeOf(file),
        size: file.size,
      });
      await putWithProgress(ticket, file, onProgress);
      return ticket;
    },
    () => [projectKey(projectId)],
  );

/** GET /projects/{id}/documents/{documentId}/download */
export const useProjectDocumentLink = (projectId: string) =>
  useEndpoint((api, documentId: string) =>
    api.get<DownloadLink>(`${projectKey(projectId)}/documents/${documentId}/download`),
  );

/** DELETE /projects/{id}/documents/{documentId} */
export const useDeleteProjectDocument = (projectId: string) =>
  useEndpoint(
    (api, documentId: string) => api.del(`${projectKey(projectId)}/documents/${documentId}`),
    () => [projectKey(projectId)],
  );
