import { calculateEmissions, isFactorUtility } from '../../shared/domain/emission-factors.ts';
import { gasVolumeToKwh } from '../../shared/domain/gas-volume.ts';
import { coveredDaysByMonth, splitPeriodByMonth } from '../../shared/domain/period-split.ts';
import { defaultUnit } from '../../shared/domain/units.ts';
import { convertQuantity, isSubMeter } from '../../shared/schemas/account-rules.ts';
import {
  applyInvoiceContribution,
  findAccount,
  type InvoiceContribution,
  regoBackedPeriods,
  type SupplyPeriod,
  storedContributions,
} from '../accounts/index.ts';
import { announceFiguresChange } from '../analytics/index.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { objectOf, objectsOf, utilityTypeOf } from '../core/lib/stored-values.ts';
import { changeInvoice, changeValidation } from './invoice-repository.ts';

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const round = (v: number, places: number) => Math.round(v * 10 ** places) / 10 ** places;
const utilityOfAccount = (account: StoredItem) => str(account.type) ?? 'electricity';

/** The amount of the bill's charge lines of a kind, when it has any. */
function linesTotal(invoice: StoredItem, kind: string): number | undefined {
  const lines = objectsOf(invoice.rates);
  const amounts = lines.filter((l) => l.kind === kind).map((l) => num(l.amount));
  if (amounts.length === 0 || amounts.some((a) => a === undefined)) return undefined;
  return amounts.reduce<number>((sum, a) => sum + (a ?? 0), 0);
}

/**
 * What an invoice adds to each month of its account: consumption in the account's unit, net cost with
 * its VAT, levy and standing charges, and emissions by the factors of each month's year. Electricity
 * supplied in the REGO-backed periods given is counted by day, for market-based scope 2.
 */
export function contributionsOf(
  invoice: StoredItem,
  account: StoredItem,
  regoPeriods: readonly SupplyPeriod[] = [],
): InvoiceContribution[] {
  const values = objectOf(invoice.values);
  const start = str(values.startDate);
  const end = str(values.endDate);
  const errors: Record<string, string> = {};
  if (!start) errors['values.startDate'] = 'The period start is needed to confirm the invoice';
  if (!end) errors['values.endDate'] = 'The period end is needed to confirm the invoice';
  if (!start || !end) throw formError(errors);
  const shares = splitPeriodByMonth(start, end);
  if (shares.length === 0) throw formError({ 'values.endDate': 'The period must end on or after its start' });

  const utilityType = utilityTypeOf(account.type) ?? 'electricity';
  const unit = str(account.unit) ?? defaultUnit(utilityType);
  const rawConsumption = num(values.consumption) ?? 0;
  const fromUnit = str(values.consumptionUnit) ?? unit;
  const calorificValue = num(values.calorificValue);
  const consumption =
    convertQuantity(rawConsumption, fromUnit, unit) ??
    (utilityType === 'gas' && unit === 'kWh'
      ? gasVolumeToKwh(rawConsumption, fromUnit, calorificValue)?.kwh
      : undefined);
  if (consumption === undefined) {
    throw formError({
      'values.consumptionUnit': `${fromUnit} cannot be converted to the account's unit ${unit}`,
    });
  }
  const net = num(values.netTotal) ?? (num(values.grossTotal) ?? 0) - (num(values.vatTotal) ?? 0);
  const vat = num(values.vatTotal) ?? linesTotal(invoice, 'vat') ?? 0;
  const ccl = num(values.climateChangeLevy) ?? linesTotal(invoice, 'ccl') ?? 0;
  const standing = num(values.standingCharge) ?? linesTotal(invoice, 'standing') ?? 0;
  const kwh = utilityType === 'electricity' ? convertQuantity(consumption, unit, 'kWh') : undefined;
  const covered = kwh === undefined ? new Map<string, number>() : coveredDaysByMonth(start, end, regoPeriods);
  const parts = (share: { month: string; days: number; fraction: number }) => {
    const rego =
      kwh === undefined ? 0 : (kwh * share.fraction * (covered.get(share.month) ?? 0)) / share.days;
    const out: Partial<Record<'regoKwh' | 'vat' | 'ccl' | 'standingCharge', number>> = {};
    if (rego !== 0) out.regoKwh = round(rego, 3);
    if (vat !== 0) out.vat = round(vat * share.fraction, 2);
    if (ccl !== 0) out.ccl = round(ccl * share.fraction, 2);
    if (standing !== 0) out.standingCharge = round(standing * share.fraction, 2);
    return out;
  };

  return shares.map((share) => {
    const quantity = consumption * share.fraction;
    const emissions = isFactorUtility(utilityType)
      ? calculateEmissions({
          utility: utilityType,
          year: Number(share.month.slice(0, 4)),
          quantity,
          unit,
          calorificValue,
        })
      : undefined;
    return {
      month: share.month,
      utilityType,
      unit,
      consumption: round(quantity, 3),
      cost: round(net * share.fraction, 2),
      emissionsKg: round(emissions?.kgCO2e ?? 0, 3),
      factorVersion: emissions?.factorVersion ?? 'none',
      ...parts(share),
    };
  });
}

