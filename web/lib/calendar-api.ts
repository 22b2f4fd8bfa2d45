import useSWR from 'swr';
import type {
  CalendarAnswer,
  CalendarFeedAddress,
  CalendarFeedState,
} from '../../shared/schemas/responses/calendar.ts';
import type { MeesScenario } from '../../shared/targets/regulatory-calendar.ts';
import { useServices } from './app-context.tsx';
import { useEndpoint } from './endpoint.ts';

export type { CalendarAnswer } from '../../shared/schemas/responses/calendar.ts';

export const calendarKeys = {
  events: (opts: {
    assetId?: string;
    /** Absent: the company's saved scenario, which the answer names. */
    scenario?: MeesScenario;
    window: 'upcoming' | 'all';
    months?: number;
  }) => {
    const q = new URLSearchParams({ window: opts.window });
    if (opts.scenario) q.set('scenario', opts.scenario);
    if (opts.assetId) q.set('assetId', opts.assetId);
    if (opts.months) q.set('months', String(opts.months));
    return `/calendar/events?${q.toString()}`;
  },
  feed: '/calendar/feed',
} as const;

/** GET /calendar/events: the caller's sites' regulatory dates, or one site's. */
export const useCalendarEvents = (opts: Parameters<typeof calendarKeys.events>[0]) =>
  useSWR<CalendarAnswer>(calendarKeys.events(opts));

/** GET /calendar/feed: whether the user has a calendar feed. */
export const useCalendarFeed = () => useSWR<CalendarFeedState>(calendarKeys.feed);

/** POST /calendar/feed/rotate: a new feed address, shown once; the old one stops working. */
export const useRotateCalendarFeed = () =>
  useEndpoint(
    (api, _none: undefined) => api.post<CalendarFeedAddress>('/calendar/feed/rotate', {}),
    () => [calendarKeys.feed],
  );

/** The absolute address of a feed path, for a calendar client to subscribe to. */
export function useFeedAddress(): (path: string) => string {
  const base = useServices().config.apiBase.replace(/\/+$/, '');
  return (path) => `${base}${path}`;
}
