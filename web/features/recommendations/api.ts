import useSWR from 'swr';

/** A company-wide recommendation: one with no site, which sites copy from. */
export interface GlobalRecommendation {
  _id: string;
  title: string;
  description?: string;
  assetId?: string;
  category?: string;
  estimatedSaving?: number;
  estimatedCost?: number;
  priority: 'low' | 'medium' | 'high';
  status: string;
}

interface ListAnswer<T> {
  data: T[];
  total: number;
}

export const recommendationKeys = {
  all: '/recommendations?limit=1000',
  global: (id: string) => `/recommendations/global/${id}`,
} as const;

export const isRecommendationKey = (key: unknown) =>
  typeof key === 'string' && key.startsWith('/recommendations');

export const useRecommendations = () => useSWR<ListAnswer<GlobalRecommendation>>(recommendationKeys.all);
export const useGlobalRecommendation = (id: string | null) =>
  useSWR<GlobalRecommendation>(id ? recommendationKeys.global(id) : null);
