import type { Rollup } from '../../../functions/accounts/consumption-repository.ts';
import {
  meterUserOf,
  ROLLUP_PARTS,
  rollupSourceOf,
  splitOf,
} from '../../../functions/accounts/rollup-parts.ts';
import type { StoredItem } from '../../../functions/core/data/item-repository.ts';
import { newId } from '../../../functions/core/lib/ids.ts';
import { domesticEpcBand, nonDomesticEpcBand } from '../../../shared/domain/epc.ts';
import { coveredDaysByMonth } from '../../../shared/domain/period-split.ts';
import type { MeterUser } from '../../../shared/schemas/account.ts';
import { convertQuantity } from '../../../shared/schemas/account-rules.ts';
import { round } from '../../../shared/validation/figures.ts';
import type { MonthSlot } from './consumption-model.ts';
import {
  type AccountContext,
  type PlannedAccount,
  planAssetAccounts,
  type SeededMonth,
  type SupplierRef,
} from './plan-accounts.ts';
import { type PlannedContract, planContractsAndReadings } from './plan-contracts.ts';
import { finishInvoices } from './plan-invoices.ts';
import { stamped } from './plan-items.ts';
import type { AddressPlan, AssetPlan, CompanyPlan } from './portfolio-types.ts';
import { createPrng } from './prng.ts';

export type { PlannedAccount, SupplierRef } from './plan-accounts.ts';

export interface PlannedCompany {
  companyId: string;
  company: StoredItem;
  entities: StoredItem[];
  assets: { item: StoredItem; plan: AssetPlan; imageId: string; index: number }[];
  assetGroups: StoredItem[];
  accounts: PlannedAccount[];
  /** Status history of closed accounts, by account id */
  statusHistory: { accountId: string; item: StoredItem }[];
  rollups: SeededRollup[];
  /** Supply contracts, each under its account */
  contracts: PlannedContract[];
  readings: StoredItem[];
  /** The latest bills: captured from their PDFs and awaiting review, oldest first */
  awaitingReview: StoredItem[];
  ids: { entities: Map<string, string>; assets: Map<string, string>; accounts: Map<string, string> };
}

const addressOf = (a: AddressPlan) => ({
  streetAddress: a.street,
  locality: a.town,
  region: a.region,
  postCode: a.postCode,
  country: 'United Kingdom',
});

/**
 * Every item of one company, ready to write: the same plan and clock give the same data, apart from ids.
 * Nothing is written here.
 */
export function planCompany(
  plan: CompanyPlan,
  suppliers: readonly SupplierRef[],
  slots: readonly MonthSlot[],
  createdBy: string,
  now: Date,
  /** The id the company was given when it was made; a fresh one for a plan on its own */
  companyId: string = newId(now.getTime()),
): PlannedCompany {
  const rng = createPrng(plan.seed);
  // Stamped with the seed's clock, so a plan depends only on its inputs.
  const by = { companyId, createdBy, createdAt: now.toISOString() };
  const company = stamped(
    'companies',
    { name: plan.name, settings: plan.settings },
    { id: companyId, createdBy, createdAt: now.toISOString() },
  );

  const entityIds = new Map<string, string>();
  const entities = plan.entities.map((e) => {
    const id = newId(now.getTime());
    entityIds.set(e.legalName, id);
    const parentEntityId = e.parent ? entityIds.get(e.parent) : null;
    if (parentEntityId === undefined) throw new Error(`${e.legalName}: parent ${e.parent} must come first`);
    return stamped(
      'entities',
      {
        legalName: e.legalName,
        companyNumber: e.companyNumber,
        parentEntityId,
        address: addressOf(e.address),
      },
      { id, ...by },
    );
  });

  const assetIds = new Map<string, string>();
  const assets = plan.assets.map((a, index) => {
    const id = newId(now.getTime());
    assetIds.set(a.siteName, id);
    const entityId = entityIds.get(a.entity);
    if (!entityId) throw new Error(`${a.siteName}: no entity ${a.entity}`);
    const epcRating =
      a.assetType === 'Residential block' ? domesticEpcBand(a.epcScore) : nonDomesticEpcBand(a.epcScore);
    const item = stamped(
      'assets',
      {
        siteName: a.siteName,
        entityId,
        assetType: a.assetType,
        address: addressOf(a.address),
        floorArea: a.floorArea,
        floorAreaUnit: 'm2',
        status: a.status ?? 'active',
        epcRating,
        geocoordinates: { lat: a.lat, lng: a.lng },
      },
      { id, ...by },
    );
    return { item, plan: a, imageId: newId(now.getTime()), index };
  });

  const assetGroups = plan.assetGroups.map((g) =>
    stamped(
      'asset-groups',
      {
        name: g.name,
        description: g.description,
        assetIds: g.assets.map((name) => {
          const id = assetIds.get(name);
          if (!id) throw new Error(`Asset group ${g.name}: no asset ${name}`);
          return id;
        }),
      },
      { id: newId(now.getTime()), ...by },
    ),
  );

  const ctx: AccountContext = {
    rng,
    suppliers,
    slots,
    now,
    companyId,
    createdBy,
    accountIds: new Map(),
    invoiceNumbers: new Map(),
    meterRng: createPrng(`${plan.seed}/meters`),
    recipient: plan.name,
  };
  const accounts: PlannedAccount[] = [];
  const statusHistory: PlannedCompany['statusHistory'] = [];
  for (const asset of assets) {
    const planned = planAssetAccounts(ctx, asset.item, asset.plan);
    accounts.push(...planned.accounts);
    statusHistory.push(...planned.statusHistory);
  }

  // Their own random stream, so adding them changes nothing else the plan draws.
  const { contracts, readings, registers } = planContractsAndReadings(
    {
      rng: createPrng(`${plan.seed}/contracts`),
      companyId,
      createdBy,
      now,
      suppliers,
      domesticAssets: new Set(
        assets.filter((a) => a.plan.assetType === 'Residential block').map((a) => a.item._id),
      ),
    },
    accounts,
  );
  const awaitingReview = finishInvoices(
    {
      companyId,
      slots,
      suppliers,
      registers,
      contracts,
      ...(plan.overchargedBills ? { overcharge: plan.overchargedBills } : {}),
    },
    accounts,
  );

  addRegoSupply(accounts, contracts);

  return {
    companyId,
    company,
    entities,
    assets,
    assetGroups,
    accounts,
    statusHistory,
    rollups: rollupsOf(accounts),
    contracts,
    readings,
    awaitingReview,
    ids: { entities: entityIds, assets: assetIds, accounts: ctx.accountIds },
  };
}

