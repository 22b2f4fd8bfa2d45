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
import { projectAll } from '../core/data/batch-reads.ts';
import { queryAll } from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { listQueryOf, resourceOf } from '../core/resources/resource-service.ts';

/** Lookups change only with a release: browsers may keep them for an hour and revalidate by version. */
function cached(version: string, body: unknown, ctx: OpContext): OpResult {
  const etag = `"${version}"`;
  const headers = { 'cache-control': 'private, max-age=3600', etag };
  if (ctx.headers['if-none-match'] === etag) return { status: 304, headers };
  return { body, headers };
}

const list =
  <T>(lookup: VersionedList<T>) =>
  async (ctx: OpContext): Promise<OpResult> =>
    cached(lookup.version, { version: lookup.version, data: lookup.data, total: lookup.data.length }, ctx);

/**
 * GET /countries (02 §7: limit 1000, sorted by fullName). The generic list orders by creation; countries
 * are a few hundred, so they are filtered and sorted whole. `$sort` takes a field with an optional leading
 * '-' (descending), or the `$sort[field]=1|-1` form; fullName ascending by default.
 */
const countries = operation({ query: countryListQuery }, async (ctx): Promise<OpResult> => {
  const resource = resourceOf(ctx.route);
  const { text: params, sort } = ctx.query;
  const q = listQueryOf(resource, { ...params, limit: params.limit ?? String(COUNTRY_LIST_LIMIT) });
  const all = await queryAll(keys.collection({}, resource.name));
  const matching = all.filter(
    (c) =>
      (q.includeDeleted || c.deleted !== true) &&
      Object.entries(q.filters).every(([k, v]) =>
        Array.isArray(v) ? v.includes(c[k] as string) : c[k] === v || String(c[k]) === String(v),
      ),
  );
  matching.sort(
    (a, b) =>
      sort.direction * String(a[sort.field] ?? '').localeCompare(String(b[sort.field] ?? ''), 'en-GB'),
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
const globalAssets = async (): Promise<OpResult> => {
  const companies = (await queryAll(keys.collection({}, 'companies'))).filter((c) => c.deleted !== true);
  const perCompany = await Promise.all(
    companies.map(async (company) => {
      const assets = await projectAll(keys.collection({ companyId: company._id }, 'assets'), [
        'siteName',
        'assetType',
        'address',
        'geocoordinates',
        'status',
      ]);
      return assets.map((a) => ({ ...a, company: { _id: company._id, name: company.name } }));
    }),
  );
  const data = perCompany.flat();
  return { body: { data, total: data.length } };
};

export const LOOKUP_OPERATIONS: Operations = {
  'lookups.assetTypes': list(ASSET_TYPES),
  'lookups.utilityTypes': list(UTILITY_TYPE_OPTIONS),
  'lookups.units': list(UNITS),
  'lookups.granularities': list(GRANULARITIES),
  'lookups.energySuppliers': list(ENERGY_SUPPLIERS),
  'lookups.integrations': list(INTEGRATIONS),
  'lookups.templateValueFormat': async (ctx) =>
    cached(TEMPLATE_VALUE_FORMAT.version, TEMPLATE_VALUE_FORMAT, ctx),
  'countries.list': countries,
  'lookups.globalAssets': globalAssets,
};
