import { createHash, randomBytes } from 'node:crypto';
import type { CustomTemplate } from '../../shared/reports/custom-templates.ts';
import { reportRequestSchema } from '../../shared/reports/report-request.ts';
import {
  nextRunAfter,
  periodOfRun,
  reportSendSchema,
  scheduledReportSchema,
} from '../../shared/reports/report-schedule.ts';
import { templateOf } from '../../shared/reports/report-templates.ts';
import { unsubscribeQuery } from '../../shared/reports/schedule-queries.ts';
import type { ReportSent } from '../../shared/schemas/responses/reports.ts';
import type { ScheduledReportRunMessage } from '../../shared/system/queue-messages.ts';
import { getProfile } from '../core/access/user-repository.ts';
import { mailer } from '../core/adapters/mailer.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { isConditionFailure, type StoredItem } from '../core/data/item-repository.ts';
import { badRequest, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import type { Logger } from '../core/lib/logger.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import {
  bodyObjectOf,
  type OpContext,
  type Operations,
  type OpResult,
} from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { answeredItem } from '../core/resources/generic-answers.ts';
import { genericOperation } from '../core/resources/resource-service.ts';
import { putNotifications } from '../notifications/index.ts';
import { findGroup } from '../portfolios/index.ts';
import { deliveryOf, sendReportMail, unsubscribeUrlOf } from './report-mail.ts';
import { createReport, findReport, type StoredReport } from './report-repository.ts';
import { coveredSites, loadReport, newReport, templateSnapshot } from './report-service.ts';
import { findReportTemplate } from './report-template-repository.ts';
import { buildReport } from './report-worker.ts';
import { recipientChoices } from './schedule-recipients.ts';
import {
  changeSchedule,
  claimRun,
  dueSchedules,
  findSchedule,
  findUnsubscribeLink,
  putDue,
  putUnsubscribeLink,
  recordRun,
  removeDue,
  type StoredSchedule,
} from './schedule-repository.ts';

/** A run's claim older than this is taken to be a crashed worker's, and another may take it over. */
const STALE_CLAIM_MS = 15 * 60_000;

const TIMING_FIELDS = ['frequency', 'dayOfWeek', 'dayOfMonth', 'month', 'time', 'timeZone'] as const;

async function keepDue(companyId: string, schedule: StoredItem): Promise<void> {
  const { paused, nextRunAt, deleted } = schedule;
  if (paused === true || deleted === true || typeof nextRunAt !== 'string')
    await removeDue(companyId, schedule._id);
  else await putDue({ companyId, scheduleId: schedule._id, nextRunAt });
}

/** POST /scheduled-reports: the generic create, with the first run worked out and put on the timer's list. */
const create = operation({}, async (ctx): Promise<OpResult> => {
  const parsed = parseOrThrow(scheduledReportSchema, ctx.body);
  // The owner must be able to read what the report covers: it is built with their access at each run.
  await coveredSites(ctx, parsed);
  const nextRunAt = nextRunAfter(parsed, new Date()).toISOString();
  const out = await genericOperation('generic.create')({ ...ctx, body: { ...bodyObjectOf(ctx), nextRunAt } });
  await keepDue(ctx.caller.companyId, answeredItem(out));
  return out;
});

/** PATCH /scheduled-reports/{id}: the generic update; a change of timing moves the next run. */
const update = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const current = await findSchedule(ctx.caller.companyId, ctx.params.id);
  if (!current) throw notFound();
  const body = bodyObjectOf(ctx);
  const merged = parseOrThrow(scheduledReportSchema, { ...current, ...body });
  if (merged.scopeType !== current.scopeType || merged.scopeId !== current.scopeId)
    await coveredSites(ctx, merged);
  const retimed = TIMING_FIELDS.some((f) => merged[f] !== current[f]) || (current.paused && !merged.paused);
  const nextRunAt =
    retimed || !current.nextRunAt ? nextRunAfter(merged, new Date()).toISOString() : current.nextRunAt;
  const out = await genericOperation('generic.update')({ ...ctx, body: { ...body, nextRunAt } });
  await keepDue(ctx.caller.companyId, answeredItem(out));
  return out;
});

const remove = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const out = await genericOperation('generic.delete')(ctx);
  await removeDue(ctx.caller.companyId, ctx.params.id);
  return out;
});

/** PUT /scheduled-reports/{id}: restored, it runs next when it would from now, not for the runs it missed. */
const restore = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const out = await genericOperation('generic.restore')(ctx);
  const changed = await changeSchedule(ctx.caller.companyId, ctx.params.id, (s) => ({
    nextRunAt: nextRunAfter(s, new Date()).toISOString(),
  }));
  if (changed) await keepDue(ctx.caller.companyId, changed.schedule);
  return changed ? { ...out, body: changed.schedule } : out;
});

