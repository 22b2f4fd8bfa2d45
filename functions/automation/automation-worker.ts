import { createHash } from 'node:crypto';
import { canUseRoute } from '../../shared/access/route-access.ts';
import { CAPTURE_CONTENT_TYPES, detectCaptureFileType } from '../../shared/files/file-type.ts';
import { UPLOAD_LIMITS } from '../../shared/schemas/upload-size.ts';
import { memberCaller } from '../core/access/caller-service.ts';
import { listMemberships } from '../core/access/membership-repository.ts';
import { listRoles } from '../core/access/user-repository.ts';
import { headObject } from '../core/adapters/asset-storage.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import { getObjectBytes, putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { newId } from '../core/lib/ids.ts';
import type { Logger } from '../core/lib/logger.ts';
import { importDroppedFile } from '../imports/index.ts';
import { captureKey, fileDigestHolder, registerUpload } from '../invoices/index.ts';
import {
  type AutomationRun,
  type AutomationRunStatus,
  changeAutomation,
  changeAutomationRun,
  getAutomation,
} from './automation-repository.ts';
import { AUTOMATION_ERROR_CODES, type AutomationErrorCode, errorCodeOf } from './automation-templates.ts';
import { getRun, putNotifications } from './connector-repository.ts';
import { sendDataRequest } from './data-request.ts';

const ENDED = new Set<AutomationRunStatus>(['succeeded', 'failed']);

async function announce(run: AutomationRun, log: Logger): Promise<void> {
  await publishToCompany(
    run.companyId,
    {
      type: 'automation-run.updated',
      keys: ['/automation-runs', `/automation-runs/${run._id}`, '/automations'],
      data: { runId: run._id, automationId: run.automationId, status: run.status },
    },
    log,
  ).catch((err: unknown) => log.warn('live update failed', { error: String(err) }));
}

async function save(
  companyId: string,
  runId: string,
  change: (run: AutomationRun) => AutomationRun,
  log: Logger,
): Promise<AutomationRun | undefined> {
  const next = await changeAutomationRun(companyId, runId, (r) =>
    ENDED.has(r.status) ? undefined : { ...change(r), updatedAt: new Date().toISOString() },
  );
  if (!next) return undefined;
  await announce(next, log);
  if (ENDED.has(next.status)) {
    await changeAutomation(companyId, next.automationId, (a) => ({
      ...a,
      lastRunId: next._id,
      lastRunStatus: next.status,
      lastRunAt: next.finishedAt ?? next.updatedAt,
    }));
  }
  return next;
}

/** Marks the run begun, counting the attempt; undefined when it has already ended. */
export async function beginAutomationRun(companyId: string, runId: string, log: Logger) {
  return save(
    companyId,
    runId,
    (r) => ({
      ...r,
      status: 'running',
      attempts: r.attempts + 1,
      startedAt: r.startedAt ?? new Date().toISOString(),
    }),
    log,
  );
}

async function fail(companyId: string, runId: string, code: AutomationErrorCode, log: Logger) {
  const ended = await save(
    companyId,
    runId,
    (r) => ({
      ...r,
      status: 'failed',
      errorCode: code,
      error: AUTOMATION_ERROR_CODES[code],
      finishedAt: new Date().toISOString(),
    }),
    log,
  );
  if (ended) await tellOwner(ended, log);
}

/**
 * An attempt that broke off: the queue brings the message back after its visibility timeout (the
 * back-off), until its last attempt, when the run fails and its owner is told; the message then goes to
 * the dead-letter queue.
 */
export async function automationRunBrokeOff(
  companyId: string,
  runId: string,
  lastAttempt: boolean,
  log: Logger,
): Promise<void> {
  if (lastAttempt) return fail(companyId, runId, 'interrupted', log);
  await save(companyId, runId, (r) => ({ ...r, status: 'retrying' }), log);
}

