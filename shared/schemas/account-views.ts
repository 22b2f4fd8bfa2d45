import type * as z from 'zod';
import type { accountSchema } from './account.ts';
import type { ConsumptionGranularity } from './account-queries.ts';

/** Answers of the account calls, as the browser reads them. */

export type AccountFields = z.output<typeof accountSchema>;

export interface AccountView extends AccountFields {
  _id: string;
  companyId: string;
  createdAt: string;
  updatedAt: string;
  deleted?: boolean;
  /** Set when the account hangs off a parent account (parentAccountId): the UI's 'Sub-meter' badge. */
  isSubMeter: boolean;
  asset: { _id: string; siteName: string } | null;
  /** GET /accounts/{id} only. */
  parentAccount?: { _id: string; name?: string } | null;
}

export interface ListAnswer<T> {
  data: T[];
  total: number;
  limit: number;
  skip: number;
}

export interface StatusHistoryEntry {
  _id: string;
  status: string;
  date: string;
  comment?: string;
  createdAt: string;
}

/** One period of an account's consumption, in the account's unit. */
export interface ConsumptionPoint {
  /** YYYY-MM for months, YYYY for years. */
  period: string;
  startDate: string;
  endDate: string;
  consumption: number;
  /** Net cost in pounds. */
  cost: number;
  emissionsKg: number;
  /** Some figure of the period is an estimate rather than billed or imported. */
  estimated: boolean;
}

export interface AccountConsumption {
  accountId: string;
  unit: string;
  currency: 'GBP';
  granularity: ConsumptionGranularity;
  startDate: string;
  endDate: string;
  data: ConsumptionPoint[];
  totals: { consumption: number; cost: number; emissionsKg: number };
}

/** The older shape of the same figures (GET /accounts/{id}/consumption-old). */
export interface ConsumptionOldPoint {
  date: string;
  value: number;
}
