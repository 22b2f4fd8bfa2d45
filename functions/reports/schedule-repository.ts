/**
 * | pattern                                    | key condition                                                          | index |
 * | ------------------------------------------ | ---------------------------------------------------------------------- | ----- |
 * | one scheduled report by id                 | pk = C#{companyId}#scheduled-reports, sk = id                          | table |
 * | change a schedule (its next run, its list) | pk = C#{companyId}#scheduled-reports, sk = id (revision)               | table |
 * | every schedule and when it next runs       | pk = G#scheduled-reports-due (nextRunAt <= now, filtered)              | table |
 * | write / remove a schedule's next run       | pk = G#scheduled-reports-due, sk = {companyId}#{scheduleId}            | table |
 * | claim one run of a period (conditional)    | pk = C#{companyId}#scheduled-report-runs, sk = {scheduleId}#{period}   | table |
 * | one run, and who it has been sent to       | pk = C#{companyId}#scheduled-report-runs, sk = {scheduleId}#{period}   | table |
 * | one unsubscribe link                       | pk = G#report-unsubscribe, sk = token                                  | table |
 *
 * The due partition holds one small item per schedule; the timer's sweep reads it whole, so finding the
 * due ones costs one query however many companies there are.
 */
import type { ScheduledReportInput } from '../../shared/reports/report-schedule.ts';
import { changeItem } from '../core/data/conditional-writes.ts';
import {
  type CollectionRef,
  declaredRef,
  deleteRaw,
  getItem,
  getRaw,
  putRaw,
  putRawIf,
  queryEvery,
  type StoredItem,
  updateRaw,
} from '../core/data/item-repository.ts';
import { keys } from '../core/data/keys.ts';
import { type Stored, storedRecord } from '../core/data/stored-record.ts';

export type ScheduledReport = ScheduledReportInput & {
  lastRunAt?: string;
  lastPeriod?: string;
  lastStatus?: 'sent' | 'failed';
  lastError?: string;
};
export type StoredSchedule = Stored<ScheduledReport>;

export const schedulesRef = (companyId: string): CollectionRef =>
  declaredRef('scheduled-reports', { companyId });

const DUE_PK = keys.collection({}, 'scheduled-reports-due');
const UNSUBSCRIBE_PK = keys.collection({}, 'report-unsubscribe');
const runsPk = (companyId: string) => keys.collection({ companyId }, 'scheduled-report-runs');

const SCHEDULE_FIELDS = ['recipients', 'frequency'] as const;

const toSchedule = (item: StoredItem): StoredSchedule | undefined =>
  Array.isArray(item.recipients) && typeof item.frequency === 'string'
    ? storedRecord<StoredSchedule>('scheduled report', item, SCHEDULE_FIELDS)
    : undefined;

/** A live schedule of the company. */
export async function findSchedule(companyId: string, id: string): Promise<StoredSchedule | undefined> {
  const item = await getItem(schedulesRef(companyId).pk, id);
  return item && item.deleted !== true ? toSchedule(item) : undefined;
}

/** Changes a schedule by read, change and conditional write (see changeItem). */
export async function changeSchedule(
  companyId: string,
  id: string,
  change: (current: StoredSchedule) => Partial<ScheduledReport> | undefined,
): Promise<{ schedule: StoredSchedule; written: boolean } | undefined> {
  const out = await changeItem(schedulesRef(companyId), id, (item) => {
    const current = toSchedule(item);
    const fields = current && item.deleted !== true ? change(current) : undefined;
    return fields ? { ...item, ...fields, updatedAt: new Date().toISOString() } : undefined;
  });
  const schedule = out && toSchedule(out.after);
  return out && schedule ? { schedule, written: out.written } : undefined;
}

export interface DueEntry {
  companyId: string;
  scheduleId: string;
  nextRunAt: string;
}

export async function putDue(entry: DueEntry): Promise<void> {
  await putRaw({ pk: DUE_PK, sk: `${entry.companyId}#${entry.scheduleId}`, ...entry });
}

export async function removeDue(companyId: string, scheduleId: string): Promise<void> {
  await deleteRaw(DUE_PK, `${companyId}#${scheduleId}`);
}

/** The schedules whose next run is at or before `now`. */
export async function dueSchedules(now: Date): Promise<DueEntry[]> {
  const items = await queryEvery({
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: 'nextRunAt <= :now',
    ExpressionAttributeValues: { ':pk': DUE_PK, ':now': now.toISOString() },
  });
  return items.flatMap((i) =>
    typeof i.companyId === 'string' && typeof i.scheduleId === 'string' && typeof i.nextRunAt === 'string'
      ? [{ companyId: i.companyId, scheduleId: i.scheduleId, nextRunAt: i.nextRunAt }]
      : [],
  );
}

export interface ScheduleRun {
  status: 'claimed' | 'sent';
  claimedBy: string;
  claimedAt: string;
  reportId?: string;
  sentTo: string[];
  sentAt?: string;
}

/**
 * Claims the run of one period for one delivery of its message: written when nobody has, or when the
 * claim is this same delivery's (a retry), or a claim gone stale; never once the run is sent. So a message
 * sent twice sends once.
 */
export async function claimRun(
  companyId: string,
  scheduleId: string,
  period: string,
  claimant: string,
  staleBefore: Date,
): Promise<ScheduleRun | undefined> {
  const sk = `${scheduleId}#${period}`;
  const existing = await getRaw(runsPk(companyId), sk);
  const now = new Date().toISOString();
  const run: ScheduleRun = {
    status: 'claimed',
    claimedBy: claimant,
    claimedAt: now,
    sentTo: Array.isArray(existing?.sentTo) ? (existing.sentTo as string[]) : [],
    ...(typeof existing?.reportId === 'string' ? { reportId: existing.reportId } : {}),
  };
  const written = await putRawIf(
    { pk: runsPk(companyId), sk, companyId, scheduleId, period, ...run },
    {
      ConditionExpression:
        'attribute_not_exists(pk) OR (#status <> :sent AND (claimedBy = :me OR claimedAt < :stale))',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':sent': 'sent', ':me': claimant, ':stale': staleBefore.toISOString() },
    },
  );
  return written ? run : undefined;
}

export async function recordRun(
  companyId: string,
  scheduleId: string,
  period: string,
  fields: Partial<ScheduleRun>,
): Promise<void> {
  await updateRaw(runsPk(companyId), `${scheduleId}#${period}`, fields);
}

export interface UnsubscribeLink {
  companyId: string;
  scheduleId: string;
  email: string;
}

export async function putUnsubscribeLink(token: string, link: UnsubscribeLink): Promise<void> {
  await putRaw({ pk: UNSUBSCRIBE_PK, sk: token, ...link });
}

export async function findUnsubscribeLink(token: string): Promise<UnsubscribeLink | undefined> {
  const item = await getRaw(UNSUBSCRIBE_PK, token);
  return item &&
    typeof item.companyId === 'string' &&
    typeof item.scheduleId === 'string' &&
    typeof item.email === 'string'
    ? { companyId: item.companyId, scheduleId: item.scheduleId, email: item.email }
    : undefined;
}

// Schedules are written by the schedule calls, which add when each last ran and how it went.
declare module '../core/resources/generic-records.ts' {
  interface AreaRecords {
    'scheduled-reports': StoredSchedule;
  }
}
