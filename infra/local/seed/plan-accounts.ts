import type { AccountMonth } from '../../../functions/accounts/consumption-repository.ts';
import type { StoredItem } from '../../../functions/core/data/item-repository.ts';
import { newId } from '../../../functions/core/lib/ids.ts';
import type { ExtractedRate } from '../../../shared/capture/model.ts';
import { type CclUtility, cclRate } from '../../../shared/domain/ccl.ts';
import { mpanCheckDigit } from '../../../shared/domain/mpan.ts';
import { defaultUnit } from '../../../shared/domain/units.ts';
import {
  drawCharacter,
  type MeterCharacter,
  type MeteredUtility,
  type MeterProfile,
  type MonthBill,
  type MonthSlot,
  monthBill,
  monthlyQuantity,
  WASTE_STREAM_SHARE,
} from './consumption-model.ts';
import { stamped } from './plan-items.ts';
import type { AssetPlan } from './portfolio-types.ts';
import type { Prng } from './prng.ts';

/** A supplier as the planner needs it: its stored id and how it numbers invoices. */
export interface SupplierRef {
  id: string;
  name: string;
  type: 'supplier' | 'distributor';
  utilityTypes: readonly string[];
  invoicePrefix?: string;
  regions?: readonly string[];
}

/**
 * A month as the seed writes it. `invoiceIds` names the invoices already counted in it, as confirming an
 * invoice records them, so that confirming a bill still awaiting review does not count it twice.
 */
export type SeededMonth = AccountMonth & { invoiceIds?: Set<string> };

export interface PlannedAccount {
  item: StoredItem;
  assetId: string;
  type: MeteredUtility;
  isSubMeter: boolean;
  months: SeededMonth[];
  invoices: StoredItem[];
}

/** What every account of a company is planned with; the maps fill up as accounts are planned. */
export interface AccountContext {
  rng: Prng;
  suppliers: readonly SupplierRef[];
  slots: readonly MonthSlot[];
  now: Date;
  companyId: string;
  createdBy: string;
  accountIds: Map<string, string>;
  invoiceNumbers: Map<string, number>;
  /** Account numbers and meter serials: their own stream, so drawing them changes nothing else. */
  meterRng: Prng;
  /** Whom the bills are addressed to: the company. */
  recipient: string;
}

/** What every bill of one supply prints about the supply. */
interface SupplyFacts {
  supplier: SupplierRef;
  utility: MeteredUtility;
  accountNumber: string;
  meterPointNumber?: string;
  meterSerialNumber?: string;
  siteAddress: string;
}

interface Meter {
  label: string;
  utility: MeteredUtility;
  share: number;
  wasteCategory?: string;
}

const DAY_MS = 86_400_000;

function mpan(rng: Prng, distributor: string): string {
  const first12 = distributor + rng.digits(10);
  return first12 + String(mpanCheckDigit(first12));
}

function mprn(rng: Prng): string {
  // About one supply in ten sits on an independent transporter's network (MPRNs 74 to 77).
  if (rng.chance(0.1)) return `7${rng.int(4, 7)}${rng.digits(8)}`;
  return `${rng.pick(['1', '2', '3', '4', '5', '6', '8', '9'])}${rng.digits(9)}`;
}

function meterPoint(rng: Prng, utility: MeteredUtility, distributor: string): string | undefined {
  if (utility === 'electricity') return mpan(rng, distributor);
  if (utility === 'gas') return mprn(rng);
  // A water meter's serial number: year of manufacture, maker's letter, six digits.
  if (utility === 'water') return `${rng.int(10, 24)}M${rng.digits(6)}`;
  return undefined;
}

