import useSWR from 'swr';
import type { ProjectTypeView, ProjectView } from '../../../shared/schemas/responses/marketplace.ts';
import { useEndpoint } from '../../lib/endpoint.ts';

export type {
  InterestView,
  ProjectTypeView,
  ProjectView,
} from '../../../shared/schemas/responses/marketplace.ts';

import type { DataList, ListPage } from '../../../shared/schemas/responses/common.ts';
import type { InterestSent, ProjectWithInterests } from '../../../shared/schemas/responses/marketplace.ts';

export type CatalogueFilters = Partial<
  Record<'projectType' | 'approach' | 'registry' | 'maxPrice' | 'minVintage' | 'query', string>
>;

const catalogueKey = (filters: CatalogueFilters) => {
  const params = new URLSearchParams(
    Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])),
  ).toString();
  return `/marketplace/carbon${params ? `?${params}` : ''}`;
};

/** GET /marketplace/carbon/project-types */
export const useProjectTypes = () => useSWR<DataList<ProjectTypeView>>('/marketplace/carbon/project-types');
/** GET /marketplace/carbon, filtered */
export const useCatalogue = (filters: CatalogueFilters) =>
  useSWR<ListPage<ProjectView>>(catalogueKey(filters));
/** GET /marketplace/carbon/{id} */
export const useProject = (id: string | undefined) =>
  useSWR<ProjectWithInterests>(id ? `/marketplace/carbon/${id}` : null);

/** POST /marketplace/carbon/{id}/interest */
export const useRegisterInterest = () =>
  useEndpoint(
    (api, id: string, body: { tonnes: number; note: string }) =>
      api.post<InterestSent>(`/marketplace/carbon/${id}/interest`, body),
    (_r, [id]) => [`/marketplace/carbon/${id}`],
  );
