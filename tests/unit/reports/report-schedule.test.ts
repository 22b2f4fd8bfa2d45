import { describe, expect, it } from 'vitest';
import {
  nextRunAfter,
  periodOfRun,
  type ScheduleTiming,
  scheduledReportSchema,
  zonedInstant,
} from '../../../shared/reports/report-schedule.ts';

const london = (over: Partial<ScheduleTiming>): ScheduleTiming => ({
  frequency: 'weekly',
  dayOfWeek: 1,
  dayOfMonth: 1,
  month: 1,
  time: '07:00',
  timeZone: 'Europe/London',
  ...over,
});

/** Every run from `from` up to `until`, as the timer would find them one after another. */
function runsBetween(s: ScheduleTiming, from: string, until: string): Date[] {
  const out: Date[] = [];
  let at = new Date(from);
  for (;;) {
    at = nextRunAfter(s, at);
    if (at.getTime() > Date.parse(until)) return out;
    out.push(at);
  }
}

describe('next run of a scheduled report', () => {
  it('keeps 07:00 London on the wall clock across the spring change: 07:00 UTC before, 06:00 UTC after', () => {
    const runs = runsBetween(
      london({ frequency: 'weekly', dayOfWeek: 1 }),
      '2026-03-16T12:00:00Z',
      '2026-04-07T00:00:00Z',
    );
    expect(runs.map((d) => d.toISOString())).toEqual([
      '2026-03-23T07:00:00.000Z',
      // British Summer Time starts on Sunday 29 March 2026.
      '2026-03-30T06:00:00.000Z',
      '2026-04-06T06:00:00.000Z',
    ]);
  });

  it('fires once per period across the autumn change, even at an hour that happens twice', () => {
    // 01:30 on Sunday 25 October 2026 happens twice in London; the run is the first of them, and once.
    const s = london({ frequency: 'weekly', dayOfWeek: 7, time: '01:30' });
    const runs = runsBetween(s, '2026-10-17T00:00:00Z', '2026-11-02T00:00:00Z');
    expect(runs.map((d) => d.toISOString())).toEqual([
      '2026-10-18T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-11-01T01:30:00.000Z',
    ]);
    const periods = runs.map((r) => periodOfRun(s, r).key);
    expect(new Set(periods).size).toBe(runs.length);
  });

  it('moves a time the clocks skip an hour later rather than missing the run', () => {
    const at = zonedInstant({ year: 2026, month: 3, day: 29 }, '01:30', 'Europe/London');
    expect(at.toISOString()).toBe('2026-03-29T01:30:00.000Z');
    const s = london({ frequency: 'weekly', dayOfWeek: 7, time: '01:30' });
    const runs = runsBetween(s, '2026-03-21T00:00:00Z', '2026-04-06T00:00:00Z');
    expect(runs.map((d) => d.toISOString())).toEqual([
      '2026-03-22T01:30:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-04-05T00:30:00.000Z',
    ]);
  });

  it('runs monthly on the day asked, or the last day of a shorter month, each month once a year round', () => {
    const s = london({ frequency: 'monthly', dayOfMonth: 31, time: '08:15' });
    const runs = runsBetween(s, '2026-01-01T00:00:00Z', '2026-12-31T23:59:59Z');
    expect(runs).toHaveLength(12);
    expect(runs[1]?.toISOString()).toBe('2026-02-28T08:15:00.000Z');
    expect(runs[3]?.toISOString()).toBe('2026-04-30T07:15:00.000Z');
    expect(runs.map((r) => periodOfRun(s, r).startDate)).toEqual([
      '2025-12-01',
      '2026-01-01',
      '2026-02-01',
      '2026-03-01',
      '2026-04-01',
      '2026-05-01',
      '2026-06-01',
      '2026-07-01',
      '2026-08-01',
      '2026-09-01',
      '2026-10-01',
      '2026-11-01',
    ]);
  });

  it('runs quarterly in January, April, July and October, covering the quarter just ended', () => {
    const s = london({ frequency: 'quarterly', dayOfMonth: 2 });
    const runs = runsBetween(s, '2026-01-03T00:00:00Z', '2027-01-03T00:00:00Z');
    expect(runs.map((r) => r.toISOString().slice(0, 10))).toEqual([
      '2026-04-02',
      '2026-07-02',
      '2026-10-02',
      '2027-01-02',
    ]);
    expect(periodOfRun(s, runs[0] as Date)).toMatchObject({ startDate: '2026-01-01', endDate: '2026-03-31' });
  });

  it('runs yearly on the month and day asked, covering the twelve months before', () => {
    const s = london({ frequency: 'yearly', month: 4, dayOfMonth: 6 });
    const next = nextRunAfter(s, new Date('2026-05-01T00:00:00Z'));
    expect(next.toISOString()).toBe('2027-04-06T06:00:00.000Z');
    expect(periodOfRun(s, next)).toMatchObject({ startDate: '2026-04-01', endDate: '2027-03-31' });
  });

  it('reads the clock of another zone: 09:00 in New York', () => {
    const s = london({ frequency: 'weekly', dayOfWeek: 5, time: '09:00', timeZone: 'America/New_York' });
    expect(nextRunAfter(s, new Date('2026-07-01T00:00:00Z')).toISOString()).toBe('2026-07-03T13:00:00.000Z');
  });

  it('refuses an unknown time zone and fills in Europe/London when none is given', () => {
    const base = { templateId: 'portfolio-summary', recipients: ['a@example.com'], frequency: 'monthly' };
    expect(scheduledReportSchema.safeParse({ ...base, timeZone: 'Mars/Olympus' }).success).toBe(false);
    expect(scheduledReportSchema.parse(base).timeZone).toBe('Europe/London');
  });
});
