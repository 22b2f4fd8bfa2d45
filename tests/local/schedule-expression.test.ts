import { describe, expect, it } from 'vitest';
import { nextRun, parseScheduleExpression } from '../../infra/local/schedule-expression.ts';

const at = (iso: string) => new Date(iso);
const next = (expression: string, after: string) =>
  nextRun(parseScheduleExpression(expression), at(after)).toISOString();

describe('rate expressions', () => {
  it('run every N minutes, hours or days after the previous run', () => {
    expect(next('rate(1 minute)', '2026-01-01T10:00:30.000Z')).toBe('2026-01-01T10:01:30.000Z');
    expect(next('rate(15 minutes)', '2026-01-01T10:00:00.000Z')).toBe('2026-01-01T10:15:00.000Z');
    expect(next('rate(2 hours)', '2026-01-01T23:00:00.000Z')).toBe('2026-01-02T01:00:00.000Z');
    expect(next('rate(1 day)', '2026-02-28T06:00:00.000Z')).toBe('2026-03-01T06:00:00.000Z');
  });

  it('are refused with the wrong unit form or a zero, as EventBridge refuses them', () => {
    expect(() => parseScheduleExpression('rate(1 minutes)')).toThrow(/singular/);
    expect(() => parseScheduleExpression('rate(5 hour)')).toThrow(/singular/);
    expect(() => parseScheduleExpression('rate(0 minutes)')).toThrow(/at least 1/);
    expect(() => parseScheduleExpression('rate(5 weeks)')).toThrow(/Unsupported/);
  });
});

describe('cron expressions', () => {
  it('run at a fixed minute and hour each day, in UTC', () => {
    expect(next('cron(30 6 * * ? *)', '2026-05-10T05:00:00.000Z')).toBe('2026-05-10T06:30:00.000Z');
    expect(next('cron(30 6 * * ? *)', '2026-05-10T06:30:00.000Z')).toBe('2026-05-11T06:30:00.000Z');
    expect(next('cron(0 0 1 * ? *)', '2026-12-15T00:00:00.000Z')).toBe('2027-01-01T00:00:00.000Z');
  });

  it('understand lists, ranges, steps and names', () => {
    expect(next('cron(0/15 * * * ? *)', '2026-05-10T05:07:00.000Z')).toBe('2026-05-10T05:15:00.000Z');
    expect(next('cron(0 8,17 * * ? *)', '2026-05-10T09:00:00.000Z')).toBe('2026-05-10T17:00:00.000Z');
    // 2026-05-09 is a Saturday: the next weekday run is Monday the 11th.
    expect(next('cron(0 9 ? * MON-FRI *)', '2026-05-09T10:00:00.000Z')).toBe('2026-05-11T09:00:00.000Z');
    // Day-of-week 1 is Sunday in EventBridge.
    expect(next('cron(0 9 ? * 1 *)', '2026-05-09T10:00:00.000Z')).toBe('2026-05-10T09:00:00.000Z');
    expect(next('cron(0 12 1 JAN,JUL ? 2027)', '2026-05-09T10:00:00.000Z')).toBe('2027-01-01T12:00:00.000Z');
  });

  it('refuses what it cannot honour instead of misreading it', () => {
    expect(() => parseScheduleExpression('cron(0 9 * * *)')).toThrow(/six fields/);
    expect(() => parseScheduleExpression('cron(0 9 * * MON *)')).toThrow(/'\?'/);
    expect(() => parseScheduleExpression('cron(0 9 L * ? *)')).toThrow(/not supported/);
    expect(() => parseScheduleExpression('cron(0 9 ? * 2#1 *)')).toThrow(/not supported/);
    expect(() => parseScheduleExpression('cron(61 9 * * ? *)')).toThrow(/outside/);
    expect(() => parseScheduleExpression('at(2026-01-01T00:00:00)')).toThrow(/Unsupported/);
  });
});