async function tellOwner(run: AutomationRun, log: Logger) {
  const automation = await getAutomation(run.companyId, run.automationId);
  const owner = automation?.ownerSub ?? automation?.createdBy;
  const [memberships, roles] = await Promise.all([listMemberships(run.companyId), listRoles(run.companyId)]);
  const member = memberships.find((m) => m._id === owner && m.deleted !== true);
  // An owner who has left, or may no longer see automations, is not told about them.
  if (
    !member ||
    !canUseRoute(
      ['company_admin', 'view_integrations'],
      memberCaller(run.companyId, member._id, member, roles),
    )
  )
    return log.warn('automation failed with no owner to tell', { runId: run._id });
  const now = new Date().toISOString();
  await putNotifications(run.companyId, [
    {
      _id: newId(),
      companyId: run.companyId,
      userSub: member._id,
      content: `The automation "${run.automationName}" failed: ${run.error ?? AUTOMATION_ERROR_CODES.interrupted}`,
      route: '/automation/runs',
      icon: 'alert-triangle',
      isSeen: false,
      kind: 'automation-failed',
      createdAt: now,
      updatedAt: now,
      createdBy: 'system',
    },
  ]);
}

/** A summary of the connector run, kept as the automation run's attachment. */
function summaryCsv(run: AutomationRun, lines: [string, string | number][]): string {
  const cell = (v: string | number) => `"${String(v).replaceAll('"', '""')}"`;
  return [['Automation', run.automationName], ...lines].map(([k, v]) => `${cell(k)},${cell(v)}`).join('\n');
}

/** Ends an automation run as the connector run that did its work ended. */
export async function finishFromConnectorRun(
  companyId: string,
  runId: string,
  scraperRunId: string,
  log: Logger,
): Promise<void> {
  const [scraperRun, current] = await Promise.all([
    getRun(companyId, scraperRunId),
    changeAutomationRun(companyId, runId, () => undefined),
  ]);
  if (!scraperRun || !current || ENDED.has(current.status)) return;
  const { listed, fetched, skipped, failed } = scraperRun.counts;
  const key = `automation-runs/${companyId}/${runId}/summary.csv`;
  const csv = summaryCsv(current, [
    ['Supplier', scraperRun.supplierName],
    ['Status', scraperRun.status],
    ['Listed', listed],
    ['Fetched', fetched],
    ['Already held', skipped],
    ['Failed', failed],
    ['Half-hourly intervals', scraperRun.counts.intervals],
    ['Error', scraperRun.error?.message ?? ''],
  ]);
  await putObject(bucketName('uploads'), key, new TextEncoder().encode(csv), 'text/csv', {
    'company-id': companyId,
  });
  const attachment = { key, fileName: `automation-run-${runId}.csv`, contentType: 'text/csv' };
  if (scraperRun.status === 'succeeded') {
    await save(
      companyId,
      runId,
      (r) => ({
        ...r,
        status: 'succeeded',
        counts: { listed, fetched, skipped, failed },
        attachment,
        finishedAt: scraperRun.finishedAt ?? new Date().toISOString(),
      }),
      log,
    );
    return;
  }
  await save(
    companyId,
    runId,
    (r) => ({ ...r, counts: { listed, fetched, skipped, failed }, attachment }),
    log,
  );
  await fail(companyId, runId, errorCodeOf(scraperRun.error?.type), log);
}

