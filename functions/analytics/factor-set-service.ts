import * as z from 'zod/mini';
import {
  DEFAULT_FACTOR_SET,
  FACTOR_SET_EDITIONS,
  type FactorSetEdition,
  findFactorSetEdition,
} from '../../shared/analytics/index.ts';
import { calculateEmissions, isFactorUtility } from '../../shared/domain/emission-factors.ts';
import { isSubMeter } from '../../shared/schemas/account-rules.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import type { FactorSets, RestatementJobView } from '../../shared/schemas/responses/factor-sets.ts';
import {
  allAccounts,
  applyRestatementToGroups,
  applyRestatementToSite,
  forgetGoneMonths,
  listAccountMonths,
  listGoneMonths,
  type MonthRestated,
  type MonthRestatement,
  meterUserOf,
  type RestatedSiteMonth,
  restateAccountMonth,
  restatementsOf,
  rollupSourceOf,
  splitOf,
  sumRestatedMonths,
  utilityOf,
} from '../accounts/index.ts';
import { sendToQueue } from '../core/adapters/queue.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { inPool } from '../core/lib/in-pool.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import {
  createRestatementJob,
  getFactorSetState,
  getRestatementJob,
  type Restatement,
  type RestatementJob,
} from './factor-set-repository.ts';

export type { Restatement, YearRestated } from './factor-set-repository.ts';

const ACCOUNT_CONCURRENCY = 4;
/** The run of a change recorded before changes named theirs. */
const OLD_RUN = 'before-runs';
const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** Built on the first restatement asked for: the function serving the figures starts without it. */
export const restateBodySchema = onFirstUse(() =>
  z.object({
    factorSet: z.string().check(
      z.refine((id) => findFactorSetEdition(id) !== undefined, {
        message: `Must be one of ${FACTOR_SET_EDITIONS.map((e) => e.id).join(', ')}`,
      }),
    ),
  }),
);

/**
 * A month's emissions in an edition, when the edition gives them other factors than those the month
 * names. Interval months keep their figures day by day, which a restatement of the month would leave
 * behind: they are left as they are.
 */
function restated(
  month: { month: string; consumption: number; unit: string; emissionsKg: number; factorVersion: string },
  utility: string,
  edition: FactorSetEdition,
  source: unknown,
): MonthRestatement['to'] | undefined {
  if (!isFactorUtility(utility) || source === 'interval') return undefined;
  const found = calculateEmissions({
    utility,
    year: Number(month.month.slice(0, 4)),
    quantity: month.consumption,
    unit: month.unit,
    table: edition.factors,
  });
  if (!found || found.factorVersion === month.factorVersion) return undefined;
  return { emissionsKg: found.kgCO2e, factorVersion: found.factorVersion };
}

/**
 * Whether a job's recorded month changes may be lacking from the roll-ups for good: it failed (its last
 * delivery went to the dead-letter queue) or is gone. A job done put them all on; one queued or running
 * still will, and taking its records while it writes them could take a part of a site's change.
 */
function abandonedJobs(companyId: string) {
  const known = new Map<string, Promise<RestatementJob['status'] | 'gone'>>();
  const statusOf = (jobId: string) => {
    let found = known.get(jobId);
    if (!found) {
      found = getRestatementJob(companyId, jobId).then((job) => job?.status ?? 'gone');
      known.set(jobId, found);
    }
    return found;
  };
  const abandoned = async (jobId: string) => ['failed', 'gone'].includes(await statusOf(jobId));
  /** Whether a job's changes are all on the roll-ups, or taken up by another's run (which ends done). */
  abandoned.settled = async (jobId: string) => ['done', 'failed', 'gone'].includes(await statusOf(jobId));
  return abandoned;
}

/**
 * Restates a company's emissions in an edition of the factor sets, as the job `jobId`: every meter's
 * months whose factors differ are recomputed from their consumption, each recording on itself what the job
 * changed; then the site, portfolio and company roll-ups take the sum of the recorded changes, each row
 * once for the job. A run after a crash (or a delivery of the job again) finds the months already
 * restated by their record and finishes what the roll-ups lack, so they always come to the sum of the
 * months. Changes recorded by an earlier job that failed are put on the roll-ups too, under that job's
 * mark (so once, whichever of the jobs gets there first). Months already in the edition are not touched,
 * so restating to the edition the figures are in changes nothing. Answers the company's totals by year
 * before and after.
 */
