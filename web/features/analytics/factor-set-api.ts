import useSWR from 'swr';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';

export interface FactorSets {
  current: { id: string; label: string; restatedAt?: string };
  editions: { id: string; label: string }[];
}

export interface Restatement {
  factorSet: string;
  months: number;
  years: { year: string; beforeKg: number; afterKg: number }[];
}

export const FACTOR_SETS_KEY = '/analytics/factor-sets';

/** GET /analytics/factor-sets: the edition of the emission factors the company's figures are in. */
export const useFactorSets = () => useSWR<FactorSets>(FACTOR_SETS_KEY);

/** POST /analytics/factor-sets/restate: every analytics answer is stale after it, the edition too. */
export const useRestate = () =>
  useEndpoint(
    (api, factorSet: string) => api.post<Restatement>('/analytics/factor-sets/restate', { factorSet }),
    () => [keysUnder('/analytics'), keysUnder('/dashboards'), '/users/me/dashboard-data'],
  );
