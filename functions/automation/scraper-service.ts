import { createHash } from 'node:crypto';
import { canUseRoute } from '../../shared/access/route-access.ts';
import { COMPANY_ADMINS } from '../../shared/system/permission-sets.ts';
import { rebuildSitesOfMeters } from '../accounts/index.ts';
import { addHalfHourlyRollups, type HalfHourlyWriteResult, writeHalfHourlyDays } from '../analytics/index.ts';
import { memberCaller } from '../core/access/caller-service.ts';
import { listAllCompanies, listMemberships } from '../core/access/membership-repository.ts';
import { listRoles } from '../core/access/user-repository.ts';
import { putObject } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { newId } from '../core/lib/ids.ts';
import { inPool } from '../core/lib/in-pool.ts';
import type { Logger } from '../core/lib/logger.ts';
import {
  captureKey,
  fileDigestHolder,
  getCapture,
  invoicesWithNumber,
  registerUpload,
} from '../invoices/index.ts';
import { recordGridFetch } from '../staff-tools/index.ts';
import { findSupplier } from '../suppliers/index.ts';
import { startDueAutomations } from './automation-start.ts';
import { adapterFor, type ConnectorAdapter, connectorBaseUrl } from './connector-adapters.ts';
import {
  accountsOfSupplier,
  billNumberHolder,
  changeConnectorState,
  changeRun,
  getConnectorState,
  getRun,
  getSealedPassword,
  meterCursor,
  portalLogins,
  putBillNumber,
  putMeterCursor,
  putNotifications,
  putRunLog,
  type RunCounts,
  type RunLogRef,
  type ScraperRun,
  type SupplierMeter,
} from './connector-repository.ts';
import {
  dayStartUtc,
  type FetchStats,
  fetchConsumption,
  intervalsToDays,
  londonDay,
} from './meter-data-client.ts';
import { type BillPortalAdapter, type ListedBill, PortalChanged, WrongPassword } from './portal-adapters.ts';
import { portalSealer, portalSecretContext } from './portal-secrets.ts';
import { PortalSession, PortalUnavailable } from './portal-session.ts';
import { announce, refusal, startRun, ZERO } from './run-start.ts';

/** Bills downloaded at once: enough to hide a slow portal's latency, few enough not to look like an attack. */
const DOWNLOADS_AT_ONCE = 4;
/** How far back a meter's first fetch reaches. */
const FIRST_FETCH_DAYS = 366;
// A year a call: each call re-reads the meter and its roll-ups, so fewer, larger writes are quicker.
const DAYS_PER_WRITE = 366;
/** Meters fetched and written at once: the data API and the table both take several callers. */
const METERS_AT_ONCE = 6;
/**
 * Meters whose roll-up changes are added together: the sites' and company's months then take one write
 * for many meters. Few enough that a run cut off leaves little of its change out of the roll-ups.
 */
const ROLLUPS_EVERY = 25;

/** The schedule's sweep: a run for every switched-on login of every company that may run now. */
export async function sweep(log: Logger): Promise<number> {
  let started = 0;
  for (let skip = 0; ; skip += 100) {
    const page = await listAllCompanies(100, skip);
    for (const company of page.data) {
      if (company.deleted === true) continue;
      started += await startDueAutomations(company._id, new Date(), log);
      for (const [supplierId, login] of Object.entries(await portalLogins(company._id))) {
        if (!login.enabled) continue;
        await startRun(company._id, supplierId, 'schedule', 'system', log).then(
          () => started++,
          (err: unknown) =>
            log.info('scheduled run not started', { companyId: company._id, supplierId, why: String(err) }),
        );
      }
    }
    if (page.data.length < 100) break;
  }
  return started;
}

/** A bill's capture id: the same bill always gets the same one, so a run resumed after a crash adds nothing twice. */
export function billCaptureId(companyId: string, supplierId: string, bill: ListedBill): string {
  const time = Date.parse(`${bill.issuedOn}T00:00:00Z`);
  const number = bill.invoiceNumber.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  return (
    (Number.isFinite(time) ? time : 0).toString(16).padStart(12, '0').slice(-12) +
    createHash('sha256').update(`${companyId}#${supplierId}#${number}`).digest('hex').slice(0, 12)
  );
}

/** One step of a run, with its own log lines, kept with the run when the step ends. */
class Steps {
  private current?: { ref: RunLogRef; lines: string[] };
  private run: ScraperRun;
  private readonly log: Logger;

  constructor(run: ScraperRun, log: Logger) {
    this.run = run;
    this.log = log;
  }

