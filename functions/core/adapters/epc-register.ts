import * as z from 'zod';
import type { EpcKind } from '../../../shared/schemas/asset-public-data.ts';
import { externalServicesConfig } from '../config.ts';
import { getJson, shaped, UpstreamError } from './public-data.ts';

/** A row of the EPC register, with its hyphenated column names; numbers arrive as text. */
export type EpcRow = Record<string, string | number | null | undefined>;

const rowsSchema = z.object({
  rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
});

function credentials(): { base: string; authorization: string } {
  const cfg = externalServicesConfig();
  if (!cfg.epcEmail || !cfg.epcKey) throw new UpstreamError('EPC_API_EMAIL and EPC_API_KEY are not set');
  return {
    base: cfg.epcUrl.replace(/\/+$/, ''),
    authorization: `Basic ${Buffer.from(`${cfg.epcEmail}:${cfg.epcKey}`).toString('base64')}`,
  };
}

/** `GET /api/v1/{kind}/search`: certificates by postcode and/or address words. */
export async function searchEpcRegister(
  kind: EpcKind,
  query: { postcode?: string; address?: string; size?: number },
): Promise<EpcRow[]> {
  const { base, authorization } = credentials();
  const params = new URLSearchParams();
  if (query.postcode) params.set('postcode', query.postcode);
  if (query.address) params.set('address', query.address);
  params.set('size', String(query.size ?? 100));
  const body = await getJson(`${base}/api/v1/${kind}/search?${params}`, { Authorization: authorization });
  // The register answers an empty body when nothing matches.
  if (body === null || body === undefined) return [];
  return shaped(rowsSchema, body, 'epc').rows;
}

/** `GET /api/v1/{kind}/certificate/{lmk-key}`: one certificate, or undefined. */
export async function getEpcCertificate(kind: EpcKind, lmkKey: string): Promise<EpcRow | undefined> {
  const { base, authorization } = credentials();
  const body = await getJson(`${base}/api/v1/${kind}/certificate/${encodeURIComponent(lmkKey)}`, {
    Authorization: authorization,
  });
  if (body === null || body === undefined) return undefined;
  return shaped(rowsSchema, body, 'epc').rows[0];
}
