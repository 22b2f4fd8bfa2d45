import type { CalendarEvent, MeesScenario } from '../../targets/regulatory-calendar.ts';

/** Answers of the regulatory calendar calls (`/calendar…`), as the browser reads them. */

/** GET /calendar/events: the dates, under the scenario they were worked out for, as of `today`. */
export interface CalendarAnswer {
  data: CalendarEvent[];
  total: number;
  scenario: MeesScenario;
  today: string;
}

/** GET /calendar/feed: whether the user has a calendar feed. */
export interface CalendarFeedState {
  active: boolean;
  rotatedAt?: string;
}

/** POST /calendar/feed/rotate: the new feed's secret token and path, shown once. */
export interface CalendarFeedAddress {
  token: string;
  path: string;
}
