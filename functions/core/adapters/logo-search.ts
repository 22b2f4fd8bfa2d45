import * as z from 'zod';
import { logoSearchConfig } from '../config.ts';
import { getJson, shaped, UpstreamError } from './public-data.ts';

const brandSchema = z.array(
  z.object({
    name: z.string().nullable(),
    domain: z.string(),
    icon: z.string().nullable().optional(),
    claimed: z.boolean().optional(),
    brandId: z.string(),
  }),
);
export type Brand = z.infer<typeof brandSchema>[number];

/** Brands whose name matches, best first, as the Brand Search API answers them. */
export async function searchBrands(name: string): Promise<Brand[]> {
  const { url, clientId } = logoSearchConfig();
  if (!clientId) throw new UpstreamError('LOGO_SEARCH_CLIENT_ID is not set');
  const address = `${url.replace(/\/+$/, '')}/v2/search/${encodeURIComponent(name)}?c=${encodeURIComponent(clientId)}`;
  const body = await getJson(address);
  if (body === undefined || body === null) return [];
  return shaped(brandSchema, body, 'brand search');
}