const bulk = operation({}, async (): Promise<OpResult> => {
  throw badRequest('Create scheduled reports one at a time');
});

/** POST /scheduled-reports/{id}/send: a run now, for the period just ended, besides the timed ones. */
const sendNow = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const schedule = await findSchedule(ctx.caller.companyId, ctx.params.id);
  if (!schedule) throw notFound();
  const runAt = new Date().toISOString();
  const key = `now-${newId()}`;
  await sendToQueue('reports', [{ companyId: ctx.caller.companyId, scheduleId: schedule._id, runAt, key }]);
  const period = periodOfRun(schedule, new Date(runAt));
  return {
    status: 202,
    body: {
      scheduleId: schedule._id,
      status: 'queued',
      startDate: period.startDate,
      endDate: period.endDate,
      recipients: schedule.recipients,
    },
  };
});

/** POST /reports/{id}/send: the built report mailed to each recipient, attached or linked. */
const sendReport = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const { recipients, message } = parseOrThrow(reportSendSchema, ctx.body);
  const report = await loadReport(ctx);
  const delivery = await deliveryOf(report);
  const sentBy = ctx.caller.name ?? ctx.caller.email;
  for (const to of recipients)
    await sendReportMail(report, delivery, {
      to,
      ...(message ? { message } : {}),
      ...(sentBy ? { sentBy } : {}),
    });
  ctx.log.info('report sent', { reportId: report._id, recipients: recipients.length });
  return {
    body: {
      reportId: report._id,
      recipients,
      sent: recipients.length,
      attached: delivery.attachment !== undefined,
      ...(delivery.link ? { linkExpiresInSeconds: 7 * 24 * 3600 } : {}),
    } satisfies ReportSent,
  };
});

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/**
 * A browser (a mail's link) is shown a page; any other client the same in JSON: what happened, and a
 * message to show.
 */