/** A spreadsheet, by its name or its bytes: an XLSX file is a zip archive, a CSV file is text. */
function isSpreadsheet(fileName: string, bytes: Uint8Array): boolean {
  if (/\.(csv|xlsx)$/i.test(fileName)) return true;
  return bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

/**
 * A folder-import run: the file last dropped into the automation's folder goes where an upload of it
 * would: a bill (PDF or image) to capture, a spreadsheet (CSV or XLSX) to the imports worker.
 */
async function executeFolderRun(run: AutomationRun, log: Logger): Promise<void> {
  const { companyId, _id: runId } = run;
  const automation = await getAutomation(companyId, run.automationId);
  const file = automation?.folderFile;
  if (!file) return fail(companyId, runId, 'no-file', log);
  // Its upload URL took only the size declared within the limit; a file stored otherwise is not read whole.
  const stored = await headObject(bucketName('uploads'), file.key).catch(() => undefined);
  if (!stored) return fail(companyId, runId, 'no-file', log);
  if (stored.size > UPLOAD_LIMITS.automationFile) return fail(companyId, runId, 'file-too-large', log);
  const bytes = await getObjectBytes(bucketName('uploads'), file.key).catch(() => undefined);
  if (!bytes) return fail(companyId, runId, 'no-file', log);
  const attachment = { key: file.key, fileName: file.fileName, contentType: file.contentType };
  const type = detectCaptureFileType(bytes);
  if (!type && isSpreadsheet(file.fileName, bytes)) {
    const imported = await importDroppedFile({
      companyId,
      fileName: file.fileName,
      bytes,
      ...(automation.importType ? { type: automation.importType } : {}),
      sub: automation.ownerSub ?? automation.createdBy ?? run.createdBy,
    });
    if (!imported.queued) {
      await save(companyId, runId, (r) => ({ ...r, attachment, importId: imported.importId }), log);
      log.info('dropped spreadsheet not imported', {
        runId,
        importId: imported.importId,
        why: imported.error,
      });
      return fail(companyId, runId, 'file-unreadable', log);
    }
    return succeed(companyId, runId, { fetched: 1, skipped: 0 }, attachment, log, imported.importId);
  }
  if (!type || type === 'tiff') {
    await save(companyId, runId, (r) => ({ ...r, attachment }), log);
    return fail(companyId, runId, 'file-refused', log);
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  const held = await fileDigestHolder(companyId, digest);
  // The same capture id for the same run and file, so a run resumed after a crash stores it once.
  const captureId =
    Date.parse(run.createdAt).toString(16).padStart(12, '0').slice(-12) +
    createHash('sha256').update(`${runId}#${digest}`).digest('hex').slice(0, 12);
  if (held) return succeed(companyId, runId, { fetched: 0, skipped: 1 }, attachment, log);
  const key = captureKey(companyId, captureId, file.fileName);
  await registerUpload(companyId, {
    captureId,
    batchId: runId,
    fileName: file.fileName,
    key,
    size: bytes.byteLength,
    contentType: CAPTURE_CONTENT_TYPES[type],
    source: 'api',
  });
  await putObject(bucketName('uploads'), key, bytes, CAPTURE_CONTENT_TYPES[type], {
    'company-id': companyId,
    source: 'automation',
    'run-id': runId,
  });
  return succeed(companyId, runId, { fetched: 1, skipped: 0 }, attachment, log);
}

async function succeed(
  companyId: string,
  runId: string,
  counts: { fetched: number; skipped: number },
  attachment: AutomationRun['attachment'],
  log: Logger,
  importId?: string,
): Promise<void> {
  await save(
    companyId,
    runId,
    (r) => ({
      ...r,
      status: 'succeeded',
      counts: { listed: 1, ...counts, failed: 0 },
      ...(attachment ? { attachment } : {}),
      ...(importId ? { importId } : {}),
      finishedAt: new Date().toISOString(),
    }),
    log,
  );
}

/** A run that does its own work (not a connector's): a dropped file taken, or a data request sent. */
export async function executeAutomationRun(companyId: string, runId: string, log: Logger): Promise<void> {
  const run = await beginAutomationRun(companyId, runId, log);
  if (!run) return;
  if (run.templateId === 'data-request') {
    const automation = await getAutomation(companyId, run.automationId);
    if (!automation) return fail(companyId, runId, 'no-contact', log);
    const sent = await sendDataRequest(companyId, automation, log);
    if (!sent.ok) return fail(companyId, runId, sent.code, log);
    // What was asked, kept as the run's attachment, so the answer can be checked against it.
    const key = `automation-runs/${companyId}/${runId}/request.txt`;
    const body = `To: ${sent.mail.to}\nReply-To: ${sent.mail.replyTo}\nSubject: ${sent.mail.subject}\n\n${sent.mail.text}\n`;
    await putObject(bucketName('uploads'), key, new TextEncoder().encode(body), 'text/plain', {
      'company-id': companyId,
    });
    const attachment = { key, fileName: `data-request-${runId}.txt`, contentType: 'text/plain' };
    return succeed(companyId, runId, { fetched: 0, skipped: 0 }, attachment, log);
  }
  return executeFolderRun(run, log);
}