/**
 * Confirms an invoice: its figures go into the account's months and the asset's and company's roll-ups
 * that analytics read, and it becomes completed. The shares are stored on the invoice before they are
 * applied, and each write is conditional on the invoice not being counted yet, so a confirmation that
 * failed half-way can simply be repeated.
 */
export async function confirmInvoice(
  companyId: string,
  invoice: StoredItem,
  userSub: string,
): Promise<StoredItem> {
  if (invoice.completed === true && invoice.status === 'completed') return invoice;
  const accountId = str(invoice.accountId);
  if (!accountId) throw formError({ accountId: 'Choose the account of this invoice before confirming it' });
  const account = await findAccount(companyId, accountId);
  if (!account) throw formError({ accountId: 'The account of this invoice no longer exists' });

  const rego =
    utilityOfAccount(account) === 'electricity' ? await regoBackedPeriods(companyId, accountId) : [];
  const contributions = contributionsOf(invoice, account, rego);
  const assetId = isSubMeter(account) ? undefined : str(account.assetId);
  const now = new Date().toISOString();
  // Each write changes the invoice as stored then, so what others wrote in between (a stamp, a tag) stays.
  const pending = await changeInvoice(companyId, invoice._id, (current) => ({
    ...current,
    contributions,
    contributionAssetId: assetId ?? null,
    updatedAt: now,
  }));
  if (!pending) throw notFound();
  for (const c of contributions) {
    await applyInvoiceContribution(companyId, accountId, assetId, invoice._id, c, 1);
  }
  const completed = await changeInvoice(companyId, invoice._id, (current) => ({
    ...current,
    contributions,
    contributionAssetId: assetId ?? null,
    status: 'completed',
    completed: true,
    confirmedAt: now,
    confirmedBy: userSub,
  }));
  if (!completed) throw notFound();
  await changeValidation(companyId, invoice._id, (validation) => ({
    ...validation,
    completed: true,
    updatedAt: now,
  }));
  await announceFiguresChange(companyId, {
    accountId,
    ...(assetId ? { assetId } : {}),
    months: contributions.map((c) => c.month),
  });
  return completed.after;
}

/** Takes a confirmed invoice's figures back out (it is deleted, or turned into a credit note). */
export async function withdrawInvoice(companyId: string, invoice: StoredItem): Promise<void> {
  const accountId = str(invoice.accountId);
  const contributions = storedContributions(invoice);
  if (!accountId || contributions.length === 0) return;
  const assetId = str(invoice.contributionAssetId);
  for (const c of contributions) {
    await applyInvoiceContribution(companyId, accountId, assetId, invoice._id, c, -1);
  }
  await announceFiguresChange(companyId, {
    accountId,
    ...(assetId ? { assetId } : {}),
    months: contributions.map((c) => c.month),
  });
}