export async function restateCompany(
  companyId: string,
  jobId: string,
  edition: FactorSetEdition,
  onAccountDone?: (done: number, total: number) => Promise<void>,
): Promise<Restatement> {
  const years = new Map<string, { beforeKg: number; afterKg: number }>();
  let months = 0;
  let accountsDone = 0;
  const abandoned = abandonedJobs(companyId);
  const accounts = await allAccounts(companyId);
  // This delivery of the job: the changes it records name it.
  const run = newId();
  // Records of months taken away, by their `sk`: the ones there at the start, and those each site finds.
  const gone = new Map<string, { restatements: Record<string, MonthRestated> }>();
  for (const list of (await listGoneMonths(companyId)).values()) for (const m of list) gone.set(m.sk, m);
  const bySite = new Map<string | undefined, typeof accounts>();
  for (const account of accounts) {
    // A sub-meter's figures are in its parent's; the roll-ups and the totals count only the parent.
    const assetId = !isSubMeter(account) && typeof account.assetId === 'string' ? account.assetId : undefined;
    bySite.set(assetId, [...(bySite.get(assetId) ?? []), account]);
  }
  /** By job (this one, and failed ones whose records are taken up): the company's and portfolios' sums. */
  const groups = new Map<
    string,
    { company: RestatedSiteMonth[]; portfolios: Map<string, RestatedSiteMonth[]> }
  >();
  const groupsOf = (id: string) => {
    let g = groups.get(id);
    if (!g) {
      g = { company: [], portfolios: new Map() };
      groups.set(id, g);
    }
    return g;
  };
  groupsOf(jobId);
  await inPool([...bySite], ACCOUNT_CONCURRENCY, async ([assetId, siteAccounts]) => {
    const siteMonths = new Map<string, RestatedSiteMonth[]>();
    const push = (id: string, row: RestatedSiteMonth) =>
      siteMonths.set(id, [...(siteMonths.get(id) ?? []), row]);
    // Each job's record on each month as listed (`account|month|job` to the run that recorded it).
    const listed = new Map<string, string>();
    for (const account of siteAccounts) {
      const utility = utilityOf(account);
      const counted = assetId !== undefined;
      const user = meterUserOf(account);
      // A change of emissions stays in the part of the month's source and of the meter's user.
      const partsOf = (source: unknown, kg: number) =>
        splitOf({ consumption: 0, cost: 0, emissionsKg: kg }, rollupSourceOf(source), user);
      for (const m of await listAccountMonths(companyId, account._id, '1900-01', '2999-12')) {
        const recorded = restatementsOf(m);
        let change = recorded[jobId];
        const to = change ? undefined : restated(m, utility, edition, m.source);
        if (to) {
          const restatement: MonthRestatement = {
            month: m.month,
            utilityType: utility,
            unit: m.unit,
            from: { emissionsKg: m.emissionsKg, factorVersion: m.factorVersion },
            to,
          };
          if (await restateAccountMonth(companyId, account._id, jobId, restatement, recorded, run))
            change = { fromKg: m.emissionsKg, toKg: to.emissionsKg, factorVersion: to.factorVersion, run };
        }
        for (const [id, r] of Object.entries({ ...recorded, ...(change ? { [jobId]: change } : {}) }))
          listed.set(`${account._id}|${m.month}|${id}`, r.run ?? OLD_RUN);
        const diff = change ? round3(change.toKg - change.fromKg) : 0;
        // A month restated by an earlier run of the job holds its new figure already.
        const afterKg = change && !to ? m.emissionsKg : m.emissionsKg + diff;
        if (change) {
          months++;
          push(jobId, {
            month: m.month,
            utilityType: utility,
            unit: m.unit,
            emissionsKg: diff,
            factorVersion: change.factorVersion,
            parts: partsOf(m.source, diff),
          });
        }
        for (const [otherId, other] of Object.entries(recorded)) {
          if (otherId === jobId || !(await abandoned(otherId))) continue;
          push(otherId, {
            month: m.month,
            utilityType: utility,
            unit: m.unit,
            emissionsKg: round3(other.toKg - other.fromKg),
            factorVersion: other.factorVersion,
            parts: partsOf(m.source, round3(other.toKg - other.fromKg)),
          });
        }
        if (!counted) continue;
        const year = m.month.slice(0, 4);
        const sums = years.get(year) ?? { beforeKg: 0, afterKg: 0 };
        sums.beforeKg += afterKg - diff;
        sums.afterKg += afterKg;
        years.set(year, sums);
      }
      accountsDone++;
      await onAccountDone?.(accountsDone, accounts.length);
    }
    if (assetId === undefined) return;
    // A month taken away by a rollback left the roll-ups its emissions, a job's change included: the
    // change it recorded still goes on them, this job's own or a failed one's. Read once the site's
    // meters are listed, so a month taken away before its meter was listed is found here, and one taken
    // away after was listed with the very record it left (same job, same run), which counts once.
    const goneNow = await listGoneMonths(companyId);
    for (const account of siteAccounts) {
      const utility = utilityOf(account);
      const user = meterUserOf(account);
      for (const m of goneNow.get(account._id) ?? []) {
        gone.set(m.sk, m);
        for (const [id, change] of Object.entries(m.restatements)) {
          if (id !== jobId && !(await abandoned(id))) continue;
          if (listed.get(`${account._id}|${m.month}|${id}`) === (change.run ?? OLD_RUN)) continue;
          push(id, {
            month: m.month,
            utilityType: utility,
            unit: m.unit,
            emissionsKg: round3(change.toKg - change.fromKg),
            factorVersion: change.factorVersion,
            // Only a rollback takes a month away, and it takes imported months.
            parts: splitOf(
              { consumption: 0, cost: 0, emissionsKg: round3(change.toKg - change.fromKg) },
              'imports',
              user,
            ),
          });
        }
      }
    }
    for (const [id, rows] of siteMonths) {
      const site = sumRestatedMonths(rows);
      const g = groupsOf(id);
      // Kept summed as sites come in: a company's sums never hold more rows than its months and utilities.
      g.company.splice(0, g.company.length, ...sumRestatedMonths([...g.company, ...site]));
      for (const groupId of await applyRestatementToSite(companyId, id, assetId, site))
        g.portfolios.set(groupId, sumRestatedMonths([...(g.portfolios.get(groupId) ?? []), ...site]));
    }
  });
  for (const [id, g] of groups) await applyRestatementToGroups(companyId, id, g.company, g.portfolios);
  // Records of months taken away whose every job's change is on the roll-ups now (this job's, failed
  // ones' it took up, done ones') are needed no longer; a running job's still are.
  const forgotten: string[] = [];
  for (const [sk, m] of gone) {
    let settled = true;
    for (const id of Object.keys(m.restatements))
      if (id !== jobId && !(await abandoned.settled(id))) settled = false;
    if (settled) forgotten.push(sk);
  }
  await forgetGoneMonths(companyId, forgotten);
  return {
    factorSet: edition.id,
    months,
    years: [...years]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([year, s]) => ({ year, beforeKg: round3(s.beforeKg), afterKg: round3(s.afterKg) })),
  };
}

