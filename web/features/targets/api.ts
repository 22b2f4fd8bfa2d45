import useSWR from 'swr';
import type { TargetFields } from '../../../shared/schemas/targets.ts';
import type { Evaluation } from '../../../shared/targets/target-maths.ts';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';

/** A target as the API answers it, with the name of what it covers. */
export type TargetView = TargetFields & { _id: string; scopeName?: string };

export interface TargetProgress extends Evaluation {
  target: TargetView;
  note?: string;
}

export interface ScopeOption {
  _id: string;
  name: string;
}

export interface Scopes {
  company: boolean;
  entities: ScopeOption[];
  portfolios: ScopeOption[];
  sites: ScopeOption[];
}

export const targetKeys = {
  list: '/targets',
  progress: '/targets/progress',
  scopes: '/targets/scopes',
} as const;

/** Every targets read, list and progress alike, changes with any target. */
const anyTarget = keysUnder('/targets');

/** GET /targets */
export const useTargets = () => useSWR<{ data: TargetView[]; total: number }>(targetKeys.list);
/** GET /targets/progress */
export const useTargetProgress = () => useSWR<{ data: TargetProgress[]; total: number }>(targetKeys.progress);
/** GET /targets/scopes */
export const useTargetScopes = () => useSWR<Scopes>(targetKeys.scopes);

type Body = Record<string, unknown>;

/** POST /targets */
export const useCreateTarget = () =>
  useEndpoint(
    (api, body: Body) => api.post<TargetView>('/targets', body),
    () => [anyTarget],
  );

/** PATCH /targets/{id} */
export const useUpdateTarget = () =>
  useEndpoint(
    (api, id: string, body: Body) => api.patch<TargetView>(`/targets/${id}`, body),
    () => [anyTarget],
  );

/** DELETE /targets/{id} */
export const useDeleteTarget = () =>
  useEndpoint(
    (api, id: string) => api.del(`/targets/${id}`),
    () => [anyTarget],
  );
