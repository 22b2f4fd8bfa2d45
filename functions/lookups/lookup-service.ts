import { COUNTRY_LIST_LIMIT } from '../../shared/constants.ts';
import { ASSET_TYPES } from '../../shared/data/asset-types.ts';
import { ENERGY_SUPPLIERS } from '../../shared/data/energy-suppliers.ts';
import { GRANULARITIES } from '../../shared/data/granularities.ts';
import { INTEGRATIONS } from '../../shared/data/integrations.ts';
import type { VersionedList } from '../../shared/data/lookup.ts';
import { TEMPLATE_VALUE_FORMAT } from '../../shared/data/template-value-format.ts';
import { UNITS } from '../../shared/data/units.ts';
import { UTILITY_TYPE_OPTIONS } from '../../shared/data/utility-types.ts';
import { countryListQuery } from '../../shared/schemas/list-queries.ts';
import type { AnyOpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { listQueryOf, resourceOf } from '../core/resources/resource-service.ts';
import { listCountries, liveCompanies, mappedAssets, type StoredCountry } from './lookup-repository.ts';

/** A country's field by the name a list query gives; countries are few, so a scan of their fields is cheap. */
const fieldOf = (country: StoredCountry, field: string): unknown =>
  Object.entries(country).find(([name]) => name === field)?.[1];

/** Lookups change only with a release: browsers may keep them for an hour and revalidate by version. */
function cached(version: string, body: unknown, ctx: AnyOpContext): OpResult {
  const etag = `"${version}"`;
  const headers = { 'cache-control': 'private, max-age=3600', etag };
  if (ctx.headers['if-none-match'] === etag) return { status: 304, headers };
  return { body, headers };
}

const list = <T>(lookup: VersionedList<T>) =>
  operation(
    {},
    async (ctx): Promise<OpResult> =>
      cached(lookup.version, { version: lookup.version, data: lookup.data, total: lookup.data.length }, ctx),
  );

/**
 * GET /countries (02 §7: limit 1000, sorted by fullName). The generic list orders by creation; countries
 * are a few hundred, so they are filtered and sorted whole. `$sort` takes a field with an optional leading
 * '-' (descending), or the `$sort[field]=1|-1` form; fullName ascending by default.
 */
const countries = operation({ query: countryListQuery }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const { text: params, sort } = ctx.query;
  const q = listQueryOf(resource, { ...params, limit: params.limit ?? String(COUNTRY_LIST_LIMIT) });
  const matching = (await listCountries()).filter(
    (c) =>
      (q.includeDeleted || c.deleted !== true) &&
      Object.entries(q.filters).every(([k, v]) => {
        const value = fieldOf(c, k);
        return Array.isArray(v) ? v.some((one) => one === value) : value === v || String(value) === String(v);
      }),
  );
  matching.sort(
    (a, b) =>
      sort.direction *
      String(fieldOf(a, sort.field) ?? '').localeCompare(String(fieldOf(b, sort.field) ?? ''), 'en-GB'),
  );
  return {
    body: {
      data: matching.slice(q.skip, q.skip + q.limit),
      total: matching.length,
      limit: q.limit,
      skip: q.skip,
    },
  };
});

/** GET /util/global-assets: every company's assets with where they are, for the staff map. */
const globalAssets = operation({}, async (): Promise<OpResult> => {
  const perCompany = await Promise.all(
    (await liveCompanies()).map(async (company) =>
      (await mappedAssets(company._id)).map((a) => ({
        ...a,
        company: { _id: company._id, name: company.name },
      })),
    ),
  );
  const data = perCompany.flat();
  return { body: { data, total: data.length } };
});

export const LOOKUP_OPERATIONS: Operations = {
  'lookups.assetTypes': list(ASSET_TYPES),
  'lookups.utilityTypes': list(UTILITY_TYPE_OPTIONS),
  'lookups.units': list(UNITS),
  'lookups.granularities': list(GRANULARITIES),
  'lookups.energySuppliers': list(ENERGY_SUPPLIERS),
  'lookups.integrations': list(INTEGRATIONS),
  'lookups.templateValueFormat': operation({}, async (ctx) =>
    cached(TEMPLATE_VALUE_FORMAT.version, TEMPLATE_VALUE_FORMAT, ctx),
  ),
  'countries.list': countries,
  'lookups.globalAssets': globalAssets,
};
