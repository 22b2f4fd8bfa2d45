import type * as z from 'zod';
import type { kioskSchema } from '../kiosk.ts';

/** A slide a kiosk may show. */
export type SlideKey = z.output<typeof kioskSchema>['slides'][number];

/** Answers of the kiosk calls, as the browser and the kiosk screen read them. */

export interface KioskRecord {
  _id: string;
  name: string;
  assetId: string;
  slides: SlideKey[];
  lastSeenAt?: string;
}

export interface KioskCredential {
  kioskId: string;
  kioskAuth: string;
  screensNotUpdated?: number;
}

export interface PairedScreen {
  deviceId: string;
  name?: string;
  pairedAt: string;
  kioskId: string;
  kioskName: string;
}

export interface KioskLive {
  preview: boolean;
  kiosk: { _id: string; name?: string; slides?: string[] };
  asset: {
    _id: string;
    siteName?: string;
    address?: { streetAddress?: string; locality?: string; region?: string; postCode?: string };
    images?: { url?: string; thumbUrl?: string; isPrimary?: boolean }[];
    floorArea?: number;
  } | null;
  company: { name?: string; showLogo?: boolean } | null;
}

export interface UtilityMonth {
  utilityType: string;
  consumption: number;
  unit: string;
  emissionsKg?: number;
}

export interface LeaderboardRow {
  assetId: string;
  siteName: string;
  currentKwh: number;
  previousKwh: number | null;
  /** Percent change on the same month a year before; null without a figure to compare with. */
  change: number | null;
  thisBuilding: boolean;
}

export interface HalfHourlyDay {
  date: string;
  unit: string;
  /** One value per settlement period, the building's main electricity meters together. */
  values: (number | null)[];
}

export interface KioskConsumption {
  assetId: string;
  month: string | null;
  data: UtilityMonth[];
  sameMonthLastYear: { month: string | null; data: UtilityMonth[] };
  leaderboard?: LeaderboardRow[];
  halfHourly?: HalfHourlyDay | null;
  generatedAt?: string;
}

export interface FeedItem {
  title: string;
  link?: string;
  publishedAt?: string;
  description?: string;
}

export interface FeedPart<T> {
  configured: boolean;
  data: T;
  error?: string;
}

export interface KioskNews {
  fetchedAt: string;
  place: string | null;
  news: FeedPart<FeedItem[]>;
  weather: FeedPart<{
    temperatureC: number;
    windKph?: number;
    summary: string;
    daily: { date: string; maxC: number; minC: number; summary: string }[];
  } | null>;
  travel: FeedPart<FeedItem[]>;
}

/** POST /kiosks/screens: the screen paired, and how many screens of the kiosk are not yet updated. */
export interface ScreenPaired extends PairedScreen {
  screensNotUpdated: number;
}
