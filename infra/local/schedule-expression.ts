/**
 * EventBridge schedule expressions: `rate(N minute|minutes|hour|hours|day|days)` and
 * `cron(minutes hours day-of-month month day-of-week year)` in UTC, with `*`, `?`, lists, ranges, steps
 * and month/day names. `L`, `W` and `#` are refused rather than misread.
 */
export type Schedule =
  | { kind: 'rate'; everyMs: number }
  | {
      kind: 'cron';
      minutes: readonly number[];
      hours: readonly number[];
      daysOfMonth: ReadonlySet<number> | 'any';
      months: ReadonlySet<number>;
      /** 1 = Sunday … 7 = Saturday, as EventBridge numbers them. */
      daysOfWeek: ReadonlySet<number> | 'any';
      years: ReadonlySet<number> | 'any';
    };

const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

function parseRate(body: string, expression: string): Schedule {
  const match = /^(\d+)\s+(minute|minutes|hour|hours|day|days)$/.exec(body.trim());
  if (!match) throw new Error(`Unsupported rate expression: ${expression}`);
  const value = Number(match[1]);
  const unit = match[2] as string;
  const singular = unit.replace(/s$/, '') as keyof typeof UNIT_MS;
  if (value < 1) throw new Error(`A rate must be at least 1: ${expression}`);
  // EventBridge refuses `rate(1 minutes)` and `rate(5 minute)`; so does this, so the mistake shows locally.
  if ((value === 1) !== (unit === singular)) {
    throw new Error(`Use the singular unit for 1 and the plural otherwise: ${expression}`);
  }
  return { kind: 'rate', everyMs: value * UNIT_MS[singular] };
}

function numberOf(token: string, names: readonly string[] | undefined, nameBase: number): number {
  const index = names?.indexOf(token.toUpperCase()) ?? -1;
  if (index >= 0) return index + nameBase;
  if (!/^\d+$/.test(token)) throw new Error(`Not a number or name: ${token}`);
  return Number(token);
}

function parseField(
  text: string,
  min: number,
  max: number,
  names?: readonly string[],
  nameBase = 1,
): Set<number> {
  const out = new Set<number>();
  for (const item of text.split(',')) {
    const withoutNames = item.replace(/[A-Z]{3}/gi, (n) => (names?.includes(n.toUpperCase()) ? '0' : n));
    if (/[LW#]/i.test(withoutNames)) {
      throw new Error(`L, W and # are not supported locally: ${item}`);
    }
    const [range = '', stepText] = item.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`Bad step in ${item}`);
    let from: number;
    let to: number;
    if (range === '*') {
      from = min;
      to = max;
    } else if (range.includes('-')) {
      const [a = '', b = ''] = range.split('-');
      from = numberOf(a, names, nameBase);
      to = numberOf(b, names, nameBase);
    } else {
      from = numberOf(range, names, nameBase);
      to = stepText === undefined ? from : max;
    }
    if (from < min || to > max || from > to) throw new Error(`${item} is outside ${min}-${max}`);
    for (let v = from; v <= to; v += step) out.add(v);
  }
  return out;
}

function parseCron(body: string, expression: string): Schedule {
  const fields = body.trim().split(/\s+/);
  if (fields.length !== 6) throw new Error(`A cron expression has six fields: ${expression}`);
  const [min = '', hour = '', dom = '', month = '', dow = '', year = ''] = fields;
  if ((dom === '?') === (dow === '?')) {
    throw new Error(`Exactly one of day-of-month and day-of-week must be '?': ${expression}`);
  }
  const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
  return {
    kind: 'cron',
    minutes: sorted(parseField(min, 0, 59)),
    hours: sorted(parseField(hour, 0, 23)),
    daysOfMonth: dom === '?' ? 'any' : parseField(dom, 1, 31),
    months: parseField(month, 1, 12, MONTHS),
    daysOfWeek: dow === '?' ? 'any' : parseField(dow, 1, 7, DAYS),
    years: year === '*' ? 'any' : parseField(year, 1970, 2199),
  };
}

export function parseScheduleExpression(expression: string): Schedule {
  const match = /^(rate|cron)\((.*)\)$/.exec(expression.trim());
  if (!match) throw new Error(`Unsupported schedule expression: ${expression}`);
  return match[1] === 'rate'
    ? parseRate(match[2] as string, expression)
    : parseCron(match[2] as string, expression);
}

const MAX_DAYS_AHEAD = 366 * 8;

/** The first run strictly after `after` (rates count from `after`, as a rule counts from its creation). */
export function nextRun(schedule: Schedule, after: Date): Date {
  if (schedule.kind === 'rate') return new Date(after.getTime() + schedule.everyMs);
  const start = new Date(Math.floor(after.getTime() / 60_000) * 60_000 + 60_000);
  for (let d = 0; d < MAX_DAYS_AHEAD; d++) {
    const day = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), start.getUTCDate() + d));
    if (schedule.years !== 'any' && !schedule.years.has(day.getUTCFullYear())) continue;
    if (!schedule.months.has(day.getUTCMonth() + 1)) continue;
    if (schedule.daysOfMonth !== 'any' && !schedule.daysOfMonth.has(day.getUTCDate())) continue;
    if (schedule.daysOfWeek !== 'any' && !schedule.daysOfWeek.has(day.getUTCDay() + 1)) continue;
    const earliest = d === 0 ? start.getUTCHours() * 60 + start.getUTCMinutes() : 0;
    for (const h of schedule.hours) {
      for (const m of schedule.minutes) {
        if (h * 60 + m >= earliest) return new Date(day.getTime() + (h * 60 + m) * 60_000);
      }
    }
  }
  throw new Error('The schedule has no run in the coming years');
}
