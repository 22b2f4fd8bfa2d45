import useSWR from 'swr';
import type {
  RecommendationPage,
  RecommendationView,
} from '../../shared/schemas/responses/recommendations.ts';
import { keysUnder, useEndpoint } from './endpoint.ts';

export type { RecommendationView } from '../../shared/schemas/responses/recommendations.ts';

type Body = Record<string, unknown>;

/** The company's own recommendations among all it can see: those tied to no site. */
export const companyOwn = (page: RecommendationPage | undefined) =>
  (page?.data ?? []).filter((r) => !r.assetId);

export const recommendationKeys = {
  all: '/recommendations?limit=1000',
  ofAsset: (assetId: string) => `/recommendations?assetId=${assetId}`,
  global: (id: string) => `/recommendations/global/${id}`,
} as const;

/** A change to any recommendation can show in every recommendations list, site or company. */
const anyRecommendation = keysUnder('/recommendations');

/** GET /recommendations?limit=1000: every recommendation the user may see. */
export const useRecommendations = () => useSWR<RecommendationPage>(recommendationKeys.all);

/** GET /recommendations?assetId=… */
export const useAssetRecommendations = (assetId: string) =>
  useSWR<RecommendationPage>(recommendationKeys.ofAsset(assetId));

/** GET /recommendations/global/{id} */
export const useGlobalRecommendation = (id: string | null) =>
  useSWR<RecommendationView>(id ? recommendationKeys.global(id) : null);

/** POST /recommendations: a company-wide recommendation. */
export const useAddGlobalRecommendation = () =>
  useEndpoint(
    (api, body: Body) => api.post('/recommendations', body),
    () => [anyRecommendation],
  );

/** PATCH /recommendations/global/{id} */
export const useUpdateGlobalRecommendation = () =>
  useEndpoint(
    (api, id: string, body: Body) => api.patch(recommendationKeys.global(id), body),
    () => [anyRecommendation],
  );

/** DELETE /recommendations/global/{id} */
export const useDeleteGlobalRecommendation = () =>
  useEndpoint(
    (api, id: string) => api.del(recommendationKeys.global(id)),
    () => [anyRecommendation],
  );

/** POST /assets/{id}/recommendations: a site's own, or a copy of a company-wide one. */
export const useAddAssetRecommendation = (assetId: string) =>
  useEndpoint(
    (api, body: Body) => api.post(`/assets/${assetId}/recommendations`, body),
    () => [anyRecommendation],
  );

/** PATCH /recommendations/{id}: a site recommendation's status. */
export const useSetRecommendationStatus = () =>
  useEndpoint(
    (api, id: string, status: string) => api.patch(`/recommendations/${id}`, { status }),
    () => [anyRecommendation],
  );

/** DELETE /assets/{id}/recommendations/{recommendationId} */
export const useDeleteAssetRecommendation = (assetId: string) =>
  useEndpoint(
    (api, id: string) => api.del(`/assets/${assetId}/recommendations/${id}`),
    () => [anyRecommendation],
  );
