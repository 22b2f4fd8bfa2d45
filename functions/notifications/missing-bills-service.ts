import type { Caller } from '../../shared/access/caller.ts';
import { canAccessItem } from '../../shared/access/item-access.ts';
import { canUseRoute } from '../../shared/access/route-access.ts';
import { findResource } from '../../shared/system/resources.ts';
import { thresholdOf } from '../../shared/validation/check-kit.ts';
import { dayNumber, isoOfDay, showDate } from '../../shared/validation/figures.ts';
import { applyRuleChanges, type ValidationRule } from '../../shared/validation/rules.ts';
import { memberCaller } from '../core/access/caller-service.ts';
import { LineageResolver } from '../core/access/item-access-service.ts';
import {
  getValidationRuleChanges,
  listAllCompanies,
  listMemberships,
} from '../core/access/membership-repository.ts';
import { listRoles } from '../core/access/user-repository.ts';
import { newId } from '../core/lib/ids.ts';
import type { Logger } from '../core/lib/logger.ts';
import {
  activeAccounts,
  type BilledAccount,
  type BillPeriod,
  claimMissingBillNotice,
  invoicesOfAccount,
  putNotifications,
  releaseMissingBillNotice,
} from './missing-bill-repository.ts';

/** Bills missing from an account: nothing covers the days from `from` up to the day of the check. */
export interface MissingBills {
  /** The last day the latest bill covers. */
  coveredUntil: string;
  /** The first day no bill covers (the day after the latest bill's period). */
  from: string;
  /** Days from `from` to the day before the check. */
  days: number;
  cycleDays: number;
  /** Bills of the cycle that fit in those days, at least one. */
  count: number;
}

/**
 * DOMAIN.md's missing-bills rule applied to an account on `today`: bills are missing once the days since
 * the latest bill's period ended reach a whole billing cycle (the account's, else the latest bill's length)
 * plus the rule's share of another, the time the next bill has had to arrive. Credit notes and bills
 * without an end date do not count.
 */
export function missingBillsOf(
  account: BilledAccount,
  invoices: readonly BillPeriod[],
  rule: ValidationRule,
  today: string,
): MissingBills | undefined {
  const now = dayNumber(today);
  if (!rule.enabled || now === undefined) return undefined;
  let latest: { start: number | undefined; end: number } | undefined;
  for (const invoice of invoices) {
    if (invoice.isCreditNote === true) continue;
    const end = dayNumber(typeof invoice.invoiceEndDate === 'string' ? invoice.invoiceEndDate : undefined);
    if (end === undefined || (latest && end <= latest.end)) continue;
    const start = dayNumber(
      typeof invoice.invoiceStartDate === 'string' ? invoice.invoiceStartDate : undefined,
    );
    latest = { start, end };
  }
  if (!latest) return undefined;
  const accountCycle =
    typeof account.billingCycleDays === 'number' && account.billingCycleDays > 0
      ? account.billingCycleDays
      : undefined;
  const billCycle =
    latest.start !== undefined && latest.end >= latest.start ? latest.end - latest.start + 1 : undefined;
  const cycleDays = accountCycle ?? billCycle;
  if (!cycleDays) return undefined;
  const days = now - latest.end - 1;
  if (days < cycleDays + (cycleDays * thresholdOf(rule)) / 100) return undefined;
  return {
    coveredUntil: isoOfDay(latest.end),
    from: isoOfDay(latest.end + 1),
    days,
    cycleDays,
    count: Math.max(1, Math.floor(days / cycleDays)),
  };
}

const accountLabel = (account: BilledAccount) => {
  const name = typeof account.name === 'string' && account.name ? account.name : 'An account';
  const meter = typeof account.meterPointNumber === 'string' ? account.meterPointNumber : undefined;
  return meter ? `${name} (${meter})` : name;
};

export function missingBillsMessage(account: BilledAccount, missing: MissingBills): string {
  const bills = missing.count === 1 ? 'about 1 bill is' : `about ${missing.count} bills are`;
  return `No bill has come for ${accountLabel(account)} since the period ending ${showDate(missing.coveredUntil)} (${missing.days} days on a ${missing.cycleDays}-day billing cycle): ${bills} missing. Ask the supplier.`;
}

export interface MissingBillsRun {
  companies: number;
  accounts: number;
  /** Accounts whose missing bills were newly notified this run. */
  notified: number;
  notifications: number;
}

const COMPANY_PAGE = 100;
const ACCOUNT_READERS = findResource('accounts')?.read ?? [];

/**
 * The daily check: for every company whose missing-bills rule is on, each active account with bills
 * missing gets one notification per member of the company, once per uncovered period.
 */
export async function notifyMissingBills(today: string, log: Logger): Promise<MissingBillsRun> {
  const run: MissingBillsRun = { companies: 0, accounts: 0, notified: 0, notifications: 0 };
  for (let skip = 0; ; skip += COMPANY_PAGE) {
    const page = await listAllCompanies(COMPANY_PAGE, skip);
    for (const company of page.data) {
      run.companies++;
      await checkCompany(company._id, today, run, log);
    }
    if (skip + COMPANY_PAGE >= page.total || page.data.length === 0) break;
  }
  log.info('missing bills checked', { today, ...run });
  return run;
}

/** The company's members as callers, so each is judged by the same rules as their own requests. */
async function membersOf(companyId: string): Promise<Caller[]> {
  const [memberships, roles] = await Promise.all([listMemberships(companyId), listRoles(companyId)]);
  return memberships.filter((m) => m.deleted !== true).map((m) => memberCaller(companyId, m._id, m, roles));
}

async function checkCompany(companyId: string, today: string, run: MissingBillsRun, log: Logger) {
  const rule = applyRuleChanges(await getValidationRuleChanges(companyId)).find(
    (r) => r.key === 'missing-bills',
  );
  if (!rule?.enabled) return;
  const accounts = await activeAccounts(companyId);
  let members: Caller[] | undefined;
  // Reads nothing until an account has bills missing; then the company's entity tree once.
  const resolver = new LineageResolver(companyId);
  for (const account of accounts) {
    run.accounts++;
    const missing = missingBillsOf(account, await invoicesOfAccount(companyId, account._id), rule, today);
    if (!missing) continue;
    if (!(await claimMissingBillNotice(companyId, account._id, missing.from))) continue;
    members ??= await membersOf(companyId);
    const lineage = await resolver.complete('accounts', account);
    // Only those who may open the account hear of it: a member with grants on other sites must not.
    const readers = members.filter(
      (m) => canUseRoute(ACCOUNT_READERS, m) && canAccessItem(m, 'read', lineage),
    );
    const now = new Date().toISOString();
    const content = missingBillsMessage(account, missing);
    const items = readers.map((m) => ({
      _id: newId(),
      companyId,
      userSub: m.sub,
      content,
      route: `/accounts/${account._id}`,
      icon: 'alert-triangle',
      isSeen: false,
      kind: 'missing-bills',
      accountId: account._id,
      createdAt: now,
      updatedAt: now,
      createdBy: 'system',
    }));
    try {
      await putNotifications(companyId, items);
    } catch (err) {
      await releaseMissingBillNotice(companyId, account._id, missing.from).catch((e: unknown) =>
        log.warn('missing-bills claim not released', { error: String(e) }),
      );
      throw err;
    }
    run.notified++;
    run.notifications += items.length;
  }
}