  get value(): ScraperRun {
    return this.run;
  }

  line(text: string) {
    this.current?.lines.push(`${new Date().toISOString()} ${text}`);
  }

  async begin(step: string) {
    await this.end('succeeded');
    const ref: RunLogRef = { _id: newId(), step, status: 'running', lines: 0, at: new Date().toISOString() };
    this.current = { ref, lines: [] };
    await this.save((r) => ({ ...r, logs: [...r.logs, ref] }));
  }

  async end(status: 'succeeded' | 'failed') {
    const cur = this.current;
    if (!cur) return;
    this.current = undefined;
    await putRunLog(this.run.companyId, this.run._id, cur.ref._id, cur.lines);
    await this.save((r) => ({
      ...r,
      logs: r.logs.map((l) => (l._id === cur.ref._id ? { ...l, status, lines: cur.lines.length } : l)),
    }));
  }

  async save(change: (run: ScraperRun) => ScraperRun) {
    const next = await changeRun(this.run.companyId, this.run._id, (r) => ({
      ...change(r),
      updatedAt: new Date().toISOString(),
    }));
    if (next) this.run = next;
    await announce(this.run, this.log);
  }

  async counts(counts: RunCounts) {
    await this.save((r) => ({ ...r, counts: { ...counts } }));
  }
}

async function tellAdmins(companyId: string, supplierName: string, log: Logger) {
  const [memberships, roles] = await Promise.all([listMemberships(companyId), listRoles(companyId)]);
  const admins = memberships
    .filter((m) => m.deleted !== true)
    .map((m) => memberCaller(companyId, m._id, m, roles))
    .filter((c) => canUseRoute(COMPANY_ADMINS, c));
  const now = new Date().toISOString();
  await putNotifications(
    companyId,
    admins.map((a) => ({
      _id: newId(),
      companyId,
      userSub: a.sub,
      content: `The ${supplierName} portal refused the password of your login. Its bills are not collected until you set the password again.`,
      route: '/connectors/manage',
      icon: 'alert-triangle',
      isSeen: false,
      kind: 'connector-wrong-password',
      createdAt: now,
      updatedAt: now,
      createdBy: 'system',
    })),
  );
  log.warn('portal refused the password', { companyId, supplierName, admins: admins.length });
}

