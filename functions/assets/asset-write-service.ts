import { type AreaUnit, storedFloorArea } from '../../shared/domain/units.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { answeredItem, answeredPage } from '../core/resources/generic-answers.ts';
import { genericOperation } from '../core/resources/resource-service.ts';
import { presentAsset } from './asset-records.ts';
import { geocodeSite, placeImportedSites } from './external-data-service.ts';

/**
 * The generic create, bulk create and PATCH of sites, with the one floor-area convention every write path
 * keeps: `floorArea` arrives in the body's `floorAreaUnit` (m² when the body names none) and is stored in
 * m², so benchmarks, intensities and totals never convert it again. A PATCH that changes only the unit
 * changes only how the area is shown.
 */

const isArea = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isUnit = (v: unknown): v is AreaUnit => v === 'm2' || v === 'ft2';

/** A body with its floor area in m²; anything the schema will refuse is left for it to refuse. */
export function inSquareMetres(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const fields = objectOf(body);
  const unit: unknown = fields.floorAreaUnit ?? 'm2';
  const { floorAreaStoredAs: _ignored, ...rest } = fields;
  if (!isArea(fields.floorArea)) return { ...rest, floorAreaStoredAs: 'm2' };
  if (!isUnit(unit)) return body;
  return { ...rest, floorArea: storedFloorArea(fields.floorArea, unit), floorAreaStoredAs: 'm2' };
}

/** POST /assets: the generic create, in m², then the site placed from its postcode as the wizard does. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const created = await genericOperation('generic.create')({ ...ctx, body: inSquareMetres(ctx.body) });
  return { ...created, body: await presentAsset(await geocodeSite(ctx, answeredItem(created))) };
});

/**
 * POST /assets/bulk: each site in m², then placed as imported sites are (each postcode once, a few at a
 * time, within a time limit), so a long list is not held up by one lookup after another.
 */
const bulk = operation({}, async (ctx): Promise<OpResult> => {
  const body = Array.isArray(ctx.body) ? ctx.body.map((entry) => inSquareMetres(entry)) : ctx.body;
  const created = await genericOperation('generic.bulk')({ ...ctx, body });
  const { data, total } = answeredPage(created);
  const { sites, left } = await placeImportedSites(ctx.caller.companyId, data, (message, fields) =>
    ctx.log.warn(message, fields),
  );
  if (left > 0) ctx.log.info('created sites left unplaced', { placed: sites.size, left });
  return { ...created, body: { data: data.map((a) => sites.get(a._id) ?? a), total } };
});

/** PATCH /assets/{id}: the fields given, the floor area in m². */
const update = operation(
  { params: ['id'] },
  async (ctx): Promise<OpResult> =>
    genericOperation('generic.update')({ ...ctx, body: inSquareMetres(ctx.body) }),
);

export const ASSET_WRITE_OPERATIONS: Operations = {
  'assets.create': create,
  'assets.bulk': bulk,
  'assets.update': update,
};
