import type { StoredItem } from '../../../functions/core/data/item-repository.ts';
import { newId } from '../../../functions/core/lib/ids.ts';
import type { ExtractedRate } from '../../../shared/capture/model.ts';
import { cclRate } from '../../../shared/domain/ccl.ts';
import { contractSchema } from '../../../shared/schemas/contract.ts';
import type { PlannedAccount, SupplierRef } from './plan-accounts.ts';
import { stamped } from './plan-items.ts';
import type { Prng } from './prng.ts';

/**
 * Supply contracts and meter readings for a company's planned accounts, drawn from the same plan so they
 * agree with its invoices: a contract's rates are the unit rate and standing charge its bills charge
 * (with the levy beside them where the supply pays it), and a meter's readings climb by exactly the use
 * recorded for the months between them.
 */

export interface PlannedContract {
  accountId: string;
  item: StoredItem;
}

export interface ContractPlanContext {
  rng: Prng;
  companyId: string;
  createdBy: string;
  now: Date;
  suppliers: readonly SupplierRef[];
  /** Sites whose supply is domestic (residential blocks): no levy. */
  domesticAssets: ReadonlySet<string>;
}

/** Share of electricity and gas supplies that have a contract on record; the rest show the empty state. */
const CONTRACT_SHARE = 0.85;
/** How many month-end readings each meter gets, up to its last month of data. */
const READINGS_PER_METER = 4;
const DAY_MS = 86_400_000;

/** The rate of a bill's charge line of one kind. */
function lineRate(invoice: StoredItem, kind: ExtractedRate['kind']): number {
  const lines = Array.isArray(invoice.rates) ? (invoice.rates as ExtractedRate[]) : [];
  const rate = lines.find((r) => r.kind === kind)?.unitRate;
  if (rate === undefined) throw new Error(`Demo invoice ${invoice._id} has no ${kind} line`);
  return rate;
}

/** A meter's register at the end of each month it has data for, and where it stood before the first. */
export interface MeterRegister {
  start: number;
  /** Closing register by month (YYYY-MM) */
  closing: Map<string, number>;
}

/** The contract year (1 April to 31 March) a bill's period starts in. */
function contractYearOf(start: string): number {
  const year = Number(start.slice(0, 4));
  return Number(start.slice(5, 7)) >= 4 ? year : year - 1;
}

function planContract(ctx: ContractPlanContext, account: PlannedAccount): PlannedContract | undefined {
  const latest = account.invoices.at(-1);
  if (!latest) return undefined;
  const utility = account.type === 'gas' ? 'gas' : 'electricity';
  const year = contractYearOf(String(latest.invoiceStartDate));
  const startDate = `${year}-04-01`;
  const supplier = ctx.suppliers.find((s) => s.id === account.item.supplierId);
  const levy = ctx.domesticAssets.has(account.assetId) ? 0 : (cclRate(utility, startDate) ?? 0);
  const rateTypes = [
    { name: 'Unit rate', kind: 'unit', rate: lineRate(latest, 'unit'), unit: 'kWh' },
    { name: 'Standing charge', kind: 'standing', rate: lineRate(latest, 'standing'), unit: 'day' },
    ...(levy > 0 ? [{ name: 'Climate Change Levy', kind: 'other', rate: levy, unit: 'kWh' }] : []),
  ];
  const data = contractSchema.parse({
    name: `${supplier?.name ?? 'Supply'} fixed ${year}–${String((year + 1) % 100).padStart(2, '0')}`,
    reference: `${supplier?.invoicePrefix ?? 'CT'}-${ctx.rng.digits(7)}`,
    supplierId: account.item.supplierId,
    startDate,
    endDate: `${year + 1}-03-31`,
    // A closed supply's last contract no longer runs.
    status: account.item.status === 'inactive' ? 'inactive' : 'active',
    isRenewable: utility === 'electricity' && ctx.rng.chance(0.3),
    rateTypes,
  });
  // The demo's renewable tariffs come with REGOs retired for them (drawn without the stream, so the rest
  // of the plan is unchanged).
  data.regoBacked = data.isRenewable;
  const at = Math.min(Date.parse(`${year}-03-10T10:00:00Z`) + ctx.rng.int(0, 20) * DAY_MS, ctx.now.getTime());
  return {
    accountId: account.item._id,
    item: {
      ...data,
      _id: newId(at),
      companyId: ctx.companyId,
      accountId: account.item._id,
      createdAt: new Date(at).toISOString(),
      updatedAt: new Date(at).toISOString(),
      createdBy: ctx.createdBy,
    },
  };
}

/** Month-end register readings: a starting register, then the recorded use month by month. */
function planReadings(
  ctx: ContractPlanContext,
  account: PlannedAccount,
): { readings: StoredItem[]; register: MeterRegister } {
  const months = account.months;
  const unit = String(account.item.unit ?? 'kWh');
  const decimals = account.type === 'water' ? 1 : 0;
  const f = 10 ** decimals;
  let register = ctx.rng.int(1_000, 400_000);
  const meter: MeterRegister = { start: register, closing: new Map() };
  const readings: StoredItem[] = [];
  months.forEach((m, i) => {
    register += m.consumption;
    meter.closing.set(m.month, Math.round(register * f) / f);
    if (i < months.length - READINGS_PER_METER) return;
    const [y, mm] = m.month.split('-').map(Number) as [number, number];
    const date = new Date(Date.UTC(y, mm, 0)).toISOString().slice(0, 10);
    const at = Math.min(
      Date.parse(`${date}T09:00:00Z`) + DAY_MS + ctx.rng.int(0, 480) * 60_000,
      ctx.now.getTime(),
    );
    readings.push(
      stamped(
        'readings',
        {
          accountId: account.item._id,
          date,
          value: Math.round(register * f) / f,
          unit,
          isEstimate: m.source === 'estimate',
          ...(m.source === 'estimate' ? { comment: 'Estimated: no read this month' } : {}),
        },
        {
          id: newId(at),
          companyId: ctx.companyId,
          createdBy: ctx.createdBy,
          createdAt: new Date(at).toISOString(),
        },
      ),
    );
  });
  return { readings, register: meter };
}

/**
 * Contracts for most electricity and gas supplies (not sub-meters, which are not billed), and a few
 * readings for every meter with a register (electricity, gas and water; waste has none).
 */
export function planContractsAndReadings(ctx: ContractPlanContext, accounts: readonly PlannedAccount[]) {
  const contracts: PlannedContract[] = [];
  const readings: StoredItem[] = [];
  const registers = new Map<string, MeterRegister>();
  for (const account of accounts) {
    if ((account.type === 'electricity' || account.type === 'gas') && !account.isSubMeter) {
      const wanted = ctx.rng.chance(CONTRACT_SHARE);
      const contract = wanted ? planContract(ctx, account) : undefined;
      if (contract) contracts.push(contract);
    }
    if (account.type !== 'waste') {
      const planned = planReadings(ctx, account);
      readings.push(...planned.readings);
      registers.set(account.item._id, planned.register);
    }
  }
  return { contracts, readings, registers };
}
