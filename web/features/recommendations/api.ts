import useSWR from 'swr';
import type { ListPage, RecommendationView } from '../assets/api.ts';

/** A company-wide recommendation: one with no site, which sites copy from. */
export type GlobalRecommendation = RecommendationView;

/** The company's own recommendations among all it can see: those tied to no site. */
export const companyOwn = (page: ListPage<GlobalRecommendation> | undefined) =>
  (page?.data ?? []).filter((r) => !r.assetId);

export const recommendationKeys = {
  all: '/recommendations?limit=1000',
  global: (id: string) => `/recommendations/global/${id}`,
} as const;

export const isRecommendationKey = (key: unknown) =>
  typeof key === 'string' && key.startsWith('/recommendations');

export const useRecommendations = () => useSWR<ListPage<GlobalRecommendation>>(recommendationKeys.all);
export const useGlobalRecommendation = (id: string | null) =>
  useSWR<GlobalRecommendation>(id ? recommendationKeys.global(id) : null);
