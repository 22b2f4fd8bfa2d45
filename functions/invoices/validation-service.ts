import type { ExtractedReading, ExtractedValues } from '../../shared/capture/model.ts';
import { normaliseMeterPointNumber } from '../../shared/schemas/account-rules.ts';
import type { UtilityType } from '../../shared/schemas/common.ts';
import type { BillSummary } from '../../shared/schemas/responses/invoices.ts';
import { validateInvoice } from '../../shared/validation/checks.ts';
import {
  type AccountFacts,
  type ContractRate,
  factsFromExtract,
  type InvoiceFacts,
  type PriorInvoice,
  type ValidationStatus,
} from '../../shared/validation/facts.ts';
import { applyRuleChanges } from '../../shared/validation/rules.ts';
import {
  accountsWithMeterPoint,
  contractsOf,
  findAccount,
  listAccountMonths,
  type StoredAccount,
} from '../accounts/index.ts';
import { findStoredAsset } from '../assets/index.ts';
import { getValidationRuleChanges } from '../core/access/membership-repository.ts';
import { publishToCompany } from '../core/adapters/live.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import type { Logger } from '../core/lib/logger.ts';
import { utilityTypeOf } from '../core/lib/stored-values.ts';
import { displayNameOf, validationItemFor } from './invoice-records.ts';
import {
  changeInvoice,
  changeValidation,
  createValidation,
  getInvoice,
  getValidation,
  invoicesRef,
  invoicesWithNumber,
  putInvoiceNumber,
  queryIndexed,
  type StoredInvoice,
} from './invoice-repository.ts';

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const VALIDATION_STATUSES: readonly ValidationStatus[] = ['pending', 'passed', 'warning', 'failed', 'error'];
/** Statuses of an invoice that capture has not finished with: nothing to validate yet. */
const NOT_CAPTURED = new Set(['uploading', 'queued', 'pending', 'processing']);

/** Stored values are flat; the checks take them in the shape extraction gives. */
function asExtracted(values: StoredInvoice['values']): ExtractedValues {
  const flat = values ?? {};
  const out: Record<string, { value: string | number | boolean | null; text: string; confidence: number }> =
    {};
  for (const [k, v] of Object.entries(flat)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null)
      out[k] = { value: v, text: String(v ?? ''), confidence: 100 };
  }
  return out as ExtractedValues;
}

function readingsOf(invoice: StoredInvoice): ExtractedReading[] {
  return (invoice.results?.extractReadings ?? [])
    .filter((r) => r.meterIndex === 0)
    .flatMap((r) => r.readings);
}

export function factsOfInvoice(invoice: StoredInvoice, utilityType?: UtilityType): InvoiceFacts {
  return factsFromExtract(
    asExtracted(invoice.values),
    Array.isArray(invoice.rates) ? invoice.rates : [],
    readingsOf(invoice),
    {
      supplierId: str(invoice.supplierId),
      utilityType: utilityTypeOf(invoice.utilityType) ?? utilityType,
      accountId: str(invoice.accountId),
      ...(invoice.isCreditNote === true ? { isCreditNote: true } : {}),
    },
  );
}

const prior = (invoice: StoredInvoice, utilityType?: UtilityType): PriorInvoice => ({
  id: invoice._id,
  status: VALIDATION_STATUSES.find((s) => s === invoice.validationStatus) ?? 'passed',
  facts: factsOfInvoice(invoice, utilityType),
});

/** Meter point numbers as accounts store them: an MPAN's 13-digit core, an MPRN's digits. */
function meterPointCandidates(raw: string): string[] {
  const digits = raw.replace(/\D/g, '');
  const out = new Set<string>([raw.trim(), digits]);
  if (digits.length === 21) out.add(digits.slice(-13));
  for (const t of ['electricity', 'gas']) out.add(normaliseMeterPointNumber(t, raw));
  return [...out].filter((c) => c.length > 0);
}

/** The account a bill belongs to: the one chosen by a person, else the one with its meter point number. */
async function matchAccount(companyId: string, invoice: StoredInvoice): Promise<StoredAccount | undefined> {
  const chosen = str(invoice.accountId);
  if (chosen) return findAccount(companyId, chosen);
  const values = invoice.values ?? {};
  const mpn = str(values.meterPointNumber) ?? str(invoice.meterPointNumber);
  // A bill of several meters has no meter point of its own: it belongs to the account of its first
  // meter that the company has.
  for (const candidate of mpn ? [mpn] : meterPointsOfMeters(invoice)) {
    const data = await accountsWithMeterPoint(companyId, meterPointCandidates(candidate), 5);
    // A sub-meter shares its parent's number on some bills; the bill belongs to the main meter.
    const account = data.find((a) => !a.parentAccountId) ?? data[0];
    if (account) return account;
  }
  return undefined;
}

