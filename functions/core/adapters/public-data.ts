import * as z from 'zod';
import { externalServicesConfig } from '../config.ts';

/** A public service that did not answer, answered an error, or answered something else than it documents. */
export class UpstreamError extends Error {
  readonly status?: number;
  constructor(message: string, status?: number) {
    super(message);
    this.name = 'UpstreamError';
    this.status = status;
  }
}

const TIMEOUT_MS = 8000;

/** GETs JSON; a 404 answers undefined, anything else that is not 2xx JSON is an UpstreamError. */
export async function getJson(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  return requestJson(url, { headers });
}

/** POSTs a JSON body and reads the JSON answer, as `getJson` does. */
export async function postJson(url: string, body: unknown): Promise<unknown> {
  return requestJson(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function requestJson(
  url: string,
  init: { method?: string; headers: Record<string, string>; body?: string },
): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, {
      ...init,
      headers: { Accept: 'application/json', ...init.headers },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new UpstreamError(
      `${new URL(url).host} unreachable: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (res.status === 404) return undefined;
  if (!res.ok) throw new UpstreamError(`${new URL(url).host} answered ${res.status}`, res.status);
  const text = await res.text();
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new UpstreamError(`${new URL(url).host} answered something other than JSON`);
  }
}

export function shaped<S extends z.ZodType>(schema: S, value: unknown, service: string): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new UpstreamError(`${service} answered an unexpected shape`);
  return result.data;
}

const base = (url: string) => url.replace(/\/+$/, '');

// The answers' schemas are built with each call: a function that imports this module for one service
// builds none of them at start, and a call waits on the network far longer than on its schema.

/** postcodes.io `GET /postcodes/{postcode}`: undefined for a postcode it does not know. */
export async function lookupPostcode(postcode: string) {
  const url = `${base(externalServicesConfig().postcodesUrl)}/postcodes/${encodeURIComponent(postcode)}`;
  const body = await getJson(url);
  if (body === undefined) return undefined;
  const { result } = shaped(
    z.object({ result: z.object({ postcode: z.string(), latitude: z.number(), longitude: z.number() }) }),
    body,
    'postcodes',
  );
  return { postcode: result.postcode, lat: result.latitude, lng: result.longitude };
}

/** How many postcodes postcodes.io takes in one bulk lookup. */
export const POSTCODES_PER_BULK_LOOKUP = 100;

/** A place postcodes.io gave for a postcode. */
export interface PostcodePlace {
  postcode: string;
  lat: number;
  lng: number;
}

const bulkPostcodesSchema = () =>
  z.object({
    result: z.array(
      z.object({
        query: z.string(),
        // A postcode it does not know is null; one it knows without a grid reference has no coordinates.
        result: z
          .object({ postcode: z.string(), latitude: z.number().nullish(), longitude: z.number().nullish() })
          .nullable(),
      }),
    ),
  });

/**
 * postcodes.io `POST /postcodes` with `{ postcodes }` (at most POSTCODES_PER_BULK_LOOKUP): each postcode
 * asked, with its place, or null when the service does not know it or cannot place it.
 */
export async function lookupPostcodes(
  postcodes: readonly string[],
): Promise<Map<string, PostcodePlace | null>> {
  if (postcodes.length > POSTCODES_PER_BULK_LOOKUP)
    throw new Error(`postcodes.io looks up at most ${POSTCODES_PER_BULK_LOOKUP} postcodes at once`);
  const found = new Map<string, PostcodePlace | null>();
  if (postcodes.length === 0) return found;
  const url = `${base(externalServicesConfig().postcodesUrl)}/postcodes`;
  const { result } = shaped(bulkPostcodesSchema(), await postJson(url, { postcodes }), 'postcodes');
  // Each answer names the postcode it answers: the service does not promise the order asked.
  const asked = new Set(postcodes);
  for (const { query, result: place } of result) {
    if (!asked.has(query)) continue;
    found.set(
      query,
      place && typeof place.latitude === 'number' && typeof place.longitude === 'number'
        ? { postcode: place.postcode, lat: place.latitude, lng: place.longitude }
        : null,
    );
  }
  // A postcode left out of the answer is one the service did not place.
  for (const postcode of asked) if (!found.has(postcode)) found.set(postcode, null);
  return found;
}

const crimeSchema = () =>
  z.object({
    category: z.string(),
    id: z.union([z.number(), z.string()]),
    month: z.string().optional(),
    location: z
      .object({ street: z.object({ name: z.string() }).partial().optional() })
      .partial()
      .nullish(),
    outcome_status: z.object({ category: z.string() }).nullish(),
  });
export type StreetCrime = z.infer<ReturnType<typeof crimeSchema>>;

/** data.police.uk street-level crimes within a mile of a point, for the latest month or the one given. */
export async function streetCrimes(lat: number, lng: number, month?: string): Promise<StreetCrime[]> {
  const params = new URLSearchParams({
    lat: String(lat),
    lng: String(lng),
    ...(month ? { date: month } : {}),
  });
  const url = `${base(externalServicesConfig().policeUrl)}/api/crimes-street/all-crime?${params}`;
  return shaped(z.array(crimeSchema()), (await getJson(url)) ?? [], 'police');
}

const floodSchema = () =>
  z.object({
    '@id': z.string().optional(),
    description: z.string().optional(),
    eaAreaName: z.string().optional(),
    floodAreaID: z.string().optional(),
    isTidal: z.boolean().optional(),
    message: z.string().optional(),
    severity: z.string().optional(),
    severityLevel: z.number(),
    timeRaised: z.string().optional(),
  });
export type FloodItem = z.infer<ReturnType<typeof floodSchema>>;

/** Environment Agency flood-monitoring warnings and alerts in force within `distKm` of a point. */
export async function floodWarnings(lat: number, lng: number, distKm: number): Promise<FloodItem[]> {
  const params = new URLSearchParams({ lat: String(lat), long: String(lng), dist: String(distKm) });
  const url = `${base(externalServicesConfig().floodUrl)}/id/floods?${params}`;
  return shaped(z.object({ items: z.array(floodSchema()) }), await getJson(url), 'flood-monitoring').items;
}

const sensorSchema = () =>
  z.object({
    id: z.number(),
    parameter: z.object({ name: z.string(), units: z.string(), displayName: z.string().nullish() }),
  });
const locationSchema = () =>
  z.object({
    id: z.number(),
    name: z.string().nullish(),
    distance: z.number().nullish(),
    coordinates: z.object({ latitude: z.number(), longitude: z.number() }),
    sensors: z.array(sensorSchema()).default([]),
  });
const latestSchema = () =>
  z.object({
    sensorsId: z.number(),
    value: z.number(),
    datetime: z.object({ utc: z.string() }).partial().nullish(),
  });

/** OpenAQ v3: monitoring locations within `radiusM` of a point, and the latest values of one of them. */
export async function airQualityNear(lat: number, lng: number, radiusM: number) {
  const cfg = externalServicesConfig();
  const headers: Record<string, string> = cfg.airQualityKey ? { 'X-API-Key': cfg.airQualityKey } : {};
  const params = new URLSearchParams({ coordinates: `${lat},${lng}`, radius: String(radiusM), limit: '10' });
  const found = shaped(
    z.object({ results: z.array(locationSchema()) }),
    await getJson(`${base(cfg.airQualityUrl)}/v3/locations?${params}`, headers),
    'openaq',
  ).results;
  return {
    locations: found,
    latest: async (locationId: number) =>
      shaped(
        z.object({ results: z.array(latestSchema()) }),
        await getJson(`${base(cfg.airQualityUrl)}/v3/locations/${locationId}/latest`, headers),
        'openaq',
      ).results,
  };
}
