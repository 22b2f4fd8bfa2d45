import type { Caller } from '../../shared/access/caller.ts';
import { EPC_BANDS, type EpcBand, isEpcBand, typedEpcBand } from '../../shared/domain/epc.ts';
import { getItems, projectAll } from '../core/data/batch-reads.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { scopeCollectionPk } from './analytics-repository.ts';
import type { ReadScope } from './analytics-scope.ts';

const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;

export interface EpcBandFigures {
  band: EpcBand | 'unrated';
  sites: number;
  /** Sites' floor area in m² (as stored, whatever unit it is shown in); sites with none count 0. */
  floorAreaM2: number;
}

export interface EpcRatings {
  ratings: EpcBandFigures[];
  totals: { sites: number; rated: number; floorAreaM2: number };
}

const SITE_FIELDS = ['siteName', 'epc', 'epcRating', 'floorArea'] as const;

/** The band a site carries: its linked certificate's, else the rating typed on the site ('C', 'C+', '72C'). */
export function bandOf(site: Readonly<Record<string, unknown>>): EpcBand | undefined {
  const linked = site.epc && typeof site.epc === 'object' && 'band' in site.epc ? site.epc.band : undefined;
  return isEpcBand(linked) ? linked : typedEpcBand(site.epcRating);
}

export function floorAreaM2(site: Readonly<Record<string, unknown>>): number {
  return typeof site.floorArea === 'number' && Number.isFinite(site.floorArea) ? site.floorArea : 0;
}

/**
 * The sites a scope reads whole, with their EPC and floor area: every live site for a caller reading the
 * whole company (one projected Query), else the scope's own sites by id. Meters granted on sites the
 * caller may not read bring no site with them.
 */
export async function sitesOf(caller: Caller, scope: ReadScope): Promise<StoredItem[]> {
  const pk = scopeCollectionPk(caller.companyId, 'assets');
  if (scope.kind === 'company' && !scope.restricted) return projectAll(pk, [...SITE_FIELDS]);
  const found = await getItems(
    pk,
    scope.sites.map((s) => s._id),
  );
  return [...found.values()].filter((s) => s.deleted !== true);
}

/** epc-ratings: how many of a scope's sites, and how much floor area, sit in each EPC band. */
export function epcRatingsOf(sites: readonly StoredItem[]): EpcRatings {
  const by = new Map<EpcBandFigures['band'], EpcBandFigures>(
    [...EPC_BANDS, 'unrated' as const].map((band) => [band, { band, sites: 0, floorAreaM2: 0 }]),
  );
  for (const site of sites) {
    const row = by.get(bandOf(site) ?? 'unrated') as EpcBandFigures;
    row.sites += 1;
    row.floorAreaM2 += floorAreaM2(site);
  }
  const ratings = [...by.values()].map((r) => ({ ...r, floorAreaM2: round(r.floorAreaM2, 1) }));
  const unrated = by.get('unrated') as EpcBandFigures;
  return {
    ratings,
    totals: {
      sites: sites.length,
      rated: sites.length - unrated.sites,
      floorAreaM2: round(
        ratings.reduce((n, r) => n + r.floorAreaM2, 0),
        1,
      ),
    },
  };
}