/** The meter point numbers of the meters of a multi-meter bill, in the order the bill lists them. */
function meterPointsOfMeters(invoice: StoredInvoice): string[] {
  return [...(invoice.results?.multiMeter?.meters ?? [])]
    .sort((a, b) => a.index - b.index)
    .flatMap((m) => {
      const meterPoint = str(m.meterPointNumber);
      return meterPoint ? [meterPoint] : [];
    });
}

function accountFacts(account: StoredItem): AccountFacts {
  const flag = (k: string) => (account[k] === true ? true : undefined);
  return {
    id: account._id,
    utilityType: utilityTypeOf(account.type) ?? 'electricity',
    meterPointNumber: str(account.meterPointNumber),
    meterSerialNumber: str(account.meterSerialNumber),
    domestic: flag('domestic'),
    charity: flag('charity'),
    cclExempt: flag('cclExempt'),
    climateChangeAgreement: flag('climateChangeAgreement'),
    microbusiness: flag('microbusiness'),
  };
}

async function contractRatesOf(companyId: string, accountId: string): Promise<ContractRate[]> {
  const contracts = await contractsOf(companyId, accountId);
  return contracts
    .filter((c) => c.deleted !== true && c.status !== 'inactive')
    .flatMap((c) =>
      (c.rateTypes ?? []).flatMap((r) =>
        r.kind === 'unit' || r.kind === 'standing'
          ? [
              {
                name: r.name,
                kind: r.kind,
                rate: r.rate,
                unit: r.unit,
                validFrom: str(c.startDate),
                validTo: str(c.endDate),
              },
            ]
          : [],
      ),
    );
}

function monthsBack(today: string, n: number): string {
  const d = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 7);
}

/**
 * What a queue row shows of its bill, so that bills can be told apart without opening each: where it is
 * (site and meter), what it costs and what period it covers.
 */
function billSummaryOf(invoice: StoredInvoice, facts: InvoiceFacts): BillSummary {
  const account = invoice.account ?? {};
  const summary: BillSummary = {
    siteName: str(account.siteName),
    meterName: str(account.name),
    meterPointNumber: str(account.meterPointNumber) ?? facts.meterPointNumber,
    startDate: facts.startDate,
    endDate: facts.endDate,
    grossTotal: facts.grossTotal ?? facts.netTotal,
  };
  for (const k of Object.keys(summary) as (keyof BillSummary)[])
    if (summary[k] === undefined) delete summary[k];
  return summary;
}

/**
 * Validates one stored invoice: finds its account, gathers what the checks compare it with, runs the
 * company's checks and stores the result on the validation item and the invoice. Running it again gives
 * the same result for the same data, so a redelivered message is harmless.
 */
