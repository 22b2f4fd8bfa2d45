import useSWR from 'swr';
import type { ListPage } from '../../../shared/schemas/responses/common.ts';
import type { Scopes, TargetProgress, TargetView } from '../../../shared/schemas/responses/targets.ts';
import { keysUnder, useEndpoint } from '../../lib/endpoint.ts';

export type {
  ScopeOption,
  Scopes,
  TargetProgress,
  TargetView,
} from '../../../shared/schemas/responses/targets.ts';

export const targetKeys = {
  list: '/targets',
  progress: '/targets/progress',
  scopes: '/targets/scopes',
} as const;

/** Every targets read, list and progress alike, changes with any target. */
const anyTarget = keysUnder('/targets');

/** GET /targets */
export const useTargets = () => useSWR<ListPage<TargetView>>(targetKeys.list);
/** GET /targets/progress */
export const useTargetProgress = () => useSWR<ListPage<TargetProgress>>(targetKeys.progress);
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
