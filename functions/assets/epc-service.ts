import * as z from 'zod';
import { domesticEpcBand, nonDomesticEpcBand } from '../../shared/domain/epc.ts';
import { ASSET_MESSAGES } from '../../shared/schemas/asset-messages.ts';
import { EPC_KINDS, type EpcCertificate, type EpcKind } from '../../shared/schemas/asset-public-data.ts';
import { certificateQuery, certificateSearchQuery } from '../../shared/schemas/asset-queries.ts';
import { normalisePostcode } from '../../shared/schemas/asset-wizard.ts';
import { enforceItemCheck } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { type EpcRow, getEpcCertificate, searchEpcRegister } from '../core/adapters/epc-register.ts';
import { UpstreamError } from '../core/adapters/public-data.ts';
import { badRequest, notFound, upstreamFailed } from '../core/lib/errors.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { AnyOpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { changeAsset, loadAsset, presentAsset } from './asset-records.ts';

const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};
const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/**
 * A register row as the product shows it. The band is worked out from the rating by the published
 * bands (domestic by SAP score; non-domestic and display by asset or operational rating), not copied.
 */
export function certificateOf(kind: EpcKind, row: EpcRow): EpcCertificate | undefined {
  const id = str(row['lmk-key']);
  const rating =
    kind === 'domestic'
      ? num(row['current-energy-efficiency'])
      : kind === 'non-domestic'
        ? num(row['asset-rating'])
        : num(row['current-operational-rating'] ?? row['operational-rating']);
  if (!id || rating === undefined) return undefined;
  const band = kind === 'domestic' ? domesticEpcBand(rating) : nonDomesticEpcBand(rating);
  if (!band) return undefined;
  const address =
    str(row.address) ?? [row.address1, row.address2, row.address3].map(str).filter(Boolean).join(', ');
  return {
    id,
    kind,
    address,
    postcode: str(row.postcode),
    rating,
    band,
    lodgementDate: str(row['lodgement-date']),
    floorArea: num(row['total-floor-area'] ?? row['floor-area']),
    propertyType: str(row['property-type']),
  };
}

async function register<T>(ctx: AnyOpContext, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    ctx.log.warn('EPC register failed', { error: err.message });
    throw upstreamFailed(ASSET_MESSAGES.certificatesProblem);
  }
}

/** GET /certificates?postcode=&address=&kind= (or ?assetId= for the site's own postcode). */
const search = operation({ query: certificateSearchQuery }, async (ctx): Promise<OpResult> => {
  const { kind, assetId, address } = ctx.query;
  let postcode = ctx.query.postcode;
  if (!postcode && assetId) {
    await enforceItemCheck({ type: 'assets', param: 'assetId', access: 'read' }, ctx.caller, { assetId });
    const asset = await loadAsset(ctx.caller.companyId, assetId);
    const stored = objectOf(asset.address).postCode;
    postcode = typeof stored === 'string' ? stored : undefined;
  }
  if (!postcode && !address) throw badRequest('postcode or address is required');
  const normalised = postcode ? (normalisePostcode(postcode) ?? postcode) : undefined;
  const rows = await register(ctx, () => searchEpcRegister(kind, { postcode: normalised, address }));
  const data = rows
    .map((r) => certificateOf(kind, r))
    .filter((c): c is EpcCertificate => c !== undefined)
    .sort((a, b) => (b.lodgementDate ?? '').localeCompare(a.lodgementDate ?? ''));
  return { body: { data, total: data.length, kind } };
});

async function findCertificate(ctx: AnyOpContext, id: string, kind: EpcKind | undefined) {
  for (const k of kind ? [kind] : EPC_KINDS) {
    const row = await register(ctx, () => getEpcCertificate(k, id));
    const certificate = row && certificateOf(k, row);
    if (certificate) return { certificate, row };
  }
  throw notFound('No such certificate');
}

/** GET /certificates/{id}?kind=: the certificate with the register's own fields beside it. */
const get = operation({ params: ['id'], query: certificateQuery }, async (ctx): Promise<OpResult> => {
  const { certificate, row } = await findCertificate(ctx, ctx.params.id, ctx.query.kind);
  return { body: { ...certificate, register: row } };
});

/** PUT /assets/{id}/epc-certificate { certificateId, kind }: the site takes the certificate's rating and band. */
const link = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(
    z.object({
      certificateId: z.string().trim().min(1, 'This field is required').max(200),
      kind: z.enum(EPC_KINDS).optional(),
    }),
    ctx.body ?? {},
  );
  await loadAsset(ctx.caller.companyId, ctx.params.id);
  const { certificate } = await findCertificate(ctx, body.certificateId, body.kind);
  const epc = {
    certificateId: certificate.id,
    kind: certificate.kind,
    rating: certificate.rating,
    band: certificate.band,
    lodgementDate: certificate.lodgementDate,
    address: certificate.address,
  };
  const next = await changeAsset(ctx.caller.companyId, ctx.params.id, (asset) => ({
    ...asset,
    epc,
    epcRating: certificate.band,
  }));
  await writeActivity(ctx.caller, {
    type: 'update',
    model: 'assets',
    modelId: next._id,
    message: `EPC ${certificate.band} (${certificate.rating}) linked`,
  });
  return { body: await presentAsset(next) };
});

export const EPC_OPERATIONS: Operations = {
  'epc.search': search,
  'epc.get': get,
  'epc.link': link,
};