function metersOf(a: AssetPlan): Meter[] {
  const meters: Meter[] = [{ label: 'Electricity', utility: 'electricity', share: 1 }];
  if (a.gas) meters.push({ label: 'Gas', utility: 'gas', share: 1 });
  if (a.water) meters.push({ label: 'Water', utility: 'water', share: 1 });
  const streams = a.waste ?? [];
  const total = streams.reduce((s, c) => s + (WASTE_STREAM_SHARE[c] ?? 0.2), 0);
  for (const c of streams) {
    meters.push({
      label: c,
      utility: 'waste',
      share: (WASTE_STREAM_SHARE[c] ?? 0.2) / total,
      wasteCategory: c,
    });
  }
  return meters;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const UNIT_LINE: Readonly<Record<MeteredUtility, string>> = {
  electricity: 'Electricity used',
  gas: 'Gas used',
  water: 'Water supplied',
  waste: 'Waste collected',
};

const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/**
 * A month's bill as capture stores a bill it read: the values flat under the capture model's keys (reads
 * are added once the meter's register is planned), its charge lines, and the fields capture lifts to
 * the top. The supplier's dates: issued a few days after the period, due two weeks later.
 */
function invoiceFor(
  ctx: AccountContext,
  accountId: string,
  supply: SupplyFacts,
  slot: MonthSlot,
  bill: MonthBill,
) {
  const { rng } = ctx;
  const { supplier } = supply;
  const received = Math.min(
    Date.parse(`${slot.end}T09:00:00Z`) + rng.int(5, 16) * DAY_MS + rng.int(0, 480) * 60_000,
    ctx.now.getTime(),
  );
  const prefix = supplier.invoicePrefix ?? 'INV';
  // Each supplier numbers its invoices in one sequence, shared with its other customers.
  const number = (ctx.invoiceNumbers.get(prefix) ?? rng.int(10_000_000, 60_000_000)) + rng.int(1, 400);
  ctx.invoiceNumbers.set(prefix, number);
  const invoiceNumber = `${prefix}${number}`;
  // Issued three days after the period, or on the day it came if that was sooner (a bill of last month).
  const issued = Math.min(Date.parse(`${slot.end}T00:00:00Z`) + 3 * DAY_MS, received);
  const invoiceDate = new Date(issued).toISOString().slice(0, 10);
  const energy = supply.utility === 'electricity' || supply.utility === 'gas';
  const values: Record<string, string | number | boolean> = {
    invoiceNumber,
    invoiceDate,
    dueDate: addDays(invoiceDate, 14),
    startDate: slot.start,
    endDate: slot.end,
    accountNumber: supply.accountNumber,
    ...(supply.meterPointNumber ? { meterPointNumber: supply.meterPointNumber } : {}),
    ...(supply.meterSerialNumber ? { meterSerialNumber: supply.meterSerialNumber } : {}),
    recipient: ctx.recipient,
    siteAddress: supply.siteAddress,
    isEstimate: false,
    consumption: bill.consumption,
    consumptionUnit: bill.unit,
    unitRate: bill.unitRate,
    standingCharge: bill.standingCharge,
    ...(energy ? { climateChangeLevy: bill.cclAmount } : {}),
    netTotal: bill.netAmount,
    vatRate: bill.vatRate,
    vatTotal: bill.vatAmount,
    grossTotal: bill.totalAmount,
    supplierName: supplier.name,
    currency: 'GBP',
  };
  const period = { startDate: slot.start, endDate: slot.end };
  const lineId = () => newId(received);
  const rates: ExtractedRate[] = [
    {
      _id: lineId(),
      description: UNIT_LINE[supply.utility],
      kind: 'unit',
      units: bill.consumption,
      unit: bill.unit,
      unitRate: bill.unitRate,
      amount: bill.energyCharge,
      ...period,
    },
    {
      _id: lineId(),
      description: 'Standing charge',
      kind: 'standing',
      units: bill.days,
      unit: 'day',
      unitRate: bill.standingChargePerDay,
      amount: bill.standingCharge,
      ...period,
    },
    ...(bill.cclAmount > 0
      ? [
          {
            _id: lineId(),
            description: 'Climate Change Levy',
            kind: 'ccl' as const,
            units: bill.consumption,
            unit: 'kWh',
            unitRate: cclRate(supply.utility as CclUtility, slot.start) ?? 0,
            amount: bill.cclAmount,
            ...period,
          },
        ]
      : []),
    ...(bill.vatAmount > 0
      ? [
          {
            _id: lineId(),
            description: `VAT at ${bill.vatRate}%`,
            kind: 'vat' as const,
            amount: bill.vatAmount,
          },
        ]
      : []),
  ];
  return stamped(
    'invoices',
    {
      accountId,
      fileName: `${slug(supplier.name)}-invoice-${invoiceNumber}.pdf`,
      status: 'completed',
      completed: true,
      invoiceNumber,
      invoiceStartDate: slot.start,
      invoiceEndDate: slot.end,
      isCreditNote: false,
      values,
    },
    {
      id: newId(received),
      companyId: ctx.companyId,
      createdBy: ctx.createdBy,
      createdAt: new Date(received).toISOString(),
      // What capture (or an import) records beside the values: the lines, and the values it lifts out.
      extra: {
        source: 'import',
        rates,
        supplierId: supplier.id,
        utilityType: supply.utility,
        invoiceDate,
        ...(supply.meterPointNumber ? { meterPointNumber: supply.meterPointNumber } : {}),
        grossTotal: bill.totalAmount,
      },
    },
  );
}

/** A meter's serial as its maker stamps it: electricity "E10K012345" style, gas "G4A" and eight digits. */
function meterSerial(rng: Prng, utility: MeteredUtility, meterPointNumber: string | undefined) {
  if (utility === 'electricity')
    return `${rng.pick(['E', 'K', 'L', 'S'])}${rng.int(10, 24)}${rng.pick(['D', 'K', 'U'])}${rng.digits(6)}`;
  if (utility === 'gas') return `G4${rng.pick(['A', 'E', 'K'])}${rng.digits(8)}`;
  // A water supply is known by its meter's serial.
  if (utility === 'water') return meterPointNumber;
  return undefined;
}

const siteAddressOf = (a: AssetPlan) => `${a.address.street}, ${a.address.town}, ${a.address.postCode}`;

interface SupplyResult {
  account: PlannedAccount;
  statusHistory?: StoredItem;
  quantities: (number | undefined)[];
  profile: MeterProfile;
  character: MeterCharacter;
}

/**
 * Who uses a demo supply: the landlord heats the common parts, water serves the whole building, and
 * electricity is left unset, so the demo's split by meter user shows every part.
 */
function meterUserOfSupply(utility: MeteredUtility): 'landlord' | 'shared' | undefined {
  if (utility === 'gas') return 'landlord';
  if (utility === 'water') return 'shared';
  return undefined;
}

function planSupply(ctx: AccountContext, asset: StoredItem, a: AssetPlan, m: Meter): SupplyResult {
  const { rng, slots } = ctx;
  const id = newId(ctx.now.getTime());
  const name = `${a.siteName} ${m.label}`;
  ctx.accountIds.set(name, id);
  const supplier = rng.pick(
    ctx.suppliers.filter(
      (s) =>
        s.type === 'supplier' &&
        s.utilityTypes.includes(m.utility) &&
        (!s.regions || s.regions.includes(a.address.region)),
    ),
  );
  const closedAgo = a.closed?.[m.label];
  const lastIndex = slots.length - 1;
  const lastDataIndex = lastIndex - (closedAgo ?? 0);
  const by = { companyId: ctx.companyId, createdBy: ctx.createdBy, createdAt: ctx.now.toISOString() };
  const meterPointNumber = meterPoint(rng, m.utility, a.distributor);
  const domestic =
    a.assetType === 'Residential block' && (m.utility === 'electricity' || m.utility === 'gas');
  const item = stamped(
    'accounts',
    {
      name,
      type: m.utility,
      meterPointNumber,
      assetId: asset._id,
      entityId: asset.entityId,
      supplierId: supplier.id,
      status: closedAgo === undefined ? 'active' : 'inactive',
      unit: defaultUnit(m.utility),
      wasteCategory: m.wasteCategory,
      ...(meterUserOfSupply(m.utility) ? { meterUser: meterUserOfSupply(m.utility) } : {}),
    },
    // Communal supply to flats is domestic: the bill checks then expect no levy and the reduced VAT rate.
    { id, ...by, ...(domestic ? { extra: { domestic: true } } : {}) },
  );
  const supply: SupplyFacts = {
    supplier,
    utility: m.utility,
    accountNumber: `${ctx.meterRng.int(1, 9)}${ctx.meterRng.digits(9)}`,
    ...(meterPointNumber ? { meterPointNumber } : {}),
    siteAddress: siteAddressOf(a),
  };
  const serial = meterSerial(ctx.meterRng, m.utility, meterPointNumber);
  if (serial) supply.meterSerialNumber = serial;
  const profile: MeterProfile = {
    utility: m.utility,
    assetType: a.assetType,
    floorArea: a.floorArea,
    share: m.share,
    ...(m.wasteCategory ? { wasteCategory: m.wasteCategory } : {}),
  };
  const character = drawCharacter(rng);
  // A bill not received yet: the latest month is an estimate.
  const latestEstimated = closedAgo === undefined && rng.chance(0.06);
  const months: SeededMonth[] = [];
  const invoices: StoredItem[] = [];
  const quantities: (number | undefined)[] = [];
  slots.forEach((slot, i) => {
    if (i > lastDataIndex) return;
    const quantity = monthlyQuantity(profile, character, slot, i / 12, rng);
    quantities[i] = quantity;
    const bill = monthBill(profile, character, slot, quantity);
    const estimate = latestEstimated && i === lastIndex;
    const invoice = estimate ? undefined : invoiceFor(ctx, id, supply, slot, bill);
    if (invoice) invoices.push(invoice);
    months.push({
      month: slot.month,
      consumption: quantity,
      unit: bill.unit,
      cost: bill.netAmount,
      currency: 'GBP',
      emissionsKg: bill.emissionsKg,
      factorVersion: bill.factorVersion,
      source: estimate ? 'estimate' : 'invoice',
      // The bill's parts, as confirming it adds them; an estimated month has no bill to split.
      ...(estimate ? {} : billPartsOf(bill)),
      ...(invoice ? { invoiceId: invoice._id } : {}),
    });
  });
  const closedOn = slots[lastDataIndex + 1]?.start;
  const statusHistory =
    closedAgo === undefined || !closedOn
      ? undefined
      : stamped(
          'accounts',
          { status: 'inactive', date: closedOn, comment: 'Supply ended and final bill received' },
          { id: newId(ctx.now.getTime()), ...by, extra: { parentId: id } },
          'status-history',
        );
  return {
    account: { item, assetId: asset._id, type: m.utility, isSubMeter: false, months, invoices },
    ...(statusHistory ? { statusHistory } : {}),
    quantities,
    profile,
    character,
  };
}

function billPartsOf(bill: MonthBill): Pick<SeededMonth, 'vat' | 'ccl' | 'standingCharge'> {
  return {
    ...(bill.vatAmount !== 0 ? { vat: bill.vatAmount } : {}),
    ...(bill.cclAmount !== 0 ? { ccl: bill.cclAmount } : {}),
    ...(bill.standingCharge !== 0 ? { standingCharge: bill.standingCharge } : {}),
  };
}

/** A private meter below a supply: read by the landlord, not billed, its energy recharged at the supply's rate. */
function planSubMeter(
  ctx: AccountContext,
  asset: StoredItem,
  a: AssetPlan,
  label: string,
  parent: SupplyResult,
) {
  const { rng } = ctx;
  const id = newId(ctx.now.getTime());
  const name = `${a.siteName} Sub-meter – ${label}`;
  ctx.accountIds.set(name, id);
  const share = rng.between(0.12, 0.3);
  const item = stamped(
    'accounts',
    {
      name,
      type: 'electricity',
      assetId: asset._id,
      entityId: asset.entityId,
      parentAccountId: parent.account.item._id,
      status: 'active',
      unit: 'kWh',
      tags: ['sub-meter'],
      ...(/tenant/i.test(label) ? { meterUser: 'tenant' } : {}),
    },
    { id, companyId: ctx.companyId, createdBy: ctx.createdBy, createdAt: ctx.now.toISOString() },
  );
  const profile = { ...parent.profile, share };
  const months: SeededMonth[] = [];
  ctx.slots.forEach((slot, i) => {
    const parentQuantity = parent.quantities[i];
    if (parentQuantity === undefined) return;
    const quantity = Math.round(parentQuantity * share * (1 + rng.between(-0.03, 0.03)));
    const bill = monthBill(profile, parent.character, slot, quantity);
    months.push({
      month: slot.month,
      consumption: quantity,
      unit: 'kWh',
      cost: Math.round((bill.energyCharge + bill.cclAmount) * 100) / 100,
      currency: 'GBP',
      emissionsKg: bill.emissionsKg,
      factorVersion: bill.factorVersion,
      source: 'import',
    });
  });
  const account: PlannedAccount = {
    item,
    assetId: asset._id,
    type: 'electricity',
    isSubMeter: true,
    months,
    invoices: [],
  };
  return account;
}

/** The accounts of one asset with their months and invoices, and the status history of closed ones. */
export function planAssetAccounts(ctx: AccountContext, asset: StoredItem, a: AssetPlan) {
  const accounts: PlannedAccount[] = [];
  const statusHistory: { accountId: string; item: StoredItem }[] = [];
  let electricity: SupplyResult | undefined;
  for (const meter of metersOf(a)) {
    const supply = planSupply(ctx, asset, a, meter);
    accounts.push(supply.account);
    if (supply.statusHistory)
      statusHistory.push({ accountId: supply.account.item._id, item: supply.statusHistory });
    if (meter.utility === 'electricity') electricity = supply;
  }
  for (const label of a.subMeters ?? []) {
    if (electricity) accounts.push(planSubMeter(ctx, asset, a, label, electricity));
  }
  return { accounts, statusHistory };
}
