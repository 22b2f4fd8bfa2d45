import { assetCertificatesQuery } from '../../shared/schemas/asset-queries.ts';
import type { AssetCertificate } from '../../shared/schemas/util-staff.ts';
import { readListsOf } from '../core/access/item-access-service.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { addressStringOf } from '../core/search-index/search-terms.ts';
import { assetFieldsOf } from './asset-repository.ts';

/**
 * GET /util/asset-certificates: the EPC certificates of the sites the caller may read, from what is
 * stored on the sites (a certificate linked from the register, or only a band recorded), never from the
 * register itself: this is the portfolio's list, not a lookup.
 */

const BANDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G'] as const;
/** An EPC is valid for ten years from its lodgement. */
const VALID_YEARS = 10;

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

export function validUntil(lodgementDate: string): string {
  const [y, m, d] = lodgementDate.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y + VALID_YEARS, m - 1, d));
  return date.toISOString().slice(0, 10);
}

const list = operation({ query: assetCertificatesQuery }, async (ctx): Promise<OpResult> => {
  const { band } = ctx.query;
  const companyId = ctx.caller.companyId;
  const [assets, readable] = await Promise.all([
    assetFieldsOf(companyId, ['siteName', 'address', 'epc', 'epcRating']),
    readListsOf(ctx.caller),
  ]);
  const allowed = readable ? new Set(readable.assets) : undefined;
  const today = new Date().toISOString().slice(0, 10);
  const data: AssetCertificate[] = [];
  let withoutCertificate = 0;
  for (const asset of assets) {
    if (allowed && !allowed.has(asset._id)) continue;
    const epc = asset.epc;
    const shown = str(epc?.band) ?? str(asset.epcRating);
    if (!shown) {
      withoutCertificate++;
      continue;
    }
    const lodged = str(epc?.lodgementDate);
    const until = lodged && /^\d{4}-\d{2}-\d{2}/.test(lodged) ? validUntil(lodged.slice(0, 10)) : undefined;
    data.push({
      assetId: asset._id,
      siteName: asset.siteName ?? '',
      addressString: addressStringOf(asset),
      band: shown,
      ...(str(epc?.certificateId) ? { certificateId: str(epc?.certificateId) } : {}),
      ...(epc?.kind ? { kind: epc.kind } : {}),
      ...(typeof epc?.rating === 'number' ? { rating: epc.rating } : {}),
      ...(lodged ? { lodgementDate: lodged } : {}),
      ...(until ? { validUntil: until } : {}),
      status: until ? (until >= today ? 'valid' : 'expired') : 'unknown',
    });
  }
  const byBand = Object.fromEntries(BANDS.map((b) => [b, data.filter((c) => c.band === b).length]));
  const shown = band ? data.filter((c) => c.band === band) : data;
  shown.sort((a, b) => a.siteName.localeCompare(b.siteName, 'en-GB', { numeric: true }));
  return { body: { data: shown, total: shown.length, byBand, withoutCertificate } };
});

export const ASSET_CERTIFICATE_LIST_OPERATIONS: Operations = { 'assets.certificates': list };