function page(
  ctx: Pick<OpContext, 'headers'>,
  title: string,
  body: string,
  state: 'ask' | 'unsubscribed' | 'invalid',
): OpResult {
  if (!(ctx.headers.accept ?? '').includes('text/html'))
    return { body: { state, message: `${title}: ${body.replace(/<[^>]+>/g, '').trim()}` } };
  return {
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body style="font-family:Arial,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem"><h1 style="font-size:1.4rem">${escapeHtml(title)}</h1>${body}</body></html>`,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  };
}

const INVALID_LINK = '<p>This unsubscribe link is not valid, or the report is no longer sent.</p>';

async function linkOf(token: string) {
  const link = token ? await findUnsubscribeLink(token) : undefined;
  const schedule = link && (await findSchedule(link.companyId, link.scheduleId));
  return link && schedule ? { link, schedule } : undefined;
}

const nameOf = (s: StoredSchedule) => s.name || templateOf(s.templateId ?? '')?.name || 'scheduled report';

/**
 * GET /scheduled-reports/unsubscribe?token=: asks before it acts, as mail scanners follow links; the
 * button (and a mail client's one-click unsubscribe) posts to the same address.
 */
const unsubscribePage = operation({ query: unsubscribeQuery }, async (ctx): Promise<OpResult> => {
  const found = await linkOf(ctx.query.token);
  if (!found) return page(ctx, 'Link not valid', INVALID_LINK, 'invalid');
  const { link, schedule } = found;
  const subscribed = schedule.recipients.includes(link.email);
  return page(
    ctx,
    subscribed ? 'Unsubscribe' : 'Unsubscribed',
    subscribed
      ? `<p>Stop sending the ${escapeHtml(nameOf(schedule))} report to ${escapeHtml(link.email)}?</p><form method="post"><button type="submit">Unsubscribe</button></form>`
      : `<p>${escapeHtml(link.email)} no longer receives the ${escapeHtml(nameOf(schedule))} report.</p>`,
    subscribed ? 'ask' : 'unsubscribed',
  );
});

/** POST /scheduled-reports/unsubscribe?token=: the address taken off the schedule; no sign-in needed. */
const unsubscribe = operation({ query: unsubscribeQuery }, async (ctx): Promise<OpResult> => {
  const found = await linkOf(ctx.query.token);
  if (!found) return page(ctx, 'Link not valid', INVALID_LINK, 'invalid');
  const { link } = found;
  const changed = await changeSchedule(link.companyId, link.scheduleId, (s) => {
    if (!s.recipients.includes(link.email)) return undefined;
    const recipients = s.recipients.filter((r) => r !== link.email);
    // A schedule nobody receives any more stops; its owner can add someone and start it again.
    return recipients.length ? { recipients } : { recipients, paused: true };
  });
  if (changed) await keepDue(link.companyId, changed.schedule);
  ctx.log.info('unsubscribed', { scheduleId: link.scheduleId });
  return page(
    ctx,
    'Unsubscribed',
    `<p>${escapeHtml(link.email)} will no longer receive the ${escapeHtml(nameOf(found.schedule))} report.</p>`,
    'unsubscribed',
  );
});

export const SCHEDULE_OPERATIONS: Operations = {
  'scheduledReports.create': create,
  'scheduledReports.bulk': bulk,
  'scheduledReports.update': update,
  'scheduledReports.delete': remove,
  'scheduledReports.restore': restore,
  'scheduledReports.send': sendNow,
  'scheduledReports.unsubscribePage': unsubscribePage,
  'scheduledReports.unsubscribe': unsubscribe,
  'scheduledReports.recipients': recipientChoices,
  'reports.send': sendReport,
};

/**
 * The timer's sweep: each schedule whose run has come is queued, then moved to its next run on condition
 * that nobody moved it first. The message goes before the move, so a sweep that dies between the two queues
 * the run again next time, and the run's key sends it once.
 */
export async function sweepSchedules(log: Logger, now = new Date()): Promise<number> {
  let queued = 0;
  for (const entry of await dueSchedules(now)) {
    const { companyId, scheduleId } = entry;
    const schedule = await findSchedule(companyId, scheduleId);
    if (!schedule || schedule.paused || !schedule.nextRunAt) {
      await removeDue(companyId, scheduleId);
      continue;
    }
    const runAt = schedule.nextRunAt;
    if (runAt > now.toISOString()) {
      await putDue({ companyId, scheduleId, nextRunAt: runAt });
      continue;
    }
    await sendToQueue('reports', [{ companyId, scheduleId, runAt }]);
    // Runs missed while nothing swept are not sent one by one: the latest has gone, the next is ahead.
    const later = new Date(Math.max(now.getTime(), Date.parse(runAt)));
    const nextRunAt = nextRunAfter(schedule, later).toISOString();
    const moved = await changeSchedule(companyId, scheduleId, (s) =>
      s.nextRunAt === runAt ? { nextRunAt } : undefined,
    );
    if (moved?.written) await putDue({ companyId, scheduleId, nextRunAt });
    queued++;
  }
  if (queued) log.info('scheduled reports queued', { queued });
  return queued;
}

/** The company's own template a schedule sends, as it is at the run; one that cannot be built refuses the run. */
async function ownTemplateOf(companyId: string, schedule: StoredSchedule): Promise<CustomTemplate> {
  const found = schedule.reportTemplateId
    ? await findReportTemplate(companyId, schedule.reportTemplateId)
    : undefined;
  if (!found) throw new RunRefused('The report template of this schedule has been deleted');
  if (!found.template)
    throw new RunRefused('The report template of this schedule has no sections: open it in the builder');
  return found.template;
}

/** One report per run: its id is the run's, so a retry finds the report it made. */
const runReportId = (companyId: string, scheduleId: string, key: string) =>
  createHash('sha256').update(`${companyId}#${scheduleId}#${key}`).digest('hex').slice(0, 24);

async function sitesOf(companyId: string, schedule: StoredSchedule): Promise<string[]> {
  if (schedule.scopeType === 'asset' && schedule.scopeId) return [schedule.scopeId];
  if (schedule.scopeType === 'portfolio' && schedule.scopeId) {
    const group = await findGroup(companyId, schedule.scopeId);
    return [...(group?.assetIds ?? [])];
  }
  return [];
}

async function reportOfRun(
  schedule: StoredSchedule,
  companyId: string,
  key: string,
  runAt: Date,
): Promise<StoredReport> {
  const id = runReportId(companyId, schedule._id, key);
  const existing = (await findReport(companyId, id))?.report;
  if (existing) return existing;
  const period = periodOfRun(schedule, runAt);
  const template = templateOf(schedule.templateId ?? '');
  const own = template ? undefined : await ownTemplateOf(companyId, schedule);
  const request = reportRequestSchema.parse({
    templateId: template?.id ?? 'custom',
    ...(own ? { reportTemplateId: schedule.reportTemplateId } : {}),
    scopeType: schedule.scopeType,
    ...(schedule.scopeId ? { scopeId: schedule.scopeId } : {}),
    startDate: period.startDate,
    endDate: period.endDate,
    format: schedule.format,
    name: `${schedule.name || template?.name || own?.name || 'Report'} ${period.startDate} to ${period.endDate}`,
    ...(schedule.intensityMetric && schedule.intensityValue
      ? { intensityMetric: schedule.intensityMetric, intensityValue: schedule.intensityValue }
      : {}),
  });
  const owner = schedule.createdBy ?? '';
  const report = newReport(
    companyId,
    request,
    await sitesOf(companyId, schedule),
    { sub: owner },
    { id, scheduleId: schedule._id, ...(own ? { template: templateSnapshot(own) } : {}) },
  );
  try {
    await createReport(companyId, report);
    return report;
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
    const made = (await findReport(companyId, id))?.report;
    if (!made) throw err;
    return made;
  }
}

/** A run that cannot succeed however often it is tried. */
export class RunRefused extends Error {}

/**
 * Carries out one run: claims it (a run sent, or being sent by another delivery, is passed over), builds its
 * report with the owner's access, and mails each recipient not yet mailed, noting each as it goes, so a run
 * tried again after a failure sends to nobody twice.
 */
export async function runSchedule(
  message: ScheduledReportRunMessage,
  claimant: string,
  log: Logger,
): Promise<void> {
  const { companyId, scheduleId } = message;
  const schedule = await findSchedule(companyId, scheduleId);
  if (!schedule) {
    log.info('scheduled report gone before its run', { scheduleId });
    return;
  }
  if (schedule.paused && !message.key) {
    log.info('scheduled report paused', { scheduleId });
    return;
  }
  const runAt = new Date(message.runAt);
  const period = periodOfRun(schedule, runAt);
  const key = message.key ?? period.key;
  const run = await claimRun(companyId, scheduleId, key, claimant, new Date(Date.now() - STALE_CLAIM_MS));
  if (!run) {
    log.info('scheduled report run already sent or being sent', { scheduleId, key });
    return;
  }
  let report = await reportOfRun(schedule, companyId, key, runAt);
  if (report.status !== 'ready') {
    await buildReport({ companyId, reportId: report._id, generation: report.generation }, log);
    report = (await findReport(companyId, report._id))?.report ?? report;
  }
  if (report.status !== 'ready' || !report.builtGeneration)
    throw new RunRefused(report.error ?? 'The report could not be built');
  await recordRun(companyId, scheduleId, key, { reportId: report._id });
  const delivery = await deliveryOf(report);
  const sentTo = [...run.sentTo];
  for (const to of schedule.recipients) {
    if (sentTo.includes(to)) continue;
    const token = randomBytes(18).toString('base64url');
    await putUnsubscribeLink(token, { companyId, scheduleId, email: to });
    const unsubscribeUrl = unsubscribeUrlOf(token);
    await sendReportMail(report, delivery, { to, ...(unsubscribeUrl ? { unsubscribeUrl } : {}) });
    sentTo.push(to);
    await recordRun(companyId, scheduleId, key, { sentTo });
  }
  const sentAt = new Date().toISOString();
  await recordRun(companyId, scheduleId, key, { status: 'sent', sentAt });
  await changeSchedule(companyId, scheduleId, () => ({
    lastRunAt: sentAt,
    lastPeriod: `${period.startDate} to ${period.endDate}`,
    lastStatus: 'sent',
    lastError: undefined,
  }));
  log.info('scheduled report sent', { scheduleId, key, recipients: sentTo.length });
}

/**
 * A run that failed its last attempt (its message now goes to the dead-letter queue): the schedule shows
 * it, and its owner is told in the product and by mail.
 */
export async function reportRunFailure(
  message: ScheduledReportRunMessage,
  error: unknown,
  log: Logger,
): Promise<void> {
  const { companyId, scheduleId } = message;
  const reason = error instanceof RunRefused ? error.message : 'The report could not be built or sent';
  const changed = await changeSchedule(companyId, scheduleId, () => ({
    lastStatus: 'failed',
    lastError: reason,
  }));
  const schedule = changed?.schedule;
  const owner = schedule?.createdBy;
  if (!schedule || !owner) return;
  const period = periodOfRun(schedule, new Date(message.runAt));
  const content = `The scheduled ${nameOf(schedule)} report for ${period.startDate} to ${period.endDate} could not be sent: ${reason}`;
  const now = new Date().toISOString();
  await putNotifications(companyId, [
    {
      _id: newId(),
      companyId,
      userSub: owner,
      content,
      route: '/reports/schedule',
      icon: 'alert-triangle',
      isSeen: false,
      kind: 'scheduled-report-failed',
      createdAt: now,
      updatedAt: now,
      createdBy: 'system',
    },
  ]);
  const email = (await getProfile(owner))?.email;
  if (email) {
    await mailer().send({
      to: email,
      subject: `Scheduled report not sent: ${nameOf(schedule)}`,
      text: content,
    });
  }
  log.warn('scheduled report run failed for good', { scheduleId, reason });
}
