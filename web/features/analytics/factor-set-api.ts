import useSWR from 'swr';
import type {
  FactorSets,
  RestatementJobView as RestatementJob,
} from '../../../shared/schemas/responses/factor-sets.ts';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';

export type {
  FactorSets,
  Restatement,
  RestatementJobView as RestatementJob,
} from '../../../shared/schemas/responses/factor-sets.ts';

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
