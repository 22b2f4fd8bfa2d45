import * as z from 'zod';
import type { StoredAsset } from '../assets/index.ts';
import { lookupPostcode } from '../core/adapters/public-data.ts';
import { kioskFeedDefaults } from '../core/config.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { readProductSettings } from '../staff-tools/index.ts';

/**
 * The News slide's feeds: news and travel as RSS 2.0, weather as Open-Meteo's forecast JSON, at addresses
 * product settings name (or the environment's defaults) with {lat}, {lng} and {postcode} filled in for the
 * building. A feed that fails says so on its own; the others still show.
 */

const TIMEOUT_MS = 6000;
const ITEMS = 6;

export interface FeedItem {
  title: string;
  link?: string;
  publishedAt?: string;
  description?: string;
}

interface FeedPart<T> {
  configured: boolean;
  data: T;
  error?: string;
}

export interface WeatherNow {
  temperatureC: number;
  windKph?: number;
  summary: string;
  daily: { date: string; maxC: number; minC: number; summary: string }[];
}

export interface KioskNews {
  fetchedAt: string;
  place: string | null;
  news: FeedPart<FeedItem[]>;
  weather: FeedPart<WeatherNow | null>;
  travel: FeedPart<FeedItem[]>;
}

/** WMO weather codes as Open-Meteo reports them. */
const WEATHER_CODES: [number, string][] = [
  [0, 'Clear sky'],
  [3, 'Partly cloudy'],
  [48, 'Fog'],
  [57, 'Drizzle'],
  [67, 'Rain'],
  [77, 'Snow'],
  [82, 'Rain showers'],
  [86, 'Snow showers'],
  [99, 'Thunderstorm'],
];
const summaryOf = (code: number) => WEATHER_CODES.find(([max]) => code <= max)?.[1] ?? 'Unsettled';

const plainText = (s: string) =>
  s
    .replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/<[^>]+>/g, '')
    .trim();

const tag = (xml: string, name: string) => {
  const m = xml.match(new RegExp(`<${name}(?:\\s[^>]*)?>([\\s\\S]*?)</${name}>`));
  return m?.[1] === undefined ? undefined : plainText(m[1]);
};

/** The items of an RSS 2.0 document, as many as a slide holds. */
export function rssItems(xml: string): FeedItem[] {
  const items = xml.match(/<item(?:\s[^>]*)?>[\s\S]*?<\/item>/g) ?? [];
  return items.slice(0, ITEMS).flatMap((item) => {
    const title = tag(item, 'title');
    if (!title) return [];
    const pub = tag(item, 'pubDate');
    const at = pub ? Date.parse(pub) : Number.NaN;
    return [
      {
        title,
        ...(tag(item, 'link') ? { link: tag(item, 'link') } : {}),
        ...(Number.isNaN(at) ? {} : { publishedAt: new Date(at).toISOString() }),
        ...(tag(item, 'description') ? { description: tag(item, 'description') } : {}),
      },
    ];
  });
}

const openMeteoSchema = z.object({
  current: z.object({
    temperature_2m: z.number(),
    weather_code: z.number(),
    wind_speed_10m: z.number().optional(),
  }),
  daily: z
    .object({
      time: z.array(z.string()),
      temperature_2m_max: z.array(z.number()),
      temperature_2m_min: z.array(z.number()),
      weather_code: z.array(z.number()),
    })
    .optional(),
});

function weatherOf(body: unknown): WeatherNow {
  const parsed = openMeteoSchema.safeParse(body);
  if (!parsed.success) throw new Error('The weather feed answered an unexpected shape');
  const { current, daily } = parsed.data;
  return {
    temperatureC: current.temperature_2m,
    ...(current.wind_speed_10m === undefined ? {} : { windKph: current.wind_speed_10m }),
    summary: summaryOf(current.weather_code),
    daily: (daily?.time ?? []).slice(0, 3).map((date, i) => ({
      date,
      maxC: daily?.temperature_2m_max[i] ?? 0,
      minC: daily?.temperature_2m_min[i] ?? 0,
      summary: summaryOf(daily?.weather_code[i] ?? 0),
    })),
  };
}

async function fetchText(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`${new URL(url).host} answered ${res.status}`);
  return res.text();
}

interface Place {
  postcode: string;
  lat?: number;
  lng?: number;
}

const fill = (template: string, place: Place) =>
  template
    .replaceAll('{postcode}', encodeURIComponent(place.postcode))
    .replaceAll('{lat}', place.lat === undefined ? '' : String(place.lat))
    .replaceAll('{lng}', place.lng === undefined ? '' : String(place.lng));

async function part<T>(
  template: string | undefined,
  place: Place,
  empty: T,
  read: (text: string) => T,
): Promise<FeedPart<T>> {
  if (!template) return { configured: false, data: empty };
  try {
    return { configured: true, data: read(await fetchText(fill(template, place))) };
  } catch (err) {
    return { configured: true, data: empty, error: err instanceof Error ? err.message : String(err) };
  }
}

async function placeOf(asset: StoredAsset | undefined): Promise<Place> {
  const address = objectOf(asset?.address);
  const postcode = typeof address.postCode === 'string' ? address.postCode : '';
  const geo = objectOf(asset?.geocoordinates);
  if (typeof geo.lat === 'number' && typeof geo.lng === 'number')
    return { postcode, lat: geo.lat, lng: geo.lng };
  if (!postcode) return { postcode };
  const found = await lookupPostcode(postcode).catch(() => undefined);
  return found ? { postcode, lat: found.lat, lng: found.lng } : { postcode };
}

/** News, weather and travel for the building, each from its feed. */
export async function newsFor(asset: StoredAsset | undefined): Promise<KioskNews> {
  const [settings, place] = await Promise.all([readProductSettings(), placeOf(asset)]);
  const defaults = kioskFeedDefaults();
  const feeds = {
    newsUrl: settings.kioskFeeds.newsUrl ?? defaults.newsUrl,
    weatherUrl: settings.kioskFeeds.weatherUrl ?? defaults.weatherUrl,
    travelUrl: settings.kioskFeeds.travelUrl ?? defaults.travelUrl,
  };
  const [news, weather, travel] = await Promise.all([
    part(feeds.newsUrl, place, [] as FeedItem[], rssItems),
    part(feeds.weatherUrl, place, null as WeatherNow | null, (text) => weatherOf(JSON.parse(text))),
    part(feeds.travelUrl, place, [] as FeedItem[], rssItems),
  ]);
  const address = objectOf(asset?.address);
  return {
    fetchedAt: new Date().toISOString(),
    place: typeof address.locality === 'string' ? address.locality : place.postcode || null,
    news,
    weather,
    travel,
  };
}