async function fetchBills(
  steps: Steps,
  adapter: BillPortalAdapter,
  baseUrl: string,
  username: string,
  password: string,
  since: string | undefined,
): Promise<{ counts: RunCounts; newest?: string }> {
  const run = steps.value;
  const { companyId, supplierId } = run;
  const counts: RunCounts = { ...ZERO };
  const session = new PortalSession();

  await steps.begin('sign-in');
  steps.line(`Signing in to ${new URL(baseUrl).host} as ${username}`);
  await adapter.signIn(session, baseUrl, username, password);
  steps.line('Signed in');

  await steps.begin('list');
  const listed: ListedBill[] = [];
  let pageNo = 0;
  for await (const bills of adapter.billPages(session, baseUrl)) {
    pageNo++;
    const fresh = bills.filter((b) => !since || b.issuedOn >= since);
    listed.push(...fresh);
    steps.line(`Page ${pageNo}: ${bills.length} bills, ${fresh.length} new since ${since ?? 'the start'}`);
    // Newest first: once a page reaches bills older than the last run's, later pages hold only older ones.
    if (fresh.length < bills.length) break;
  }
  counts.listed = listed.length;
  await steps.counts(counts);
  const newest = listed.reduce<string | undefined>((m, b) => (!m || b.issuedOn > m ? b.issuedOn : m), since);

  await steps.begin('download');
  let sinceSaved = 0;
  await inPool(listed, DOWNLOADS_AT_ONCE, async (bill) => {
    const captureId = billCaptureId(companyId, supplierId, bill);
    const earlier = await getCapture(companyId, captureId);
    if (earlier) {
      // Stored by this run before a restart, or by an earlier run.
      if (earlier.batchId === run._id) counts.fetched++;
      else counts.skipped++;
      steps.line(`${bill.invoiceNumber}: already fetched`);
      return;
    }
    const holder0 = await billNumberHolder(companyId, supplierId, bill.invoiceNumber);
    if (
      (holder0 && holder0 !== captureId) ||
      (await invoicesWithNumber(companyId, bill.invoiceNumber)).length > 0
    ) {
      counts.skipped++;
      steps.line(`${bill.invoiceNumber}: already captured (same invoice number), not fetched`);
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = await adapter.download(session, bill);
    } catch (err) {
      if (err instanceof PortalUnavailable) throw err;
      counts.failed++;
      steps.line(
        `${bill.invoiceNumber}: download failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      return;
    }
    const digest = createHash('sha256').update(bytes).digest('hex');
    const holder = await fileDigestHolder(companyId, digest);
    if (holder && holder !== captureId) {
      counts.skipped++;
      steps.line(`${bill.invoiceNumber}: the same file was captured already, not stored again`);
      return;
    }
    const fileName = `${bill.invoiceNumber.replace(/[^A-Za-z0-9._-]/g, '-')}.pdf`;
    const key = captureKey(companyId, captureId, fileName);
    await registerUpload(companyId, {
      captureId,
      batchId: run._id,
      fileName,
      key,
      size: bytes.byteLength,
      contentType: 'application/pdf',
      source: 'api',
    });
    await putObject(bucketName('uploads'), key, bytes, 'application/pdf', {
      'company-id': companyId,
      source: 'connector',
      'supplier-id': supplierId,
      'run-id': run._id,
    });
    await putBillNumber(companyId, supplierId, bill.invoiceNumber, captureId);
    counts.fetched++;
    steps.line(
      `${bill.invoiceNumber} (${bill.issuedOn}, account ${bill.accountNumber}): fetched, ${bytes.byteLength} bytes`,
    );
    if (++sinceSaved >= 10) {
      sinceSaved = 0;
      await steps.counts(counts);
    }
  });
  return { counts, newest };
}

/**
 * A run cut off after storing a meter's days, but before adding their changes to the roll-ups, leaves
 * the days stored and the meter's cursor past them: the resumed run writes nothing again, so the sites'
 * roll-ups are rebuilt from their meters' months instead (as `PUT /accounts/{id}/invalidate-cache` does).
 */
async function mendSiteRollups(
  companyId: string,
  meters: readonly SupplierMeter[],
  steps: Steps,
): Promise<void> {
  const { sites, changed } = await rebuildSitesOfMeters(companyId, 'connector-run', meters);
  steps.line(`Resumed: ${sites} sites' monthly figures checked, ${changed} months mended`);
}

async function fetchMeterData(
  steps: Steps,
  baseUrl: string,
  apiKey: string,
  log: Logger,
  resumed: boolean,
): Promise<RunCounts> {
  const { companyId, supplierId } = steps.value;
  const counts: RunCounts = { ...ZERO };
  await steps.begin('meters');
  const meters = (await accountsOfSupplier(companyId, supplierId)).filter(
    (a) => typeof a.meterPointNumber === 'string' && typeof a.meterSerialNumber === 'string',
  );
  steps.line(`${meters.length} smart meters with this supplier`);
  counts.listed = meters.length;
  await steps.counts(counts);
  await steps.begin('consumption');
  const now = Date.now();
  const today = londonDay(now);
  const stats: FetchStats = { requests: 0, throttled: 0 };
  let pending: HalfHourlyWriteResult[] = [];
  const addRollups = async () => {
    const written = pending;
    pending = [];
    await addHalfHourlyRollups(companyId, written);
    await steps.counts(counts);
  };
  await inPool(meters, METERS_AT_ONCE, async (meter) => {
    const held = await meterCursor(companyId, meter._id);
    const from = held
      ? new Date(held)
      : new Date(dayStartUtc(londonDay(now - FIRST_FETCH_DAYS * 86_400_000)));
    const intervals = await fetchConsumption(
      baseUrl,
      apiKey,
      { mpan: String(meter.meterPointNumber), serial: String(meter.meterSerialNumber) },
      from,
      new Date(dayStartUtc(today)),
      stats,
    );
    const days = intervalsToDays(intervals).filter((d) => d.date < today);
    for (let i = 0; i < days.length; i += DAYS_PER_WRITE) {
      const written = await writeHalfHourlyDays(companyId, meter._id, days.slice(i, i + DAYS_PER_WRITE), {
        deferRollups: true,
      });
      // Read after the write: a flush meanwhile has started a new list.
      pending.push(written);
    }
    const last = days.at(-1);
    if (last) {
      const next = new Date(dayStartUtc(last.date) + 36 * 3_600_000);
      await putMeterCursor(
        companyId,
        meter._id,
        new Date(dayStartUtc(londonDay(next.getTime()))).toISOString(),
      );
    }
    const fetched = days.reduce((n, d) => n + d.values.filter((v) => v !== null).length, 0);
    // Staff's grid-data fetch usage counts each meter's fetch in the month it was made.
    await recordGridFetch(companyId, today.slice(0, 7), fetched);
    counts.fetched++;
    counts.intervals += fetched;
    steps.line(
      `${String(meter.meterPointNumber)}: ${days.length} days from ${from.toISOString().slice(0, 10)}`,
    );
    if (pending.length >= ROLLUPS_EVERY) await addRollups();
  });
  await addRollups();
  if (resumed) await mendSiteRollups(companyId, meters, steps);
  steps.line(`${stats.requests} requests, ${stats.throttled} answered 429 and were waited out`);
  log.info('meter data fetched', { companyId, meters: meters.length, ...stats });
  return counts;
}

/**
 * Carries out one run. A run that already ended is left alone; one found running was cut off (the worker
 * died, the message came back) and goes again: bills it stored already are recognised by their capture id.
 */
export async function executeRun(companyId: string, runId: string, log: Logger): Promise<void> {
  const found = await getRun(companyId, runId);
  if (!found || found.status === 'succeeded' || found.status === 'failed') return;
  const rlog = log.child({ companyId, runId, supplierId: found.supplierId });
  const resumed = found.status === 'running';
  const startedAt = found.startedAt ?? new Date().toISOString();
  const steps = new Steps(found, rlog);
  await steps.save((r) => ({ ...r, status: 'running', startedAt, counts: { ...ZERO } }));
  const fail = async (type: string, message: string) => {
    steps.line(`Failed: ${message}`);
    await steps.end('failed');
    await steps.save((r) => ({
      ...r,
      status: 'failed',
      error: { type, message },
      finishedAt: new Date().toISOString(),
    }));
    await changeConnectorState(companyId, found.supplierId, (s) => ({
      ...s,
      lastRunId: runId,
      lastStatus: 'failed',
      lastFinishedAt: new Date().toISOString(),
    }));
  };

  const supplier = await findSupplier(found.supplierId);
  const adapter: ConnectorAdapter | undefined = supplier ? adapterFor(supplier.name) : undefined;
  const baseUrl = supplier && adapter ? connectorBaseUrl(adapter, supplier) : undefined;
  const why = await refusal(companyId, found.supplierId);
  if (!supplier || !adapter || !baseUrl || why) {
    await steps.begin('check');
    return fail('not-runnable', why ?? 'This supplier has no connector.');
  }
  const login = (await portalLogins(companyId))[found.supplierId];
  const sealed = await getSealedPassword(companyId, found.supplierId);
  if (!login || !sealed) return fail('not-runnable', 'This portal login has no password yet.');
  const password = await portalSealer().open(sealed, portalSecretContext(companyId, found.supplierId));
  const state = await getConnectorState(companyId, found.supplierId);

  try {
    let counts: RunCounts;
    let newest: string | undefined = state.newestIssuedOn;
    if (adapter.kind === 'bill-portal') {
      const out = await fetchBills(steps, adapter, baseUrl, login.username, password, state.newestIssuedOn);
      counts = out.counts;
      newest = out.newest;
    } else {
      counts = await fetchMeterData(steps, baseUrl, password, rlog, resumed);
    }
    steps.line(`Done: ${counts.fetched} fetched, ${counts.skipped} already held, ${counts.failed} failed`);
    await steps.end('succeeded');
    const finishedAt = new Date().toISOString();
    await steps.save((r) => ({
      ...r,
      status: counts.failed > 0 && counts.fetched === 0 ? 'failed' : 'succeeded',
      counts,
      ...(newest ? { newestIssuedOn: newest } : {}),
      finishedAt,
    }));
    await changeConnectorState(companyId, found.supplierId, (s) => ({
      ...s,
      lastRunId: runId,
      lastStatus: 'succeeded',
      lastFinishedAt: finishedAt,
      ...(newest ? { newestIssuedOn: newest } : {}),
    }));
    rlog.info('connector run done', { ...counts });
  } catch (err) {
    if (err instanceof WrongPassword) {
      await changeConnectorState(companyId, found.supplierId, (s) => ({
        ...s,
        blocked: { reason: 'wrong-password', at: new Date().toISOString(), runId },
      }));
      await tellAdmins(companyId, supplier.name, rlog);
      return fail('wrong-password', err.message);
    }
    if (err instanceof PortalUnavailable) return fail('portal-unavailable', err.message);
    if (err instanceof PortalChanged) return fail('portal-changed', err.message);
    // Anything else may pass (a store that was briefly away): the message comes back and the run resumes.
    rlog.error('connector run interrupted', { error: err instanceof Error ? err.message : String(err) });
    throw err;
  }
}
