import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  certificateRow,
  columnsOf,
  EPC_KINDS,
  type FakeEpcKind,
  searchRows,
} from './epc-register-fixtures.ts';
import {
  FAKE_SIGNAGE_KEY,
  forecast,
  newsFeed,
  type SignageDevice,
  SignageFake,
  travelFeed,
} from './kiosk-services-fixtures.ts';
import { brandIconSvg, searchBrands } from './logo-search-fixtures.ts';
import {
  airQualityLatest,
  airQualityLocations,
  crimesNear,
  floodAreasNear,
  floodsNear,
  postcodeResult,
} from './public-data-fixtures.ts';

/**
 * Local servers of the public services a site's pages use, with their documented request and answer
 * shapes: postcodes.io, data.police.uk, Environment Agency flood monitoring, OpenAQ v3, the EPC register
 * and Brandfetch's Brand Search API (the company logo search). One HTTP server, one path prefix per
 * service; the base URLs the functions need are `env`.
 */
export const FAKE_SERVICES = [
  'postcodes',
  'police',
  'flood',
  'openaq',
  'epc',
  'brandfetch',
  'kiosk-feeds',
  'signage',
] as const;
export type FakeService = (typeof FAKE_SERVICES)[number];

const PREFIX: Record<FakeService, string> = {
  postcodes: '/postcodes-io',
  police: '/police',
  flood: '/flood-monitoring',
  openaq: '/openaq',
  epc: '/epc',
  brandfetch: '/brandfetch',
  'kiosk-feeds': '/kiosk-feeds',
  signage: '/optisigns',
};

export const FAKE_EPC_EMAIL = 'register@voltfolio.test';
export const FAKE_EPC_KEY = 'local-epc-key';
export const FAKE_BRANDFETCH_CLIENT_ID = 'local-brandfetch-client';

export interface PublicDataFakes {
  url: string;
  /** Environment variables that point the functions at these servers. */
  env: Record<string, string>;
  /** Makes a service answer 503 (or work again), to see how the product copes. */
  fail(service: FakeService, failing?: boolean): void;
  /** Makes a service take this long to answer each request (0: answer at once). */
  slow(service: FakeService, ms: number): void;
  /** How many requests each service has had. */
  calls: Record<FakeService, number>;
  /** The signage screens claimed through the pairing API. */
  signageDevices(): SignageDevice[];
  stop(): Promise<void>;
}

export function publicDataEnvironment(url: string): Record<string, string> {
  return {
    POSTCODES_API_URL: `${url}${PREFIX.postcodes}`,
    POLICE_API_URL: `${url}${PREFIX.police}`,
    FLOOD_API_URL: `${url}${PREFIX.flood}`,
    AIR_QUALITY_API_URL: `${url}${PREFIX.openaq}`,
    AIR_QUALITY_API_KEY: 'local-openaq-key',
    EPC_API_URL: `${url}${PREFIX.epc}`,
    EPC_API_EMAIL: FAKE_EPC_EMAIL,
    EPC_API_KEY: FAKE_EPC_KEY,
    LOGO_SEARCH_API_URL: `${url}${PREFIX.brandfetch}`,
    LOGO_SEARCH_CLIENT_ID: FAKE_BRANDFETCH_CLIENT_ID,
    KIOSK_NEWS_FEED_URL: `${url}${PREFIX['kiosk-feeds']}/news.rss?postcode={postcode}`,
    KIOSK_TRAVEL_FEED_URL: `${url}${PREFIX['kiosk-feeds']}/travel.rss?postcode={postcode}`,
    KIOSK_WEATHER_FEED_URL:
      `${url}${PREFIX['kiosk-feeds']}/v1/forecast?latitude={lat}&longitude={lng}` +
      '&current=temperature_2m,weather_code,wind_speed_10m&daily=temperature_2m_max,temperature_2m_min,weather_code',
    OPTISIGNS_API_URL: `${url}${PREFIX.signage}`,
    OPTISIGNS_API_KEY: FAKE_SIGNAGE_KEY,
  };
}

type Answer = { status: number; body?: unknown };

const json = (res: ServerResponse, { status, body }: Answer) => {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
};

const point = (q: URLSearchParams, lngName: string) => {
  const lat = Number(q.get('lat'));
  const lng = Number(q.get(lngName));
  return q.get('lat') && q.get(lngName) && Number.isFinite(lat) && Number.isFinite(lng)
    ? { lat, lng }
    : undefined;
};

function postcodes(path: string): Answer {
  const m = /^\/postcodes\/([^/]+)$/.exec(path);
  if (!m) return { status: 404, body: { status: 404, error: 'Resource not found' } };
  const result = postcodeResult(decodeURIComponent(m[1] as string));
  return result
    ? { status: 200, body: { status: 200, result } }
    : { status: 404, body: { status: 404, error: 'Postcode not found' } };
}

