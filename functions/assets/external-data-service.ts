import { ASSET_MESSAGES } from '../../shared/schemas/asset-messages.ts';
import type {
  AirQuality,
  CrimeSummary,
  FloodRisks,
  FloodWarning,
  Geocoordinates,
} from '../../shared/schemas/asset-public-data.ts';
import {
  airQualityQuery,
  crimeQuery,
  floodRisksQuery,
  geocoordinatesQuery,
} from '../../shared/schemas/asset-queries.ts';
import {
  airQualityNear,
  floodWarnings,
  lookupPostcode,
  lookupPostcodes,
  POSTCODES_PER_BULK_LOOKUP,
  streetCrimes,
  UpstreamError,
} from '../core/adapters/public-data.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { ApiError, upstreamFailed } from '../core/lib/errors.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import type { AnyOpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { changeAsset, loadAsset } from './asset-records.ts';

/** A failed public service is the service's fault, not the caller's: 424 with the page's message, never a 500. */
async function upstream<T>(ctx: AnyOpContext, message: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    ctx.log.warn('public service failed', { error: err.message });
    throw upstreamFailed(message);
  }
}

function storedCoordinates(asset: StoredItem): { lat: number; lng: number } | undefined {
  const g = objectOf(asset.geocoordinates);
  return typeof g.lat === 'number' && typeof g.lng === 'number' ? { lat: g.lat, lng: g.lng } : undefined;
}

const postcodeOf = (asset: StoredItem) => {
  const p = objectOf(asset.address).postCode;
  return typeof p === 'string' && p.trim() ? p.trim() : undefined;
};

/** The site's coordinates: those it has, or its postcode's (which are then kept on the site). */
async function coordinatesOf(
  ctx: AnyOpContext,
  asset: StoredItem,
  message: string,
  refresh = false,
): Promise<Geocoordinates> {
  const stored = storedCoordinates(asset);
  if (stored && !refresh) return { ...stored, postcode: postcodeOf(asset), source: 'stored' };
  const postcode = postcodeOf(asset);
  if (!postcode)
    throw new ApiError(422, 'NO_POSTCODE', message, {
      formMessages: { 'address.postCode': ASSET_MESSAGES.noPostcode },
    });
  const found = await upstream(ctx, message, () => lookupPostcode(postcode));
  if (!found)
    throw new ApiError(422, 'UNKNOWN_POSTCODE', message, {
      formMessages: { 'address.postCode': 'The postcode was not found' },
    });
  await changeAsset(ctx.caller.companyId, asset._id, (a) => ({
    ...a,
    geocoordinates: { lat: found.lat, lng: found.lng },
  }));
  return { lat: found.lat, lng: found.lng, postcode: found.postcode, source: 'postcode' };
}

/**
 * Places a site from its postcode as it is created or moved, so its map, risks and weather are its own
 * from the first look. A postcode the service does not know, or a service that does not answer, leaves the
 * site without coordinates: the risk pages look the postcode up again, and say why when it still fails.
 */
export async function geocodeSite(ctx: AnyOpContext, asset: StoredItem): Promise<StoredItem> {
  return placeSite(ctx.caller.companyId, asset, {}, (message, fields) => ctx.log.warn(message, fields));
}

type Warn = (message: string, fields: Record<string, unknown>) => void;

async function placeSite(
  companyId: string,
  asset: StoredItem,
  opts: { keepUpdatedAt?: boolean },
  warn: Warn,
): Promise<StoredItem> {
  const postcode = postcodeOf(asset);
  if (!postcode) return asset;
  try {
    const found = await lookupPostcode(postcode);
    if (!found) return asset;
    return await changeAsset(
      companyId,
      asset._id,
      (a) =>
        // The address may have moved again while the service answered: keep only what is still its own.
        postcodeOf(a) === postcode ? { ...a, geocoordinates: { lat: found.lat, lng: found.lng } } : undefined,
      opts,
    );
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    warn('site not geocoded', { assetId: asset._id, error: err.message });
    return asset;
  }
}

/** How long an import waits for its sites to be placed, and how many lookups it makes at once. */
export const IMPORT_PLACING = { budgetMs: 5_000, concurrency: 4 };

