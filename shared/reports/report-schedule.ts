import * as z from 'zod';
import { idField } from '../schemas/fields.ts';
import { onFirstUse } from '../schemas/on-first-use.ts';
import { MONTH_NAMES, WEEKDAY_NAMES } from './calendar-names.ts';
import {
  INTENSITY_METRICS,
  REPORT_FORMATS,
  REPORT_SCOPES,
  SYSTEM_TEMPLATE_IDS,
  templateOf,
} from './report-templates.ts';

export const SCHEDULE_FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type ScheduleFrequency = (typeof SCHEDULE_FREQUENCIES)[number];

export const DEFAULT_TIME_ZONE = 'Europe/London';

// The schemas are built when first called for: the functions declaring schedule routes start without them.
const emailList = () =>
  z
    .array(z.string().trim().toLowerCase().pipe(z.email('Must be an e-mail address')))
    .min(1, 'This field is required')
    .max(50, 'At most 50 recipients');

/** Whether the runtime knows the zone: an unknown one would silently run at UTC. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * A scheduled report: which report, for what, to whom and when. Runs fall at `time` on the wall clock of
 * `timeZone`: weekly on `dayOfWeek` (1 Monday … 7 Sunday); monthly on `dayOfMonth` (the month's last day
 * when it has fewer); quarterly on that day of January, April, July and October; yearly on that day of
 * `month`. Each run covers the period just ended: the week, month, quarter or twelve months before it.
 * Its fields, built on each call.
 */
export const scheduledReportFields = () =>
  z.object({
    name: z.string().trim().max(200).optional(),
    templateId: z
      .enum(SYSTEM_TEMPLATE_IDS, { error: `Must be one of ${SYSTEM_TEMPLATE_IDS.join(', ')}` })
      .optional(),
    /** A company's own template; sent once custom templates can be built. */
    reportTemplateId: idField().optional(),
    scopeType: z
      .enum(REPORT_SCOPES, { error: `Must be one of ${REPORT_SCOPES.join(', ')}` })
      .default('company'),
    scopeId: idField().optional(),
    format: z.enum(REPORT_FORMATS, { error: `Must be one of ${REPORT_FORMATS.join(', ')}` }).default('pdf'),
    recipients: emailList(),
    frequency: z.enum(SCHEDULE_FREQUENCIES, { error: `Must be one of ${SCHEDULE_FREQUENCIES.join(', ')}` }),
    dayOfWeek: z.coerce.number().int().min(1).max(7).default(1),
    dayOfMonth: z.coerce.number().int().min(1).max(31).default(1),
    month: z.coerce.number().int().min(1).max(12).default(1),
    time: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Must be a time such as 07:00')
      .default('07:00'),
    timeZone: z
      .string()
      .refine(isTimeZone, 'Must be a time zone such as Europe/London')
      .default(DEFAULT_TIME_ZONE),
    intensityMetric: z.enum(INTENSITY_METRICS).optional(),
    intensityValue: z.coerce.number().positive('Must be more than 0').optional(),
    paused: z.boolean().default(false),
    /** Worked out by the server: when the next run falls. */
    nextRunAt: z.string().optional(),
  });

/** The fields, and the rules between them: a template, and the scope it covers. */
export const scheduledReportSchema = onFirstUse(() =>
  scheduledReportFields().superRefine((s, ctx) => {
    if (!s.templateId && !s.reportTemplateId)
      ctx.addIssue({ code: 'custom', path: ['templateId'], message: 'Choose the report to send' });
    if (s.scopeType !== 'company' && !s.scopeId)
      ctx.addIssue({ code: 'custom', path: ['scopeId'], message: 'Choose the portfolio or site' });
    const template = s.templateId ? templateOf(s.templateId) : undefined;
    if (template && !template.scopes.includes(s.scopeType))
      ctx.addIssue({
        code: 'custom',
        path: ['scopeType'],
        message: `The ${template.name} report covers ${template.scopes.join(' or ')}`,
      });
  }),
);
export type ScheduledReportInput = z.output<typeof scheduledReportSchema>;

/** What the next-run computation reads of a schedule. */
export type ScheduleTiming = Pick<
  ScheduledReportInput,
  'frequency' | 'dayOfWeek' | 'dayOfMonth' | 'month' | 'time' | 'timeZone'
>;

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
const isoOf = (d: LocalDate) => `${d.year}-${pad(d.month)}-${pad(d.day)}`;
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