/** postcodes.io `POST /postcodes`: up to 100 postcodes, each answered with its query and a result or null. */
async function bulkPostcodes(req: IncomingMessage, path: string): Promise<Answer> {
  if (path !== '/postcodes') return { status: 404, body: { status: 404, error: 'Resource not found' } };
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return { status: 400, body: { status: 400, error: 'Invalid JSON submitted' } };
  }
  const asked = (body as { postcodes?: unknown } | null)?.postcodes;
  if (!Array.isArray(asked))
    return {
      status: 400,
      body: { status: 400, error: 'Invalid data submitted. You need to provide a JSON array' },
    };
  if (asked.length > 100)
    return {
      status: 400,
      body: {
        status: 400,
        error: 'Too many postcodes submitted. Up to 100 postcodes can be bulk requested at a time',
      },
    };
  const result = asked.map((query) => ({
    query,
    result: (typeof query === 'string' && postcodeResult(query)) || null,
  }));
  return { status: 200, body: { status: 200, result } };
}

function police(path: string, q: URLSearchParams): Answer {
  if (path !== '/api/crimes-street/all-crime') return { status: 404 };
  const at = point(q, 'lng');
  if (!at) return { status: 400 };
  return { status: 200, body: crimesNear(at.lat, at.lng, q.get('date') ?? undefined) };
}

function flood(path: string, q: URLSearchParams): Answer {
  if (path !== '/id/floods' && path !== '/id/floodAreas') return { status: 404 };
  const at = point(q, 'long');
  const dist = Number(q.get('dist') ?? '10');
  const near = path === '/id/floods' ? floodsNear : floodAreasNear;
  const items = at ? near(at.lat, at.lng, Number.isFinite(dist) ? dist : 10) : [];
  return {
    status: 200,
    body: {
      '@context': 'http://environment.data.gov.uk/flood-monitoring/meta/context.jsonld',
      meta: {
        publisher: 'Environment Agency',
        licence: 'http://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/',
        version: '0.9',
        hasFormat: [],
      },
      items,
    },
  };
}

function openaq(path: string, q: URLSearchParams, req: IncomingMessage): Answer {
  if (!req.headers['x-api-key'])
    return {
      status: 401,
      body: { detail: 'Unauthorized. A valid API key must be provided in the X-API-Key header.' },
    };
  const latest = /^\/v3\/locations\/(\d+)\/latest$/.exec(path);
  const meta = (found: number) => ({ name: 'openaq-api', website: '/', page: 1, limit: 100, found });
  if (latest) {
    const results = airQualityLatest(Number(latest[1]));
    return { status: 200, body: { meta: meta(results.length), results } };
  }
  if (path !== '/v3/locations') return { status: 404, body: { detail: 'Not Found' } };
  const [lat, lng] = (q.get('coordinates') ?? '').split(',').map(Number);
  const radius = Number(q.get('radius') ?? '1000');
  if (
    lat === undefined ||
    lng === undefined ||
    !Number.isFinite(lat) ||
    !Number.isFinite(lng) ||
    !(radius > 0 && radius <= 25_000)
  )
    return {
      status: 422,
      body: { detail: [{ msg: 'coordinates and a radius of at most 25000 are required' }] },
    };
  const results = airQualityLocations(lat, lng, radius);
  return { status: 200, body: { meta: meta(results.length), results } };
}

function epc(path: string, q: URLSearchParams, req: IncomingMessage): Answer {
  const expected = `Basic ${Buffer.from(`${FAKE_EPC_EMAIL}:${FAKE_EPC_KEY}`).toString('base64')}`;
  if (req.headers.authorization !== expected) return { status: 401 };
  const m = /^\/api\/v1\/([a-z-]+)\/(search|certificate\/([^/]+))$/.exec(path);
  const kind = m?.[1] as FakeEpcKind | undefined;
  if (!m || !kind || !(EPC_KINDS as readonly string[]).includes(kind)) return { status: 404 };
  if (m[3]) {
    const found = certificateRow(kind, decodeURIComponent(m[3]));
    return found
      ? { status: 200, body: { 'column-names': columnsOf(kind), rows: [found] } }
      : { status: 404 };
  }
  const rows = searchRows(kind, {
    postcode: q.get('postcode') ?? undefined,
    address: q.get('address') ?? undefined,
  });
  // The register answers an empty body when nothing matches.
  return rows.length === 0
    ? { status: 200 }
    : { status: 200, body: { 'column-names': columnsOf(kind), rows } };
}

