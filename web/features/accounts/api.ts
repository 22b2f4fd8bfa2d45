import useSWR from 'swr';
import type { ContractView } from '../../../shared/schemas/account-contracts.ts';
import type { ReadingView } from '../../../shared/schemas/account-readings.ts';
import type {
  AccountConsumption,
  AccountView,
  ListAnswer,
  StatusHistoryEntry,
} from '../../../shared/schemas/account-views.ts';
import type { MeterQualityAnswer } from '../../../shared/schemas/dashboard-widgets.ts';
import type { MonthsRebuilt, PresignedUpload } from '../../../shared/schemas/responses/accounts.ts';
import type { AssetView, Tenant } from '../../../shared/schemas/responses/assets.ts';
import type { FileLink } from '../../../shared/schemas/responses/invoices.ts';
import type { Supplier } from '../../../shared/schemas/responses/suppliers.ts';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';

/** One SWR key per call of the account pages; mutations revalidate these keys. */
export const accountKeys = {
  account: (id: string) => `/accounts/${id}`,
  subMeters: (id: string) => `/accounts?parentAccountId=${id}&limit=1000`,
  ofAsset: (assetId: string) => `/accounts?assetId=${assetId}&limit=1000`,
  statusHistory: (id: string) => `/accounts/${id}/status-history?limit=1000`,
  contracts: (id: string) => `/accounts/${id}/contracts?limit=1000`,
  readings: (id: string) => `/readings?accountId=${id}&limit=1000`,
  consumption: (id: string, q: { startDate: string; endDate: string; granularity: string }) =>
    `/accounts/${id}/consumption?startDate=${q.startDate}&endDate=${q.endDate}&granularity=${q.granularity}`,
  assets: '/assets?limit=1000',
  suppliers: '/suppliers?limit=1000',
  wasteCategories: '/accounts/waste-categories',
  tags: '/accounts/tags',
  siteTenants: (assetId: string) => `/assets/${assetId}/tenants?limit=1000`,
} as const;

/** A tenant of a site, as a meter's user names it. */
export type TenantOption = Pick<Tenant, '_id' | 'name' | 'unit'>;

/** An item of GET /assets, as the meter pages use it. */
export type AssetOption = Pick<AssetView, '_id' | 'siteName'> & Partial<Pick<AssetView, 'entityId'>>;
/** An item of GET /suppliers, as the meter pages use it. */
export type SupplierOption = Pick<Supplier, '_id' | 'name'> &
  Partial<Pick<Supplier, 'type' | 'utilityTypes'>>;

export { useAccount } from '../../lib/account-api.ts';
/** GET /assets/{id}/tenants: the tenants a meter of the site may be used by. */
export const useSiteTenants = (assetId: string | undefined) =>
  useSWR<ListAnswer<TenantOption>>(assetId ? accountKeys.siteTenants(assetId) : null);
export const useSubMeters = (id: string) => useSWR<ListAnswer<AccountView>>(accountKeys.subMeters(id));
export const useAccountsOfAsset = (assetId: string | undefined) =>
  useSWR<ListAnswer<AccountView>>(assetId ? accountKeys.ofAsset(assetId) : null);
export const useStatusHistory = (id: string) =>
  useSWR<ListAnswer<StatusHistoryEntry>>(accountKeys.statusHistory(id));
export const useContracts = (id: string) => useSWR<ListAnswer<ContractView>>(accountKeys.contracts(id));
export const useReadings = (id: string) => useSWR<ListAnswer<ReadingView>>(accountKeys.readings(id));
export const useConsumption = (id: string, q: { startDate: string; endDate: string; granularity: string }) =>
  useSWR<AccountConsumption>(accountKeys.consumption(id, q));
export const useAssetOptions = () => useSWR<ListAnswer<AssetOption>>(accountKeys.assets);
export const useSuppliers = () => useSWR<ListAnswer<SupplierOption>>(accountKeys.suppliers);
export const useWasteCategories = () => useSWR<ListAnswer<string>>(accountKeys.wasteCategories);
/** Every tag on the company's meters the caller may read, for suggestions while tagging. */
export const useAccountTags = () => useSWR<ListAnswer<string>>(accountKeys.tags);

export { type FormFailure, formFailureOf } from '../../lib/submit-failure.ts';

