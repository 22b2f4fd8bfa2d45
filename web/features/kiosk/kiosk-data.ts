/** What a kiosk display shows, from GET /kiosks/live and /kiosks/live/consumption (02 §2, §7). */

import type {
  KioskConsumption,
  KioskLive,
  SlideKey,
  UtilityMonth,
} from '../../../shared/schemas/responses/kiosk.ts';

export type {
  FeedItem,
  HalfHourlyDay,
  KioskConsumption,
  KioskLive,
  KioskNews,
  LeaderboardRow,
  UtilityMonth,
} from '../../../shared/schemas/responses/kiosk.ts';
export const SLIDE_KEYS = [
  'leaderboard',
  'consumption',
  'news',
  'energy-usage',
  'carbon',
] as const satisfies readonly SlideKey[];
export type { SlideKey };

export interface Slide {
  key: SlideKey;
  title: string;
  subtitle: string;
}

/** The slides in their order, with the subtitles of 02 §2. */
export const SLIDES: readonly Slide[] = [
  { key: 'leaderboard', title: 'Leaderboard', subtitle: 'See how your floor is doing compared to others' },
  { key: 'consumption', title: 'Consumption', subtitle: "This building's energy consumption" },
  { key: 'news', title: 'News', subtitle: 'News, weather and travel for your area' },
  { key: 'energy-usage', title: 'Energy Usage', subtitle: 'Recent electricity consumption of this building' },
  { key: 'carbon', title: 'Carbon', subtitle: "This building's CO2 emission data" },
];

/** How long each slide stays on screen. */
export const SLIDE_MS = 15_000;
/** How often the screen asks for fresh data. */
export const LIVE_REFRESH_MS = 5 * 60 * 1000;

/** The kiosk's chosen slides in the order chosen; a kiosk that chose none shows them all in the spec's order. */
export function slidesOf(chosen: readonly string[] | undefined): Slide[] {
  const picked = (chosen ?? []).flatMap((key) => SLIDES.filter((s) => s.key === key));
  return picked.length > 0 ? picked : [...SLIDES];
}

/** The half-hour a settlement period starts, as HH:MM. */
export const periodTime = (index: number) =>
  `${String(Math.floor(index / 2)).padStart(2, '0')}:${index % 2 === 0 ? '00' : '30'}`;

export interface Comparison {
  utilityType: string;
  unit: string;
  current: number;
  previous: number | null;
  /** Percent change from the same month a year before; null without a figure to compare with. */
  change: number | null;
}

const percent = (current: number, previous: number | null) =>
  previous === null || previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10;

/** Each utility's latest month beside the same month a year before. */
export function compareMonths(consumption: KioskConsumption): Comparison[] {
  return consumption.data.map((row) => {
    const before = consumption.sameMonthLastYear.data.find(
      (r) => r.utilityType === row.utilityType && r.unit === row.unit,
    );
    const previous = before ? before.consumption : null;
    return {
      utilityType: row.utilityType,
      unit: row.unit,
      current: row.consumption,
      previous,
      change: percent(row.consumption, previous),
    };
  });
}

export interface CarbonSummary {
  currentKg: number;
  previousKg: number | null;
  change: number | null;
}

/** The building's emissions for the latest month, all utilities together, beside a year before. */
export function carbonSummary(consumption: KioskConsumption): CarbonSummary {
  const sum = (rows: UtilityMonth[]) => rows.reduce((total, r) => total + (r.emissionsKg ?? 0), 0);
  const currentKg = sum(consumption.data);
  const previousKg =
    consumption.sameMonthLastYear.data.length > 0 ? sum(consumption.sameMonthLastYear.data) : null;
  return { currentKg, previousKg, change: percent(currentKg, previousKg) };
}

/** 'YYYY-MM' as 'August 2026'. */
export function monthLabel(month: string | null): string {
  if (!month) return '';
  const [y, m] = month.split('-').map(Number);
  if (!y || !m) return month;
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, 1)),
  );
}

export function addressLine(asset: KioskLive['asset']): string {
  const a = asset?.address;
  return [a?.streetAddress, a?.locality, a?.postCode].filter(Boolean).join(', ');
}
