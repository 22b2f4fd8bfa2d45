import useSWR from 'swr';
import type { EnergyBenchmarkKind } from '../../../shared/benchmarks/energy-benchmarks.ts';
import type { NamedRef } from '../../../shared/schemas/register.ts';
import type {
  CrremSiteDetail,
  CrremTable,
  EnergyTable,
  PathwaySetListItem,
  PathwaySetView,
} from '../../../shared/schemas/responses/benchmarks.ts';
import type { ListPage } from '../../../shared/schemas/responses/common.ts';
import { useEndpoint } from '../../lib/endpoint.ts';

export type * from '../../../shared/schemas/responses/benchmarks.ts';

export interface BenchmarkFilters {
  assetGroupId?: string;
  entityId?: string;
  propertyType?: string;
}

const query = (values: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v) q.set(k, v);
  const text = q.toString();
  return text ? `?${text}` : '';
};

export const benchmarkKeys = {
  crrem: (f: BenchmarkFilters & { setId?: string }) => `/benchmarks/crrem/sites${query({ ...f })}`,
  crremSite: (id: string, setId?: string) => `/benchmarks/crrem/sites/${id}${query({ setId })}`,
  pathwaySets: '/benchmarks/crrem/pathway-sets',
  energy: (kind: EnergyBenchmarkKind, f: BenchmarkFilters) => `/benchmarks/${kind}/sites${query({ ...f })}`,
  portfolios: '/users/me/asset-groups?limit=1000',
  entities: '/entities?limit=1000',
} as const;

const OPTIONS = { keepPreviousData: true } as const;

/** GET /benchmarks/crrem/sites: every readable site against its pathway. */
export const useCrremTable = (filters: BenchmarkFilters & { setId?: string }) =>
  useSWR<CrremTable>(benchmarkKeys.crrem(filters), OPTIONS);

/** GET /benchmarks/crrem/sites/{id}: one site's intensities and pathway, for its chart. */
export const useCrremSite = (id: string | undefined, setId?: string) =>
  useSWR<CrremSiteDetail>(id ? benchmarkKeys.crremSite(id, setId) : null);

/** GET /benchmarks/crrem/pathway-sets */
export const usePathwaySets = () => useSWR<ListPage<PathwaySetListItem>>(benchmarkKeys.pathwaySets);

/** GET /benchmarks/{kind}/sites: sites against LETI, REEB or ETN figures. */
export const useEnergyTable = (kind: EnergyBenchmarkKind, filters: BenchmarkFilters) =>
  useSWR<EnergyTable>(benchmarkKeys.energy(kind, filters), OPTIONS);

export const usePortfolioOptions = () => useSWR<ListPage<NamedRef>>(benchmarkKeys.portfolios);
export const useEntityOptions = () => useSWR<ListPage<NamedRef>>(benchmarkKeys.entities);

export interface PathwayUpload {
  name: string;
  version: string;
  source: string;
  illustrative: boolean;
  csv: string;
}

/** POST /benchmarks/crrem/pathway-sets (staff): a new set; every CRREM read is stale after it. */
export const useUploadPathways = () =>
  useEndpoint(
    (api, upload: PathwayUpload) => api.post<PathwaySetView>(benchmarkKeys.pathwaySets, upload),
    () => [(key: string) => key.startsWith('/benchmarks/crrem')],
  );

/** A building type's figures as staff set them: kWh/m²/yr, with where they come from. */
export interface EnergyFiguresInput {
  kind: EnergyBenchmarkKind;
  propertyType: string;
  values: { target?: number; goodPractice?: number; typical?: number };
  source: string;
  period: string;
  illustrative: boolean;
}

/**
 * PATCH /benchmarks/{id} for a building type the set has, POST /benchmarks for a new one (staff only);
 * the kind's site table is stale after either.
 */
export const useSaveEnergyFigures = () =>
  useEndpoint(
    (api, existingId: string | undefined, input: EnergyFiguresInput) =>
      existingId
        ? api.patch<unknown>(`/benchmarks/${existingId}`, {
            values: input.values,
            source: input.source,
            period: input.period,
            illustrative: input.illustrative,
          })
        : api.post<unknown>('/benchmarks', {
            name: `${input.kind.toUpperCase()} – ${input.propertyType}`,
            ...input,
          }),
    (_result, [, input]) => [(key: string) => key.startsWith(`/benchmarks/${input.kind}/`)],
  );
