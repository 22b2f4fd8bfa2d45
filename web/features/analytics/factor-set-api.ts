import useSWR from 'swr';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';

export interface FactorSets {
  current: { id: string; label: string; restatedAt?: string };
  /** `current`: the edition new figures are worked out in. */
  editions: { id: string; label: string; current?: boolean }[];
}

export interface Restatement {
  factorSet: string;
  months: number;
  years: { year: string; beforeKg: number; afterKg: number }[];
}

/** A restatement asked for: the worker moves it on, and the server's live messages say when it has. */
export interface RestatementJob {
  jobId: string;
  factorSet: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  requestedAt: string;
  finishedAt?: string;
  result?: Restatement;
  error?: string;
}

export const FACTOR_SETS_KEY = '/analytics/factor-sets';

/** GET /analytics/factor-sets: the edition of the emission factors the company's figures are in. */
export const useFactorSets = () => useSWR<FactorSets>(FACTOR_SETS_KEY);

/**
 * GET /analytics/factor-sets/restatements/{jobId}: fetched again when the worker announces progress
 * (its messages name the factor sets' paths), and every few seconds meanwhile in case one is missed.
 */
export const useRestatementJob = (jobId: string | undefined) =>
  useSWR<RestatementJob>(jobId ? `${FACTOR_SETS_KEY}/restatements/${jobId}` : null, {
    refreshInterval: (job) => (job && (job.status === 'done' || job.status === 'failed') ? 0 : 5000),
  });

/** POST /analytics/factor-sets/restate: answers the queued job; the figures change when it is done. */
export const useRestate = () =>
  useEndpoint(
    (api, factorSet: string) => api.post<RestatementJob>('/analytics/factor-sets/restate', { factorSet }),
    () => [keysUnder(FACTOR_SETS_KEY)],
  );
