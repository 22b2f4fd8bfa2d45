import type { Caller } from '../../shared/access/caller.ts';
import { isCompanyWide } from '../../shared/access/route-access.ts';
import { isEpcBand, typedEpcBand } from '../../shared/domain/epc.ts';
import { calendarEventsQuery, calendarFeedQuery } from '../../shared/schemas/calendar-queries.ts';
import type {
  CalendarAnswer,
  CalendarFeedAddress,
  CalendarFeedState,
} from '../../shared/schemas/responses/calendar.ts';
import { toICalendar } from '../../shared/targets/icalendar.ts';
import {
  type CalendarEvent,
  inEnglandOrWales,
  type MeesScenario,
  meesSteps,
  type SiteFacts,
  siteEvents,
  upcoming,
} from '../../shared/targets/regulatory-calendar.ts';
import { crremMisalignmentYears } from '../benchmarks/index.ts';
import { getCompany } from '../company/index.ts';
import { getFeedOfUser, putFeedCredential } from '../core/access/credential-repository.ts';
import { forgetCredential } from '../core/access/credential-service.ts';
import { readableOf } from '../core/access/item-access-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { mailConfig } from '../core/config.ts';
import { notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { digestOf, newSecret } from '../core/lib/secrets.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { allSites, type CalendarSite, sitesByIds, tenantsOf } from './calendar-repository.ts';

const READ_CONCURRENCY = 8;
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The sites the caller may read, with what the calendar reads of them. */
async function readableSites(caller: Caller, only?: string): Promise<CalendarSite[]> {
  if (isCompanyWide(caller)) {
    if (only) return sitesByIds(caller.companyId, [only]);
    return allSites(caller.companyId);
  }
  const readable = await readableOf(caller);
  const ids = (readable?.assets ?? []).filter((id) => !only || id === only);
  return sitesByIds(caller.companyId, ids);
}

/** A site's EPC: its linked certificate, else the band typed on the site (with no lodgement date). */
function epcOf(site: CalendarSite): SiteFacts['epc'] {
  const epc = site.epc;
  if (epc && isEpcBand(epc.band)) {
    const kind = epc.kind === 'domestic' || epc.kind === 'display' ? epc.kind : 'non-domestic';
    const lodged = text(epc.lodgementDate);
    return { band: epc.band, kind, ...(lodged ? { lodgementDate: lodged } : {}) };
  }
  const typed = typedEpcBand(site.epcRating);
  return typed ? { band: typed } : undefined;
}

async function factsOf(caller: Caller, sites: readonly CalendarSite[]): Promise<SiteFacts[]> {
  const crrem = await crremMisalignmentYears(
    caller,
    sites.map((s) => s._id),
  );
  return inPool(sites, READ_CONCURRENCY, async (site) => {
    const tenants = await tenantsOf(caller.companyId, site._id);
    const misaligned = crrem.get(site._id);
    return {
      assetId: site._id,
      siteName: text(site.siteName) ?? 'Unnamed site',
      inEnglandOrWales: inEnglandOrWales(text(site.country)),
      epc: epcOf(site),
      leases: tenants.map((t) => ({
        id: t._id,
        tenant: text(t.name) ?? 'Tenant',
        ...(text(t.leaseStart) ? { start: text(t.leaseStart) } : {}),
        ...(text(t.leaseEnd) ? { end: text(t.leaseEnd) } : {}),
        ...(text(t.leaseBreak) ? { break: text(t.leaseBreak) } : {}),
      })),
      ...(misaligned !== undefined ? { crremMisalignmentYear: misaligned } : {}),
    };
  });
}

/** The scenario asked for, else the one the company saved, else the proposed dates (the prudent plan). */
async function scenarioOf(caller: Caller, asked: MeesScenario | undefined): Promise<MeesScenario> {
  if (asked) return asked;
  const settings = objectOf((await getCompany(caller.companyId))?.settings);
  return settings.meesScenario === 'in-force' ? 'in-force' : 'proposed';
}

async function eventsFor(
  caller: Caller,
  opts: { assetId?: string; months: number; scenario: MeesScenario; window: 'upcoming' | 'all' },
): Promise<CalendarEvent[]> {
  const today = new Date().toISOString().slice(0, 10);
  const sites = await readableSites(caller, opts.assetId);
  if (opts.assetId && sites.length === 0) throw notFound();
  const steps = meesSteps(opts.scenario);
  const all = (await factsOf(caller, sites)).flatMap((s) => siteEvents(s, today, steps));
  if (opts.window === 'all')
    return all.sort((a, b) => a.date.localeCompare(b.date) || a.id.localeCompare(b.id));
  return upcoming(all, today, opts.months);
}

/** GET /calendar/events: the regulatory dates of the caller's sites, or of one site. */
const events = operation({ query: calendarEventsQuery }, async (ctx): Promise<OpResult> => {
  const q = ctx.query;
  const scenario = await scenarioOf(ctx.caller, q.scenario);
  const data = await eventsFor(ctx.caller, {
    ...(q.assetId ? { assetId: q.assetId } : {}),
    months: q.months,
    scenario,
    window: q.window,
  });
  return {
    body: {
      data,
      total: data.length,
      scenario,
      today: new Date().toISOString().slice(0, 10),
    } satisfies CalendarAnswer,
  };
});

/** GET /calendar/feed: whether the caller has a feed (its secret was shown once, when made). */
const feed = operation({}, async (ctx): Promise<OpResult> => {
  const stored = await getFeedOfUser(ctx.caller.sub, ctx.caller.companyId);
  return {
    body: {
      active: !!stored,
      ...(stored ? { rotatedAt: stored.rotatedAt } : {}),
    } satisfies CalendarFeedState,
  };
});

/** POST /calendar/feed/rotate: a new feed address; the old one stops working. Shown once. */
const rotateFeed = operation({}, async (ctx): Promise<OpResult> => {
  const previous = await getFeedOfUser(ctx.caller.sub, ctx.caller.companyId);
  const feedId = newId();
  const secret = newSecret();
  await putFeedCredential(
    {
      feedId,
      sub: ctx.caller.sub,
      companyId: ctx.caller.companyId,
      digest: digestOf(secret),
      rotatedAt: new Date().toISOString(),
    },
    previous?.feedId,
  );
  if (previous) forgetCredential('feed', previous.feedId);
  await writeActivity(ctx.caller, { type: 'rotate-secret', model: 'calendar-feed', modelId: feedId });
  const token = `${feedId}.${secret}`;
  return {
    body: {
      token,
      path: `/calendar/feed.ics?token=${encodeURIComponent(token)}`,
    } satisfies CalendarFeedAddress,
    headers: { 'cache-control': 'no-store' },
  };
});

const domainOf = () => {
  const app = mailConfig().appUrl;
  try {
    return app ? new URL(app).host : 'voltfolio';
  } catch {
    return 'voltfolio';
  }
};

/** GET /calendar/feed.ics?token=: the caller's calendar as text/calendar, for calendar clients. */
const ics = operation({ query: calendarFeedQuery }, async (ctx): Promise<OpResult> => {
  const scenario = await scenarioOf(ctx.caller, ctx.query.scenario);
  const data = await eventsFor(ctx.caller, { months: 24, scenario, window: 'upcoming' });
  const app = mailConfig().appUrl?.replace(/\/$/, '');
  const body = toICalendar(data, {
    name: 'Voltfolio regulatory dates',
    domain: domainOf(),
    now: new Date(),
    link: (e) => (app ? `${app}/assets/${e.assetId}/risks` : undefined),
  });
  return {
    body,
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': 'inline; filename="voltfolio.ics"',
      'cache-control': 'private, max-age=900',
    },
  };
});

export const CALENDAR_OPERATIONS: Operations = {
  'calendar.events': events,
  'calendar.feed': feed,
  'calendar.rotateFeed': rotateFeed,
  'calendar.ics': ics,
};
