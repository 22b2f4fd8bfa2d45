import useSWR from 'swr';
import { MESSAGES } from '../../../shared/messages.ts';
import type { ContractView } from '../../../shared/schemas/account-contracts.ts';
import type { ReadingView } from '../../../shared/schemas/account-readings.ts';
import type {
  AccountConsumption,
  AccountView,
  ListAnswer,
  StatusHistoryEntry,
} from '../../../shared/schemas/account-views.ts';
import { ApiError } from '../../lib/api-client.ts';

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
} as const;

export interface AssetOption {
  _id: string;
  siteName: string;
}

export interface SupplierOption {
  _id: string;
  name: string;
  type?: string;
  utilityTypes?: string[];
}

export const useAccount = (id: string | undefined) =>
  useSWR<AccountView>(id ? accountKeys.account(id) : null);
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

export interface FormFailure {
  /** Messages beside their fields, from the API's formMessages. */
  fields: Record<string, string>;
  /** A message for the whole form, when no field explains the failure. */
  message?: string;
}

/** What a failed submit shows: the server's field messages, else the client's message for the action. */
export function formFailureOf(error: unknown, fallback: string = MESSAGES.submitProblem): FormFailure {
  if (error instanceof ApiError && error.formMessages && Object.keys(error.formMessages).length > 0) {
    const { _form: form, ...fields } = error.formMessages;
    return { fields, ...(form ? { message: form } : {}) };
  }
  if (error instanceof ApiError && error.status === 403) return { fields: {}, message: error.message };
  return { fields: {}, message: fallback };
}

/** Today as YYYY-MM-DD in the browser's time zone. */
export function todayIso(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
