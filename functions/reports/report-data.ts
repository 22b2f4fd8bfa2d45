import type { Caller } from '../../shared/access/caller.ts';
import { MAX_LIST_LIMIT } from '../../shared/constants.ts';
import {
  type BillCheck,
  billValidationReport,
  type CheckedBill,
  type CheckedBillStatus,
  type CreditNote,
} from '../../shared/reports/bill-validation-report.ts';
import { customReport } from '../../shared/reports/custom-report.ts';
import type {
  MonthFigures,
  PeriodFigures,
  SiteFigures,
  UtilityFigure,
} from '../../shared/reports/report-builders.ts';
import {
  coverageReport,
  energyKwh,
  secrReport,
  summaryReport,
} from '../../shared/reports/report-builders.ts';
import type { ReportDocument } from '../../shared/reports/report-document.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import { findResource } from '../../shared/system/resources.ts';
import { allAccounts } from '../accounts/index.ts';
import {
  type AnalyticsAnswer,
  analyticsQuerySchema,
  consumptionAnalytics,
  meterCoverage,
} from '../analytics/index.ts';
import { getCompany, type StoredCompany } from '../company/index.ts';
import { getObjectBytes } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { objectOf, objectsOf } from '../core/lib/stored-values.ts';
import { listReadable } from '../core/resources/resource-service.ts';
import type { StoredReport } from './report-repository.ts';

type Totals = AnalyticsAnswer['totals'];
type Scopes = AnalyticsAnswer['scopes']['totals'];

function utilitiesOf(totals: Totals): Partial<Record<UtilityType, UtilityFigure>> {
  const out: Partial<Record<UtilityType, UtilityFigure>> = {};
  for (const [u, f] of Object.entries(totals.utilities) as [
    UtilityType,
    NonNullable<Totals['utilities'][UtilityType]>,
  ][]) {
    out[u] = {
      consumption: f.consumption,
      unit: f.unit,
      emissionsKg: f.emissionsKg,
      ...(f.cost === undefined ? {} : { cost: f.cost }),
    };
  }
  return out;
}

function periodOf(
  window: { startDate: string; endDate: string },
  totals: Totals,
  scopes: Scopes | undefined,
): PeriodFigures {
  return {
    start: window.startDate,
    end: window.endDate,
    utilities: utilitiesOf(totals),
    ...(totals.cost === undefined ? {} : { cost: totals.cost }),
    emissionsKg: totals.emissionsKg,
    scope1Kg: scopes?.scope1 ?? 0,
    scope2LocationKg: scopes?.scope2Location ?? 0,
    scope2MarketKg: scopes?.scope2Market ?? 0,
    scope3Kg: scopes?.scope3 ?? 0,
  };
}

/** The analytics query of a report's scope and window, as the analytics pages would ask it. */
function queryOf(
  report: StoredReport,
  window: { start: string; end: string },
  extra: Record<string, string>,
) {
  return analyticsQuerySchema.parse({
    startDate: window.start,
    endDate: window.end,
    granularity: 'monthly',
    emissions: 'location',
    ...(report.scopeType === 'asset' && report.scopeId ? { assetId: report.scopeId } : {}),
    ...(report.scopeType === 'portfolio' && report.scopeId ? { assetGroupId: report.scopeId } : {}),
    ...extra,
  });
}

async function logoOf(company: StoredCompany | undefined): Promise<Uint8Array | undefined> {
  const key = company?.settings?.logoKey;
  if (!key || company?.settings?.showLogo === false) return undefined;
  try {
    return await getObjectBytes(bucketName('documents'), key);
  } catch {
    // A logo that is gone leaves the cover without one.
    return undefined;
  }
}

/**
 * The report's document, every figure from the analytics as they answer the requester for its scope and
 * period (and the year before). `progress` is told how far the reading has got.
 */