/** `/v2/search/{name}?c={clientId}`, and the icons its answers point at (`/icons/{domain}.svg`). */
function brandfetch(path: string, q: URLSearchParams, base: string): Answer {
  const search = /^\/v2\/search\/([^/]+)$/.exec(path);
  if (!search) return { status: 404, body: { message: 'Not found' } };
  if (q.get('c') !== FAKE_BRANDFETCH_CLIENT_ID)
    return { status: 401, body: { message: 'Invalid client id' } };
  const body = searchBrands(decodeURIComponent(search[1] as string)).map((b) => ({
    icon: `${base}/icons/${b.domain}.svg`,
    name: b.name,
    domain: b.domain,
    claimed: b.claimed,
    brandId: b.brandId,
  }));
  return { status: 200, body };
}

function answerFeed(res: ServerResponse, path: string, q: URLSearchParams): void {
  if (path === '/v1/forecast') {
    const lat = Number(q.get('latitude'));
    const lng = Number(q.get('longitude'));
    if (!q.get('latitude') || !Number.isFinite(lat) || !Number.isFinite(lng)) {
      json(res, { status: 400, body: { error: true, reason: 'latitude and longitude are required' } });
      return;
    }
    json(res, { status: 200, body: forecast(lat, lng) });
    return;
  }
  const xml =
    path === '/news.rss'
      ? newsFeed(q.get('postcode') ?? '')
      : path === '/travel.rss'
        ? travelFeed()
        : undefined;
  if (!xml) {
    json(res, { status: 404, body: { error: 'Not found' } });
    return;
  }
  res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-length': Buffer.byteLength(xml) });
  res.end(xml);
}

async function answerSignage(
  signage: SignageFake,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  if (req.headers.authorization !== `Bearer ${FAKE_SIGNAGE_KEY}`) {
    json(res, { status: 401, body: { message: 'Invalid API key' } });
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let body: unknown;
  try {
    body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
  } catch {
    json(res, { status: 400, body: { message: 'Body must be JSON' } });
    return;
  }
  const device = /^\/v1\/devices\/([^/]+)$/.exec(path);
  if (req.method === 'POST' && path === '/v1/pairings') {
    json(res, signage.pair(body));
    return;
  }
  if (req.method === 'DELETE' && device) {
    json(res, signage.unpair(decodeURIComponent(device[1] as string)));
    return;
  }
  if (req.method === 'PATCH' && device) {
    json(res, signage.repoint(decodeURIComponent(device[1] as string), body));
    return;
  }
  json(res, { status: 404, body: { message: 'Not found' } });
}

export async function startPublicDataFakes(
  opts: { port?: number; host?: string } = {},
): Promise<PublicDataFakes> {
  const failing = new Set<FakeService>();
  const delays = new Map<FakeService, number>();
  const calls = Object.fromEntries(FAKE_SERVICES.map((s) => [s, 0])) as Record<FakeService, number>;
  const signage = new SignageFake();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const service = FAKE_SERVICES.find((s) => url.pathname.startsWith(`${PREFIX[s]}/`));
    // Signage takes every method; postcodes.io takes a POST for its bulk lookup.
    const bulkLookup = service === 'postcodes' && req.method === 'POST';
    if (!service || (req.method !== 'GET' && service !== 'signage' && !bulkLookup))
      return json(res, { status: 404, body: { error: 'Not found' } });
    calls[service]++;
    const delay = delays.get(service) ?? 0;
    if (delay > 0) {
      setTimeout(() => answer(req, res, url, service), delay);
      return;
    }
    answer(req, res, url, service);
  });
  const answer = (req: IncomingMessage, res: ServerResponse, url: URL, service: FakeService) => {
    if (failing.has(service)) return json(res, { status: 503, body: { error: 'Service unavailable' } });
    const path = url.pathname.slice(PREFIX[service].length);
    const q = url.searchParams;
    if (service === 'signage') return void answerSignage(signage, req, res, path);
    if (service === 'kiosk-feeds') return answerFeed(res, path, q);
    if (service === 'postcodes' && req.method === 'POST')
      return void bulkPostcodes(req, path).then((reply) => json(res, reply));
    const icon = service === 'brandfetch' ? /^\/icons\/([^/]+)\.svg$/.exec(path) : null;
    if (icon) {
      const svg = brandIconSvg(decodeURIComponent(icon[1] as string));
      if (!svg) return json(res, { status: 404, body: { message: 'Not found' } });
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'content-length': Buffer.byteLength(svg) });
      return res.end(svg);
    }
    const reply =
      service === 'postcodes'
        ? postcodes(path)
        : service === 'police'
          ? police(path, q)
          : service === 'flood'
            ? flood(path, q)
            : service === 'openaq'
              ? openaq(path, q, req)
              : service === 'epc'
                ? epc(path, q, req)
                : brandfetch(path, q, `http://${req.headers.host ?? 'localhost'}${PREFIX.brandfetch}`);
    json(res, reply);
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    env: publicDataEnvironment(url),
    fail: (service, on = true) => {
      if (on) failing.add(service);
      else failing.delete(service);
    },
    slow: (service, ms) => {
      delays.set(service, ms);
    },
    calls,
    signageDevices: () => [...signage.devices.values()],
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
