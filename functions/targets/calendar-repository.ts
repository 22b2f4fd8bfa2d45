/**
 * | pattern                                  | key condition                                         | index |
 * | ---------------------------------------- | ----------------------------------------------------- | ----- |
 * | every live site of a company (some fields) | pk = C#{companyId}#assets                           | table |
 * | sites by ids                             | BatchGet pk = C#{companyId}#assets, sk = ids          | table |
 * | a site's tenants and their leases        | pk = C#{companyId}#assets#{assetId}#tenants           | table |
 */
import { getItems, projectAll } from '../core/data/batch-reads.ts';
import { queryAll, type StoredItem } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';

const SITE_FIELDS = ['siteName', 'epc', 'epcRating', 'address'] as const;

/** A site as the regulatory calendar reads it; fields a site was stored without (or with junk) are absent. */
export interface CalendarSite {
  _id: string;
  siteName?: string;
  epc?: { band?: string; kind?: string; lodgementDate?: string };
  epcRating?: string;
  country?: string;
}

/** A tenant of a site with the dates of its lease, each absent when not stored. */
export interface CalendarTenant {
  _id: string;
  name?: string;
  leaseStart?: string;
  leaseEnd?: string;
  leaseBreak?: string;
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const recordOf = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

function toSite(item: StoredItem): CalendarSite {
  const epc = recordOf(item.epc);
  return {
    _id: item._id,
    siteName: textOf(item.siteName),
    epc: epc && {
      band: textOf(epc.band),
      kind: textOf(epc.kind),
      lodgementDate: textOf(epc.lodgementDate),
    },
    epcRating: textOf(item.epcRating),
    country: textOf(recordOf(item.address)?.country),
  };
}

const toTenant = (item: StoredItem): CalendarTenant => ({
  _id: item._id,
  name: textOf(item.name),
  leaseStart: textOf(item.leaseStart),
  leaseEnd: textOf(item.leaseEnd),
  leaseBreak: textOf(item.leaseBreak),
});

export async function allSites(companyId: string): Promise<CalendarSite[]> {
  return (await projectAll(keys.collection({ companyId }, 'assets'), [...SITE_FIELDS])).map(toSite);
}

export async function sitesByIds(companyId: string, ids: readonly string[]): Promise<CalendarSite[]> {
  const found = await getItems(keys.collection({ companyId }, 'assets'), ids);
  return ids
    .map((id) => found.get(id))
    .filter((s): s is StoredItem => !!s && s.deleted !== true)
    .map(toSite);
}

export async function tenantsOf(companyId: string, assetId: string): Promise<CalendarTenant[]> {
  const items = await queryAll(keys.subCollection({ companyId }, 'assets', assetId, 'tenants'));
  return items.filter((t) => t.deleted !== true).map(toTenant);
}