export async function validateStoredInvoice(
  companyId: string,
  invoiceId: string,
  log: Logger,
): Promise<StoredItem | undefined> {
  const invoice = await getInvoice(companyId, invoiceId);
  if (!invoice || invoice.deleted === true) return undefined;
  if (NOT_CAPTURED.has(String(invoice.status))) {
    log.info('invoice not captured yet; validation skipped', {
      companyId,
      invoiceId,
      status: invoice.status,
    });
    return undefined;
  }
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const account = await matchAccount(companyId, invoice);
  const utilityType = account ? (utilityTypeOf(account.type) ?? 'electricity') : undefined;
  const facts = factsOfInvoice(account ? { ...invoice, accountId: account._id } : invoice, utilityType);

  let previousInvoices: PriorInvoice[] = [];
  let consumptionHistory: { month: string; consumption: number; unit: string }[] = [];
  let contractRates: ContractRate[] = [];
  if (account) {
    previousInvoices = (await queryIndexed(invoicesRef(companyId), 'accountId', account._id))
      .filter((i) => i._id !== invoiceId && i.deleted !== true)
      .map((i) => prior(i, utilityType));
    consumptionHistory = (
      await listAccountMonths(companyId, account._id, monthsBack(today, 36), today.slice(0, 7))
    ).map((m) => ({ month: m.month, consumption: m.consumption, unit: m.unit }));
    contractRates = await contractRatesOf(companyId, account._id);
  }
  const sameNumberInvoices: PriorInvoice[] = [];
  if (facts.invoiceNumber) {
    for (const id of await invoicesWithNumber(companyId, facts.invoiceNumber)) {
      if (id === invoiceId) continue;
      const other = await getInvoice(companyId, id);
      if (other && other.deleted !== true) sameNumberInvoices.push(prior(other));
    }
  }
  const rules = applyRuleChanges(await getValidationRuleChanges(companyId));
  const outcome = validateInvoice(
    facts,
    {
      invoiceId,
      account: account ? accountFacts(account) : undefined,
      previousInvoices,
      sameNumberInvoices,
      consumptionHistory,
      contractRates,
      billingCycleDays: account?.billingCycleDays,
      today,
    },
    rules,
  );

  const stamp = now.toISOString();
  const asset =
    account && str(account.assetId) ? await findStoredAsset(companyId, account.assetId) : undefined;
  // Written over the invoice and validation as stored at the moment of writing, never over the copies read
  // above: a tag, comment or stamp a person adds while the checks run stays, and a record deleted meanwhile
  // (by a person, or an import's rollback) stays deleted.
  const judged = await changeInvoice(companyId, invoiceId, (current) => {
    if (current.deleted === true) return undefined;
    const next: StoredItem = {
      ...current,
      ...(account
        ? {
            accountId: account._id,
            account: {
              _id: account._id,
              name: str(account.name),
              meterPointNumber: str(account.meterPointNumber),
              type: str(account.type),
              assetId: str(account.assetId),
              siteName: str(asset?.siteName),
            },
            supplierId: str(current.supplierId) ?? str(account.supplierId),
          }
        : {}),
      validationStatus: outcome.status,
      validatedAt: stamp,
      updatedAt: stamp,
    };
    for (const [k, v] of Object.entries(next)) if (v === undefined) delete next[k];
    return next;
  });
  if (!judged?.written) {
    log.info('invoice deleted while it was validated; the result is dropped', { companyId, invoiceId });
    return undefined;
  }
  const updatedInvoice = judged.after;
  if (facts.invoiceNumber) await putInvoiceNumber(companyId, facts.invoiceNumber, invoiceId);

  const withOutcome = (base: StoredItem): StoredItem => {
    const validation: StoredItem = {
      ...base,
      status: outcome.status,
      results: outcome.results,
      summary: outcome.summary,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      ...(str(updatedInvoice.supplierId) ? { supplierId: str(updatedInvoice.supplierId) } : {}),
      displayName: displayNameOf(updatedInvoice),
      invoiceNumber: str(updatedInvoice.invoiceNumber),
      bill: billSummaryOf(updatedInvoice, facts),
      forced: false,
      validatedAt: stamp,
      updatedAt: stamp,
    };
    if (!outcome.reason) delete validation.reason;
    // A validation is judged by its invoice's account (02 §6), so it names the invoice's, or none.
    const invoiceAccount = str(updatedInvoice.accountId);
    if (invoiceAccount) validation.accountId = invoiceAccount;
    else delete validation.accountId;
    return validation;
  };
  let validation: StoredItem | undefined;
  let created = false;
  if (!(await getValidation(companyId, invoiceId))) {
    const fresh = withOutcome(
      validationItemFor(updatedInvoice, { _id: String(invoice.captureId ?? invoiceId) }, 'pending', stamp),
    );
    created = await createValidation(companyId, fresh);
    if (created) validation = fresh;
  }
  if (!created) {
    const changed = await changeValidation(companyId, invoiceId, (current) =>
      current.deleted === true ? undefined : withOutcome(current),
    );
    validation = changed?.written ? changed.after : undefined;
  }
  if (!validation) {
    log.info('validation deleted while the invoice was validated; the result is dropped', {
      companyId,
      invoiceId,
    });
    return undefined;
  }
  // A first validation may land just after a delete that found none to delete with the invoice.
  if (created && (await getInvoice(companyId, invoiceId))?.deleted === true) {
    await changeValidation(companyId, invoiceId, (current) =>
      current.deleted === true ? undefined : { ...current, deleted: true, deletedAt: stamp },
    );
    log.info('invoice deleted while it was validated; the result is dropped', { companyId, invoiceId });
    return undefined;
  }
  await publishToCompany(
    companyId,
    {
      type: 'invoice.validated',
      keys: ['/invoice-validation', '/invoices', `/invoices/${invoiceId}`],
      data: { invoiceId, status: outcome.status },
    },
    log,
  ).catch((err) => log.warn('live update failed', { error: String(err) }));
  log.info('invoice validated', { companyId, invoiceId, status: outcome.status, account: account?._id });
  return validation;
}