/**
 * Electricity supplied under REGO-backed renewable contracts, month by month, as confirming the bills
 * counts it: each month's kWh by the share of its days a live, active such contract covers.
 */
export function addRegoSupply(accounts: readonly PlannedAccount[], contracts: readonly PlannedContract[]) {
  const periods = new Map<string, { startDate: string; endDate: string }[]>();
  for (const c of contracts) {
    if (c.item.isRenewable !== true || c.item.regoBacked !== true || c.item.status === 'inactive') continue;
    const list = periods.get(c.accountId) ?? [];
    list.push({ startDate: String(c.item.startDate), endDate: String(c.item.endDate) });
    periods.set(c.accountId, list);
  }
  for (const account of accounts) {
    const cover = periods.get(account.item._id);
    if (!cover || account.type !== 'electricity') continue;
    for (const m of account.months) {
      if (m.source !== 'invoice') continue;
      const [y, mo] = m.month.split('-').map(Number) as [number, number];
      const last = `${m.month}-${String(new Date(Date.UTC(y, mo, 0)).getUTCDate()).padStart(2, '0')}`;
      const days = coveredDaysByMonth(`${m.month}-01`, last, cover).get(m.month) ?? 0;
      const kwh = convertQuantity(m.consumption, m.unit, 'kWh');
      if (days > 0 && kwh !== undefined) m.regoKwh = round((kwh * days) / Number(last.slice(8)), 3);
    }
  }
}

/** A roll-up as the seed writes it, naming the bills awaiting review it already counts. */
export type SeededRollup = Rollup & { assetId?: string; invoiceIds?: Set<string> };

/** Monthly sums per asset and per company; sub-meters are left out because their parent meter counts them. */
export function rollupsOf(accounts: readonly PlannedAccount[]): SeededRollup[] {
  const sums = new Map<string, SeededRollup>();
  const add = (key: string, base: SeededRollup, m: SeededMonth, user: MeterUser | undefined) => {
    const row = sums.get(key) ?? { ...base, consumption: 0, cost: 0, emissionsKg: 0 };
    row.consumption += m.consumption;
    row.cost += m.cost;
    row.emissionsKg += m.emissionsKg;
    for (const part of ROLLUP_PARTS) if (m[part] !== undefined) row[part] = (row[part] ?? 0) + (m[part] ?? 0);
    // Split by source and meter user as the write paths keep them.
    splitOf(m, rollupSourceOf(m.source), user, row);
    if (m.invoiceIds) row.invoiceIds = new Set([...(row.invoiceIds ?? []), ...m.invoiceIds]);
    sums.set(key, row);
  };
  for (const account of accounts) {
    if (account.isSubMeter) continue;
    const user = meterUserOf(account.item);
    for (const m of account.months) {
      const base = {
        month: m.month,
        utilityType: account.type,
        unit: m.unit,
        consumption: 0,
        cost: 0,
        emissionsKg: 0,
      };
      add(`${account.assetId}|${m.month}|${account.type}`, { ...base, assetId: account.assetId }, m, user);
      add(`company|${m.month}|${account.type}`, base, m, user);
    }
  }
  return [...sums.values()].map((r) => ({
    ...r,
    consumption: round(r.consumption, 3),
    cost: round(r.cost, 2),
    emissionsKg: round(r.emissionsKg, 3),
    ...Object.fromEntries(
      ROLLUP_PARTS.flatMap((part) => (r[part] === undefined ? [] : [[part, round(r[part] ?? 0, 3)]])),
    ),
  }));
}