function addDays(d: LocalDate, days: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

function addMonths(year: number, month: number, months: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + months;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of a zone at an instant. */
function wallClock(at: Date, timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(at: Date, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant a wall-clock time of a zone falls. A time the clocks skip (01:30 on the spring change in
 * London) is taken an hour later, as a clock that was not changed would read it; a time that happens twice
 * (01:30 in autumn) is its first.
 */
export function zonedInstant(date: LocalDate, time: string, timeZone: string): Date {
  const [h = 0, m = 0] = time.split(':').map(Number);
  const naive = Date.UTC(date.year, date.month - 1, date.day, h, m);
  // A day holds at most one change of offset: the offsets half a day either side are the only candidates.
  const before = offsetMinutes(new Date(naive - 43_200_000), timeZone);
  const after = offsetMinutes(new Date(naive + 43_200_000), timeZone);
  const fits = [naive - before * 60_000, naive - after * 60_000]
    .filter((t) => wallMatches(new Date(t), date, h, m, timeZone))
    .sort((a, b) => a - b);
  return new Date(fits[0] ?? naive - before * 60_000);
}

function wallMatches(at: Date, date: LocalDate, h: number, m: number, timeZone: string): boolean {
  const w = wallClock(at, timeZone);
  return (
    w.year === date.year && w.month === date.month && w.day === date.day && w.hour === h && w.minute === m
  );
}

/** The local dates a schedule runs on, from the local month of `from` onwards (a bounded walk). */
function* runDates(s: ScheduleTiming, from: LocalDate): Generator<LocalDate> {
  if (s.frequency === 'weekly') {
    let d = addDays(from, -1);
    for (let i = 0; i < 60; i++) {
      const weekday = ((new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay() + 6) % 7) + 1;
      if (weekday === s.dayOfWeek) yield d;
      d = addDays(d, 1);
    }
    return;
  }
  for (let i = -1; i < 30; i++) {
    const { year, month } = addMonths(from.year, from.month, i);
    if (s.frequency === 'quarterly' && (month - 1) % 3 !== 0) continue;
    if (s.frequency === 'yearly' && month !== s.month) continue;
    yield { year, month, day: Math.min(s.dayOfMonth, daysIn(year, month)) };
  }
}

/** The first run strictly after `after`. */
export function nextRunAfter(s: ScheduleTiming, after: Date): Date {
  const w = wallClock(after, s.timeZone);
  for (const d of runDates(s, { year: w.year, month: w.month, day: w.day })) {
    const at = zonedInstant(d, s.time, s.timeZone);
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('No run within the next thirty months');
}

export interface ReportPeriod {
  startDate: string;
  endDate: string;
  /** Names the period: one run, and one only, is sent for it. */
  key: string;
}

/** The period a run at `runAt` covers: the week, month, quarter or twelve months just ended. */
export function periodOfRun(s: Pick<ScheduleTiming, 'frequency' | 'timeZone'>, runAt: Date): ReportPeriod {
  const w = wallClock(runAt, s.timeZone);
  const day: LocalDate = { year: w.year, month: w.month, day: w.day };
  let start: LocalDate;
  let end: LocalDate;
  if (s.frequency === 'weekly') {
    start = addDays(day, -7);
    end = addDays(day, -1);
  } else {
    const months = s.frequency === 'monthly' ? 1 : s.frequency === 'quarterly' ? 3 : 12;
    const first = addMonths(w.year, w.month, -months);
    const last = addMonths(w.year, w.month, -1);
    start = { ...first, day: 1 };
    end = { ...last, day: daysIn(last.year, last.month) };
  }
  return { startDate: isoOf(start), endDate: isoOf(end), key: `${isoOf(start)}_${isoOf(end)}` };
}

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;

/** A schedule's timing in words, as the schedule page lists it. */
export function describeTiming(s: ScheduleTiming): string {
  const at = `at ${s.time} (${s.timeZone})`;
  if (s.frequency === 'weekly') return `Every ${WEEKDAY_NAMES[s.dayOfWeek - 1] ?? 'Monday'} ${at}`;
  const day = s.dayOfMonth > 28 ? `${ordinal(s.dayOfMonth)} (or last day)` : ordinal(s.dayOfMonth);
  if (s.frequency === 'monthly') return `Monthly on the ${day} ${at}`;
  if (s.frequency === 'quarterly') return `Quarterly on the ${day} of Jan, Apr, Jul and Oct ${at}`;
  return `Yearly on ${day} ${MONTH_NAMES[s.month - 1] ?? 'January'} ${at}`;
}

/** POST /reports/{id}/send: to whom, with a line of the sender's own above the figures. */
export const reportSendSchema = onFirstUse(() =>
  z.object({
    recipients: emailList(),
    message: z.string().trim().max(2000).optional(),
  }),
);

/** A report at most this large travels with the mail; a larger one is sent as a link that expires. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