const kg = (v: number) => `${v.toLocaleString('en-GB', { maximumFractionDigits: 3 })} kg`;

/** The activity log's line: each year's totals before and after, and how many months changed. */
export function restatementMessage(edition: FactorSetEdition, r: Restatement): string {
  const changed = r.years.filter((y) => y.beforeKg !== y.afterKg);
  const years = changed.length
    ? changed.map((y) => `${y.year}: ${kg(y.beforeKg)} → ${kg(y.afterKg)} CO2e`).join('; ')
    : 'no figure changed';
  return `Emissions restated in ${edition.label} (${edition.id}), ${r.months} meter months recomputed. ${years}.`;
}

/** GET /analytics/factor-sets: the edition the company's figures are in, and those it may restate to. */
const factorSets = operation({}, async (ctx): Promise<OpResult> => {
  const state = await getFactorSetState(ctx.caller.companyId);
  const current = findFactorSetEdition(state?.factorSet ?? DEFAULT_FACTOR_SET);
  return {
    body: {
      current: {
        id: current?.id ?? DEFAULT_FACTOR_SET,
        label: current?.label ?? DEFAULT_FACTOR_SET,
        ...(state ? { restatedAt: state.restatedAt } : {}),
      },
      editions: FACTOR_SET_EDITIONS.map((e) => ({
        id: e.id,
        label: e.label,
        ...(e.current ? { current: true } : {}),
      })),
    } satisfies FactorSets,
  };
});

/** What the API shows of a job: everything but the company it belongs to. */
export function presentJob(job: RestatementJob): RestatementJobView {
  const { companyId: _companyId, ...rest } = job;
  return rest;
}

/**
 * POST /analytics/factor-sets/restate: company admins only (the route says so). A company's every meter
 * month is read and may be rewritten, which takes longer than a request may: the job is recorded and queued
 * for the restatements worker, and answered at once (202) with its id. Its progress and its end are
 * announced to the company's open pages.
 */
const restate = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(restateBodySchema, ctx.body);
  const edition = findFactorSetEdition(body.factorSet);
  if (!edition) throw formError({ factorSet: 'There is no such factor set' });
  const job: RestatementJob = {
    jobId: newId(),
    companyId: ctx.caller.companyId,
    factorSet: edition.id,
    status: 'queued',
    progress: 0,
    requestedBy: ctx.caller.sub,
    requestedAt: new Date().toISOString(),
  };
  await createRestatementJob(job);
  await sendToQueue('restatements', [{ companyId: job.companyId, jobId: job.jobId }]);
  return { status: 202, body: presentJob(job) };
});

/** GET /analytics/factor-sets/restatements/{jobId}: how a restatement is getting on, and what it changed. */
const restatementJob = operation({ params: ['jobId'] }, async (ctx): Promise<OpResult> => {
  const job = await getRestatementJob(ctx.caller.companyId, ctx.params.jobId);
  if (!job) throw notFound('Restatement not found');
  return { body: presentJob(job) };
});

export const FACTOR_SET_OPERATIONS: Operations = {
  'analytics.factorSets': factorSets,
  'analytics.restate': restate,
  'analytics.restatementJob': restatementJob,
};