export async function reportDocument(
  report: StoredReport,
  caller: Caller,
  progress: (percent: number) => Promise<void>,
): Promise<ReportDocument> {
  const window = { start: report.startDate, end: report.endDate };
  const main = await consumptionAnalytics(
    caller,
    queryOf(report, window, { comparePeriod: 'year', dateBreakdown: 'true', includeCosts: 'true' }),
  );
  await progress(35);
  const compared = main.comparison;
  const previousWindow = compared?.window ?? main.window;
  const current = periodOf(main.window, main.totals, main.scopes.totals);
  const previous = compared
    ? periodOf(compared.window, compared.totals, compared.scopes)
    : periodOf(previousWindow, { utilities: {}, emissionsKg: 0 }, undefined);
  const company = await getCompany(caller.companyId);
  const logoPng = await logoOf(company);
  const basics = {
    companyName: typeof company?.name === 'string' ? company.name : 'Company',
    scopeName: report.scopeType === 'company' ? 'the whole company' : (main.scope.name ?? 'the portfolio'),
    // The data's own date: the same figures give the same file, whenever it is built.
    dataDate: new Date(`${report.endDate}T00:00:00Z`),
    factorSets: [
      ...new Set([...main.factorVersions, ...Object.values(main.scopes.totals.factorSets ?? {}).flat()]),
    ].sort(),
    ...(logoPng ? { logoPng } : {}),
  };
  if (report.type === 'data-coverage') {
    const meters = await meterCoverage(
      caller,
      {
        ...(report.scopeType === 'asset' && report.scopeId ? { assetId: report.scopeId } : {}),
        ...(report.scopeType === 'portfolio' && report.scopeId ? { assetGroupId: report.scopeId } : {}),
      },
      { from: report.startDate.slice(0, 7), to: report.endDate.slice(0, 7) },
    );
    await progress(60);
    return coverageReport({
      ...basics,
      period: { start: report.startDate, end: report.endDate },
      meters: meters.map((m) => ({
        site: m.siteName ?? '',
        meter: [m.name, m.meterPointNumber].filter(Boolean).join(' · ') || m.accountId,
        utilityType: m.utilityType,
        months: m.months,
        missing: m.missing,
        estimated: m.estimated,
      })),
    });
  }
  if (report.type === 'bill-validation') {
    const [bills, creditNotes] = await Promise.all([
      checkedBills(report, caller),
      scopeCreditNotes(report, caller),
    ]);
    await progress(60);
    return billValidationReport({
      ...basics,
      period: { start: report.startDate, end: report.endDate },
      bills,
      creditNotes,
    });
  }
  if (report.type === 'secr') {
    return secrReport({
      ...basics,
      current,
      previous,
      ...(report.intensityMetric && report.intensityValue
        ? {
            intensity: {
              metric: report.intensityMetric,
              value: report.intensityValue,
              ...(report.intensityPreviousValue ? { previousValue: report.intensityPreviousValue } : {}),
            },
          }
        : {}),
    });
  }
  const months: MonthFigures[] = (main.buckets ?? []).map((b) => ({
    month: b.key,
    label: b.label,
    utilities: utilitiesOf(b),
    emissionsKg: b.emissionsKg,
    ...(b.cost === undefined ? {} : { cost: b.cost }),
  }));
  let sites: SiteFigures[] | undefined;
  const custom = report.type === 'custom' ? report.template : undefined;
  if (report.type === 'custom' && !custom) throw new Error(`Custom report ${report._id} has no template`);
  if (report.type === 'portfolio-summary' || custom?.sections.some((s) => s.grouping === 'site')) {
    const bySite = { comparePeriod: 'none', dateBreakdown: 'false', includeCosts: 'true' };
    const now = await consumptionAnalytics(caller, queryOf(report, window, bySite), true);
    await progress(50);
    const before = await consumptionAnalytics(
      caller,
      queryOf(report, { start: previousWindow.startDate, end: previousWindow.endDate }, bySite),
      true,
    );
    const earlier = new Map((before.assets ?? []).map((a) => [a._id, a.totals]));
    sites = (now.assets ?? []).map((a) => {
      const prior = earlier.get(a._id);
      return {
        id: a._id,
        name: a.siteName ?? a._id,
        current: {
          energyKwh: energyKwh(utilitiesOf(a.totals)),
          emissionsKg: a.totals.emissionsKg,
          ...(a.totals.cost === undefined ? {} : { cost: a.totals.cost }),
        },
        previous: {
          energyKwh: prior ? energyKwh(utilitiesOf(prior)) : 0,
          emissionsKg: prior?.emissionsKg ?? 0,
          ...(prior?.cost === undefined ? {} : { cost: prior.cost }),
        },
      };
    });
  }
  await progress(60);
  if (custom)
    return customReport({
      ...basics,
      name: custom.name,
      ...(custom.description ? { description: custom.description } : {}),
      sections: custom.sections,
      current,
      previous,
      months,
      ...(sites ? { sites } : {}),
      costsIncluded: main.costsIncluded,
    });
  return summaryReport(
    { ...basics, current, previous, months, costsIncluded: main.costsIncluded, ...(sites ? { sites } : {}) },
    report.type === 'site' ? 'site' : 'portfolio',
  );
}

const CHECKED: readonly CheckedBillStatus[] = ['passed', 'warning', 'failed', 'error'];
const CHECK_STATUSES: readonly BillCheck['status'][] = ['passed', 'warning', 'failed', 'skipped'];
const textOf = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