/** Runs `task` over `items`, `limit` at a time, starting none after `stopped()` says so. */
async function whileInTime<T>(
  items: readonly T[],
  limit: number,
  stopped: () => boolean,
  task: (item: T) => Promise<void>,
) {
  let next = 0;
  const worker = async () => {
    while (!stopped() && next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Places the sites an import wrote for at most `budgetMs`: each postcode is looked up once, however many
 * sites share it, a hundred to a call and a few calls at a time. The import is done by then whatever the service does; sites not placed
 * in time, or whose postcode is unknown, stay unplaced (their risk pages look the postcode up when
 * opened). Placing is not an edit, so the import can still be rolled back. Answers the sites placed in
 * time, as they now stand.
 */
export async function placeImportedSites(
  companyId: string,
  sites: readonly StoredItem[],
  warn: Warn,
  limits = IMPORT_PLACING,
): Promise<{ placed: number; left: number; sites: Map<string, StoredItem> }> {
  const byPostcode = new Map<string, StoredItem[]>();
  for (const site of sites) {
    const postcode = postcodeOf(site);
    if (postcode) byPostcode.set(postcode, [...(byPostcode.get(postcode) ?? []), site]);
  }
  let stopped = false;
  const isStopped = () => stopped;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outOfTime = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, limits.budgetMs);
  });
  const placedSites = new Map<string, StoredItem>();
  const found = new Map<string, { lat: number; lng: number }>();
  const postcodes = [...byPostcode.keys()];
  const lookups: string[][] = [];
  for (let i = 0; i < postcodes.length; i += POSTCODES_PER_BULK_LOOKUP)
    lookups.push(postcodes.slice(i, i + POSTCODES_PER_BULK_LOOKUP));
  const work = async () => {
    await whileInTime(lookups, limits.concurrency, isStopped, async (asked) => {
      try {
        for (const [postcode, at] of await lookupPostcodes(asked))
          if (at) found.set(postcode, { lat: at.lat, lng: at.lng });
      } catch (err) {
        if (!(err instanceof UpstreamError)) throw err;
        warn('imported sites not geocoded', { postcodes: asked, error: err.message });
      }
    });
    const toPlace = [...found].flatMap(([postcode, at]) =>
      (byPostcode.get(postcode) ?? []).map((site) => ({ site, postcode, at })),
    );
    await whileInTime(toPlace, limits.concurrency, isStopped, async ({ site, postcode, at }) => {
      try {
        const changed = await changeAsset(
          companyId,
          site._id,
          (a) => (postcodeOf(a) === postcode ? { ...a, geocoordinates: at } : undefined),
          { keepUpdatedAt: true },
        );
        if (!stopped) placedSites.set(site._id, changed);
      } catch (err) {
        // A site deleted or rolled back meanwhile: the others are still placed.
        warn('imported site not placed', {
          assetId: site._id,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    });
  };
  await Promise.race([work(), outOfTime]);
  stopped = true;
  clearTimeout(timer);
  return { placed: placedSites.size, left: sites.length - placedSites.size, sites: placedSites };
}

/** Keeps a short summary on the site, for lists and reports that should not call out again. */
const remember = (ctx: AnyOpContext, assetId: string, field: string, value: Record<string, unknown>) =>
  changeAsset(ctx.caller.companyId, assetId, (a) => ({ ...a, [field]: value }));

const geocoordinates = operation(
  { params: ['id'], query: geocoordinatesQuery },
  async (ctx): Promise<OpResult> => {
    const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
    return {
      body: await coordinatesOf(ctx, asset, ASSET_MESSAGES.geocoordinatesProblem, ctx.query.refresh),
    };
  },
);

const crime = operation({ params: ['id'], query: crimeQuery }, async (ctx): Promise<OpResult> => {
  const month = ctx.query.date;
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const at = await coordinatesOf(ctx, asset, ASSET_MESSAGES.crimeProblem);
  const crimes = await upstream(ctx, ASSET_MESSAGES.crimeProblem, () => streetCrimes(at.lat, at.lng, month));
  const counts = new Map<string, number>();
  for (const c of crimes) counts.set(c.category, (counts.get(c.category) ?? 0) + 1);
  const byCategory = [...counts]
    .map(([category, count]) => ({ category, count }))
    .sort((a, b) => b.count - a.count || a.category.localeCompare(b.category));
  const summary: CrimeSummary = {
    month: month ?? crimes[0]?.month,
    total: crimes.length,
    byCategory,
    crimes: crimes.slice(0, 200).map((c) => ({
      id: String(c.id),
      category: c.category,
      month: c.month,
      street: c.location?.street?.name,
      outcome: c.outcome_status?.category,
    })),
    fetchedAt: new Date().toISOString(),
  };
  await remember(ctx, asset._id, 'recentCrimes', {
    month: summary.month,
    total: summary.total,
    byCategory,
    fetchedAt: summary.fetchedAt,
  });
  return { body: summary };
});

const floodRisks = operation({ params: ['id'], query: floodRisksQuery }, async (ctx): Promise<OpResult> => {
  const radiusKm = ctx.query.dist;
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const at = await coordinatesOf(ctx, asset, ASSET_MESSAGES.floodProblem);
  const items = await upstream(ctx, ASSET_MESSAGES.floodProblem, () =>
    floodWarnings(at.lat, at.lng, radiusKm),
  );
  const data: FloodWarning[] = items
    .map((f) => ({
      id: f.floodAreaID ?? f['@id'] ?? '',
      description: f.description ?? f.eaAreaName ?? 'Flood area',
      areaName: f.eaAreaName,
      severity: f.severity ?? '',
      severityLevel: f.severityLevel,
      message: f.message,
      timeRaised: f.timeRaised,
      isTidal: f.isTidal,
    }))
    .sort((a, b) => a.severityLevel - b.severityLevel);
  const body: FloodRisks = { data, total: data.length, radiusKm, fetchedAt: new Date().toISOString() };
  await remember(ctx, asset._id, 'floodRisks', {
    total: data.length,
    worstSeverityLevel: data[0]?.severityLevel,
    fetchedAt: body.fetchedAt,
  });
  return { body };
});

/** Great-circle distance in metres, for services that do not say how far their locations are. */
function metresBetween(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

const airQuality = operation({ params: ['id'], query: airQualityQuery }, async (ctx): Promise<OpResult> => {
  const radius = ctx.query.radius;
  const asset = await loadAsset(ctx.caller.companyId, ctx.params.id);
  const at = await coordinatesOf(ctx, asset, ASSET_MESSAGES.airQualityProblem);
  const body = await upstream(ctx, ASSET_MESSAGES.airQualityProblem, async (): Promise<AirQuality> => {
    const found = await airQualityNear(at.lat, at.lng, radius);
    const ranked = found.locations
      .map((l) => ({
        l,
        distance:
          l.distance ?? metresBetween(at, { lat: l.coordinates.latitude, lng: l.coordinates.longitude }),
      }))
      .sort((a, b) => a.distance - b.distance);
    const nearest = ranked[0];
    const fetchedAt = new Date().toISOString();
    if (!nearest) return { measurements: [], fetchedAt };
    const sensors = new Map(nearest.l.sensors.map((s) => [s.id, s.parameter]));
    const measurements = (await found.latest(nearest.l.id)).flatMap((v) => {
      const p = sensors.get(v.sensorsId);
      if (!p) return [];
      return [
        {
          parameter: p.name,
          displayName: p.displayName ?? p.name,
          value: v.value,
          units: p.units,
          datetime: v.datetime?.utc,
        },
      ];
    });
    return {
      location: {
        id: nearest.l.id,
        name: nearest.l.name ?? `Location ${nearest.l.id}`,
        distanceMetres: Math.round(nearest.distance),
      },
      measurements,
      fetchedAt,
    };
  });
  await remember(ctx, asset._id, 'recentAirQuality', { ...body });
  return { body };
});

export const EXTERNAL_DATA_OPERATIONS: Operations = {
  'assets.geocoordinates': geocoordinates,
  'assets.crime': crime,
  'assets.floodRisks': floodRisks,
  'assets.airQuality': airQuality,
};
