import { calendarEventsQuery, calendarFeedQuery } from '../../schemas/calendar-queries.ts';
import { targetsListQuery } from '../../schemas/queries.ts';
import type { AreaDecl } from '../area.ts';
import type { ScheduleDecl } from '../functions.ts';
import { PORTFOLIO_READERS } from '../permission-sets.ts';
import { TARGETS_AREA_RESOURCES, TARGETS_RESOURCE } from '../resources/targets.ts';
import { routesOf, withQueries } from '../route-builder.ts';
import type { HttpRoute } from '../routes.ts';

const route = routesOf('targets');
const READ = TARGETS_RESOURCE.read;
const WRITE = TARGETS_RESOURCE.write;

const TARGET_ROUTES: readonly HttpRoute[] = [
  route('GET', '/targets', 'targets.list', READ),
  route('GET', '/targets/search', 'targets.list', READ),
  route('POST', '/targets', 'targets.create', WRITE),
  route('POST', '/targets/bulk', 'targets.bulk', WRITE),
  // What the caller may set a target on, for the form.
  route('GET', '/targets/scopes', 'targets.scopes', READ),
  // Progress of every target the caller may read; also where a change to off track is noticed.
  route('GET', '/targets/progress', 'targets.progress', READ),
  route('GET', '/targets/{id}', 'targets.get', READ),
  route('PATCH', '/targets/{id}', 'targets.update', WRITE),
  route('DELETE', '/targets/{id}', 'targets.delete', WRITE),
  route('PUT', '/targets/{id}', 'targets.restore', WRITE),
];

/**
 * The regulatory calendar: EPC expiry, MEES minimum bands and lease events of the sites the caller may
 * read, and the same as an iCalendar feed behind a secret of the person's own.
 */
const CALENDAR_ROUTES: readonly HttpRoute[] = [
  route('GET', '/calendar/events', 'calendar.events', PORTFOLIO_READERS),
  route('GET', '/calendar/feed', 'calendar.feed', PORTFOLIO_READERS, { sessionOnly: true }),
  route('POST', '/calendar/feed/rotate', 'calendar.rotateFeed', PORTFOLIO_READERS, { sessionOnly: true }),
  route('GET', '/calendar/feed.ics', 'calendar.ics', PORTFOLIO_READERS, { auth: ['feed'] }),
];

/**
 * Daily at 06:30 UTC, after the missing-bills check on the same queue: every target judged, so one that
 * goes off track is told even when nobody opens the dashboard (which judges them too).
 */
const TARGETS_SCHEDULES: readonly ScheduleDecl[] = [
  {
    name: 'targets-check',
    expression: 'cron(30 6 * * ? *)',
    queue: 'missing-bills',
    message: { check: 'targets' },
  },
];

/** Targets and the regulatory calendar. */
export const TARGETS_AREA: AreaDecl = {
  name: 'targets',
  resources: TARGETS_AREA_RESOURCES,
  routes: withQueries([...TARGET_ROUTES, ...CALENDAR_ROUTES], {
    'GET /targets': targetsListQuery,
    'GET /targets/search': targetsListQuery,
    'GET /calendar/events': calendarEventsQuery,
    'GET /calendar/feed.ics': calendarFeedQuery,
  }),
  schedules: TARGETS_SCHEDULES,
};