function checksOf(results: unknown): BillCheck[] {
  const out: BillCheck[] = [];
  for (const r of objectsOf(results)) {
    const key = textOf(r.key);
    const status = CHECK_STATUSES.find((s) => s === r.status);
    if (!key || !status) continue;
    out.push({
      key,
      name: textOf(r.name) ?? key,
      status,
      ...(typeof r.difference === 'number' ? { difference: r.difference } : {}),
      ...(textOf(r.unit) ? { unit: String(r.unit) } : {}),
    });
  }
  return out;
}

/** A stored validation as the report counts it; undefined for one not judged yet. */
function checkedBillOf(item: StoredItem): CheckedBill | undefined {
  const status = CHECKED.find((s) => s === item.status);
  if (!status) return undefined;
  const bill = objectOf(item.bill);
  const site = textOf(bill.siteName);
  const meter = [textOf(bill.meterName), textOf(bill.meterPointNumber)].filter(Boolean).join(' · ');
  const invoiceNumber = textOf(item.invoiceNumber);
  const billStart = textOf(bill.startDate);
  const billEnd = textOf(bill.endDate);
  const accountId = textOf(item.accountId);
  return {
    id: item._id,
    ...(accountId ? { accountId } : {}),
    ...(site ? { site } : {}),
    ...(meter ? { meter } : {}),
    ...(invoiceNumber ? { invoiceNumber } : {}),
    ...(billStart ? { billStart } : {}),
    ...(billEnd ? { billEnd } : {}),
    ...(typeof bill.grossTotal === 'number' ? { total: bill.grossTotal } : {}),
    status,
    checks: checksOf(item.results),
    completed: item.completed === true,
  };
}

/** Each meter's site, when the report covers only some sites; undefined for the whole company. */
async function scopeSites(report: StoredReport, caller: Caller): Promise<Map<string, string> | undefined> {
  if (report.scopeType === 'company') return undefined;
  const siteOfAccount = new Map<string, string>();
  for (const a of await allAccounts(caller.companyId))
    if (typeof a.assetId === 'string') siteOfAccount.set(a._id, a.assetId);
  return siteOfAccount;
}

/**
 * The credit notes on the scope's meters that the requester may read, whatever their date: a supplier often
 * credits an overcharge months after the bill was queried, so the report's period does not bound them.
 */
async function scopeCreditNotes(report: StoredReport, caller: Caller): Promise<CreditNote[]> {
  const resource = findResource('invoices');
  if (!resource) throw new Error('The invoices resource is not declared');
  const [{ data }, siteOfAccount] = await Promise.all([
    listReadable(resource, caller, { filters: {}, skip: 0, limit: MAX_LIST_LIMIT }),
    scopeSites(report, caller),
  ]);
  const sites = new Set(report.assetIds);
  const out: CreditNote[] = [];
  for (const item of data) {
    const accountId = textOf(item.accountId);
    if (item.deleted === true || item.isCreditNote !== true || !accountId) continue;
    if (typeof item.grossTotal !== 'number' || item.grossTotal === 0) continue;
    if (siteOfAccount && !sites.has(siteOfAccount.get(accountId) ?? '')) continue;
    const billStart = textOf(item.invoiceStartDate);
    const billEnd = textOf(item.invoiceEndDate);
    out.push({
      id: item._id,
      accountId,
      ...(billStart ? { billStart } : {}),
      ...(billEnd ? { billEnd } : {}),
      amount: Math.abs(item.grossTotal),
    });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * The bills of the report's scope that the checks judged in its period, as the requester may read them
 * (validations follow their bill's meter): a site's or portfolio's are those of meters on its sites.
 */
async function checkedBills(report: StoredReport, caller: Caller): Promise<CheckedBill[]> {
  const resource = findResource('invoice-validation');
  if (!resource) throw new Error('The invoice-validation resource is not declared');
  const { data } = await listReadable(resource, caller, { filters: {}, skip: 0, limit: MAX_LIST_LIMIT });
  const siteOfAccount = await scopeSites(report, caller);
  const sites = new Set(report.assetIds);
  const out: CheckedBill[] = [];
  for (const item of data) {
    if (item.deleted === true) continue;
    const day = textOf(item.validatedAt)?.slice(0, 10);
    if (!day || day < report.startDate || day > report.endDate) continue;
    if (siteOfAccount) {
      const site = siteOfAccount.get(textOf(item.accountId) ?? '');
      if (!site || !sites.has(site)) continue;
    }
    const bill = checkedBillOf(item);
    if (bill) out.push(bill);
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}