/** Today as YYYY-MM-DD in the browser's time zone. */
export function todayIso(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Request bodies are checked by the API against the shared schemas; the client sends plain objects. */
type Body = Record<string, unknown>;

const underAccounts = keysUnder('/accounts');

/** PATCH /accounts/{id}: every account read may show the changed fields. */
export const useUpdateAccount = () =>
  useEndpoint(
    (api, id: string, body: Body) => api.patch<AccountView>(`/accounts/${id}`, body),
    () => [underAccounts],
  );

/** POST /accounts/from-wizard */
export const useCreateAccount = () =>
  useEndpoint(
    (api, body: Body) => api.post<AccountView>('/accounts/from-wizard', body),
    () => [underAccounts],
  );

/** PUT /accounts/{id}/invalidate-cache: the account's figures and every analytics read change. */
export const useRecalculateTotals = () =>
  useEndpoint(
    (api, id: string) => api.put<MonthsRebuilt>(`/accounts/${id}/invalidate-cache`),
    (_, [id]) => [(key) => key.startsWith(`/accounts/${id}/`) || key.includes('analytics')],
  );

const statusKeys = (id: string) => [accountKeys.statusHistory(id), accountKeys.account(id)];

/** POST /accounts/{id}/status-history: the entry may move the account's own status too. */
export const useAddStatus = (accountId: string) =>
  useEndpoint(
    (api, body: Body) => api.post(`/accounts/${accountId}/status-history`, body),
    () => statusKeys(accountId),
  );

/** PATCH /accounts/{id}/status-history/{entryId} */
export const useUpdateStatus = (accountId: string) =>
  useEndpoint(
    (api, entryId: string, body: Body) => api.patch(`/accounts/${accountId}/status-history/${entryId}`, body),
    () => statusKeys(accountId),
  );

/** DELETE /accounts/{id}/status-history/{entryId} */
export const useDeleteStatus = (accountId: string) =>
  useEndpoint(
    (api, entryId: string) => api.del(`/accounts/${accountId}/status-history/${entryId}`),
    () => statusKeys(accountId),
  );

/** POST /accounts/{id}/contracts/upload: where to PUT a contract's PDF. */
export const useContractUpload = (accountId: string) =>
  useEndpoint((api, fileName: string, size: number) =>
    api.post<PresignedUpload>(`/accounts/${accountId}/contracts/upload`, { fileName, size }),
  );

/** POST /accounts/{id}/contracts */
export const useAddContract = (accountId: string) =>
  useEndpoint(
    (api, body: Body) => api.post(`/accounts/${accountId}/contracts`, body),
    () => [accountKeys.contracts(accountId)],
  );

/** PATCH /accounts/{id}/contracts/{contractId} */
export const useUpdateContract = (accountId: string) =>
  useEndpoint(
    (api, contractId: string, body: Body) =>
      api.patch(`/accounts/${accountId}/contracts/${contractId}`, body),
    () => [accountKeys.contracts(accountId)],
  );

/** PATCH /accounts/{id}/contracts/{contractId}/toggle-status */
export const useToggleContract = (accountId: string) =>
  useEndpoint(
    (api, contractId: string) => api.patch(`/accounts/${accountId}/contracts/${contractId}/toggle-status`),
    () => [accountKeys.contracts(accountId)],
  );

/** DELETE /accounts/{id}/contracts/{contractId} */
export const useDeleteContract = (accountId: string) =>
  useEndpoint(
    (api, contractId: string) => api.del(`/accounts/${accountId}/contracts/${contractId}`),
    () => [accountKeys.contracts(accountId)],
  );

/** GET /accounts/{id}/contracts/{contractId}/download: a short-lived address of the contract's file. */
export const useContractDownload = (accountId: string) =>
  useEndpoint((api, contractId: string, name: string) =>
    api.get<FileLink>(`/accounts/${accountId}/contracts/${contractId}/download`, { query: { name } }),
  );

/** POST /accounts/{id}/contracts/{contractId}/rate-types */
export const useSetContractRates = (accountId: string) =>
  useEndpoint(
    (api, contractId: string, body: Body) =>
      api.post(`/accounts/${accountId}/contracts/${contractId}/rate-types`, body),
    () => [accountKeys.contracts(accountId)],
  );

/** POST /readings/photo: where to PUT a reading's photo. */
export const useReadingPhotoUpload = () =>
  useEndpoint((api, body: { accountId: string; fileName: string; contentType: string; size: number }) =>
    api.post<PresignedUpload>('/readings/photo', body),
  );

/** POST /readings/submit */
export const useSubmitReading = (accountId: string) =>
  useEndpoint(
    (api, body: Body) => api.post('/readings/submit', { ...body, accountId }),
    () => [accountKeys.readings(accountId)],
  );

/** PUT /readings/{id}/edit-submission */
export const useEditReading = (accountId: string) =>
  useEndpoint(
    (api, readingId: string, body: Body) => api.put(`/readings/${readingId}/edit-submission`, body),
    () => [accountKeys.readings(accountId)],
  );

/** DELETE /readings/{id} */
export const useDeleteReading = (accountId: string) =>
  useEndpoint(
    (api, readingId: string) => api.del(`/readings/${readingId}`),
    () => [accountKeys.readings(accountId)],
  );

/** GET /readings/{id}/photo: a short-lived address of the reading's photo. */
export const useReadingPhoto = () =>
  useEndpoint((api, readingId: string) => api.get<FileLink>(`/readings/${readingId}/photo`));

/** A meter's gaps, overlaps, estimates and outliers over a window (the Insights data-quality call). */
export const useMeterDataQuality = (id: string, q: { startDate: string; endDate: string }) =>
  useSWR<MeterQualityAnswer>(
    `/analytics/meters/${id}/data-quality?startDate=${q.startDate}&endDate=${q.endDate}`,
  );
