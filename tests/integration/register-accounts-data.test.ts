import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccountMonth,
  listAssetRollups,
  listCompanyRollups,
  putAccountMonths,
  putRollups,
} from '../../functions/accounts/consumption-repository.ts';
import { type AccountsWorld, MPANS, seed, startAccountsWorld } from './register-accounts-support.ts';

let w: AccountsWorld;
let owner: string;
let mainId: string;
let subId: string;
let gasId: string;

const month = (
  m: string,
  consumption: number,
  cost: number,
  extra: Partial<AccountMonth> = {},
): AccountMonth => ({
  month: m,
  consumption,
  unit: 'kWh',
  cost,
  currency: 'GBP',
  emissionsKg: consumption * 0.2,
  factorVersion: 'desnz-2025',
  source: 'invoice',
  ...extra,
});

beforeAll(async () => {
  w = await startAccountsWorld();
  owner = w.token('owner');
  const create = async (body: Record<string, unknown>) =>
    String((await w.api({ method: 'POST', path: '/accounts/from-wizard', token: owner, body })).body._id);
  mainId = await create({ assetId: w.assetA, type: 'electricity', meterPointNumber: MPANS[0], unit: 'MWh' });
  subId = await create({ assetId: w.assetA, type: 'electricity', parentAccountId: mainId });
  gasId = await create({ assetId: w.assetA, type: 'gas', meterPointNumber: '1234567890' });
  await putAccountMonths(w.companyId, mainId, [
    month('2024-12', 9000, 2100),
    month('2025-01', 12000, 2800),
    month('2025-02', 10000, 2400, { source: 'estimate' }),
  ]);
  await putAccountMonths(w.companyId, subId, [month('2025-01', 3000, 700, { source: 'import' })]);
  await putAccountMonths(w.companyId, gasId, [month('2025-01', 20000, 1500)]);
});

afterAll(async () => w?.stop());

describe('consumption of an account', () => {
  it('gives monthly figures in the account’s unit, with cost, emissions, estimates flagged and totals', async () => {
    const res = await w.api({
      method: 'GET',
      path: `/accounts/${mainId}/consumption?startDate=2025-01-01&endDate=2025-02-28`,
      token: owner,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      unit: 'MWh',
      currency: 'GBP',
      granularity: 'monthly',
      totals: { consumption: 22, cost: 5200, emissionsKg: 4400 },
    });
    expect(res.body.data).toEqual([
      {
        period: '2025-01',
        startDate: '2025-01-01',
        endDate: '2025-01-31',
        consumption: 12,
        cost: 2800,
        emissionsKg: 2400,
        estimated: false,
      },
      {
        period: '2025-02',
        startDate: '2025-02-01',
        endDate: '2025-02-28',
        consumption: 10,
        cost: 2400,
        emissionsKg: 2000,
        estimated: true,
      },
    ]);
  });

  it('sums by calendar year, and gives the older {date, value} shape of the same figures', async () => {
    const q = 'startDate=2024-12-01&endDate=2025-12-31&granularity=yearly';
    const yearly = await w.api({ method: 'GET', path: `/accounts/${mainId}/consumption?${q}`, token: owner });
    expect(
      (yearly.body.data as { period: string; consumption: number }[]).map((p) => [p.period, p.consumption]),
    ).toEqual([
      ['2024', 9],
      ['2025', 22],
    ]);
    const old = await w.api({
      method: 'GET',
      path: `/accounts/${mainId}/consumption-old?${q}`,
      token: owner,
    });
    expect(old.body).toEqual([
      { date: '2024-01-01', value: 9 },
      { date: '2025-01-01', value: 22 },
    ]);
  });

  it('refuses a window that ends before it starts and an unknown granularity, field by field', async () => {
    const backwards = await w.api({
      method: 'GET',
      path: `/accounts/${mainId}/consumption?startDate=2025-03-01&endDate=2025-01-01`,
      token: owner,
    });
    expect(backwards.body.formMessages).toEqual({ endDate: 'Must be on or after the start date' });
    const weekly = await w.api({
      method: 'GET',
      path: `/accounts/${mainId}/consumption?granularity=weekly`,
      token: owner,
    });
    expect(weekly.body.formMessages).toEqual({ granularity: 'Must be monthly or yearly' });
  });
});

describe('lists of meters and readings', () => {
  it('refuse a page or an order they do not know with 400, naming the value', async () => {
    const cases: [string, string][] = [
      ['/accounts?limit=all', 'limit: Must be a whole number of 0 or more'],
      ['/accounts/search?skip=-1', 'skip: Must be a whole number of 0 or more'],
      ['/accounts?$sort=name', '$sort: Must be createdAt (oldest first) or -createdAt (newest first)'],
      ['/readings?hasOwnProperty=1', 'Unknown filter hasOwnProperty'],
    ];
    for (const [path, what] of cases) {
      const res = await w.api({ method: 'GET', path, token: owner });
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toBe(`Invalid query parameter (${what})`);
    }
    const own = await w.api({ method: 'GET', path: '/accounts?$populate=assetId&limit=2', token: owner });
    expect(own.status).toBe(200);
    expect(own.body.limit).toBe(2);
  });
});

describe('invalidating the cache', () => {
  it('rebuilds the asset roll-ups from its accounts without sub-meters, and moves the company roll-ups by the difference', async () => {
    // Stale figures: the asset has a wrong January and a month no account has; the company has another asset too.
    await putRollups(w.companyId, [
      {
        assetId: w.assetA,
        month: '2025-01',
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 1,
        cost: 1,
        emissionsKg: 1,
      },
      {
        assetId: w.assetA,
        month: '2023-06',
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 50,
        cost: 5,
        emissionsKg: 10,
      },
      {
        month: '2025-01',
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 501,
        cost: 101,
        emissionsKg: 51,
      },
      {
        month: '2023-06',
        utilityType: 'electricity',
        unit: 'kWh',
        consumption: 50,
        cost: 5,
        emissionsKg: 10,
      },
    ]);
    const res = await w.api({ method: 'PUT', path: `/accounts/${subId}/invalidate-cache`, token: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ assetId: w.assetA, months: 4 });
    const asset = await listAssetRollups(w.companyId, w.assetA, '2023-01', '2025-12');
    const byKey = Object.fromEntries(
      asset.map((r) => [`${r.month} ${r.utilityType}`, [r.consumption, r.cost]]),
    );
    expect(byKey).toEqual({
      '2023-06 electricity': [0, 0],
      '2024-12 electricity': [9000, 2100],
      '2025-01 electricity': [12000, 2800],
      '2025-01 gas': [20000, 1500],
      '2025-02 electricity': [10000, 2400],
    });
    const company = await listCompanyRollups(w.companyId, '2025-01', '2025-01', 'electricity');
    expect(company[0]).toMatchObject({ consumption: 12500, cost: 2900 });
    const again = await w.api({ method: 'PUT', path: `/accounts/${mainId}/invalidate-cache`, token: owner });
    expect(again.body.changed).toBe(0);
  });
});

describe('status history', () => {
  it('keeps the account’s status on its latest entry and refuses a status that is not active or inactive', async () => {
    const base = `/accounts/${gasId}/status-history`;
    const closed = await w.api({
      method: 'POST',
      path: base,
      token: owner,
      body: { status: 'inactive', date: '2025-03-01', comment: 'Supply ended' },
    });
    expect(closed.status).toBe(201);
    expect(closed.body.accountStatus).toBe('inactive');
    expect((await w.api({ method: 'GET', path: `/accounts/${gasId}`, token: owner })).body.status).toBe(
      'inactive',
    );
    const reopened = await w.api({
      method: 'POST',
      path: base,
      token: owner,
      body: { status: 'active', date: '2025-06-01' },
    });
    expect(reopened.body.accountStatus).toBe('active');
    const edited = await w.api({
      method: 'PATCH',
      path: `${base}/${reopened.body._id}`,
      token: owner,
      body: { comment: 'New tenant' },
    });
    expect(edited.body).toMatchObject({ comment: 'New tenant', accountStatus: 'active' });
    const removed = await w.api({ method: 'DELETE', path: `${base}/${reopened.body._id}`, token: owner });
    expect(removed.body.accountStatus).toBe('inactive');
    const list = await w.api({ method: 'GET', path: base, token: owner });
    expect(list.body.total).toBe(1);
    const bad = await w.api({
      method: 'POST',
      path: base,
      token: owner,
      body: { status: 'closed', date: '2025-07-01' },
    });
    expect(bad.body.formMessages).toEqual({ status: 'Must be active or inactive' });
  });
});

describe('invoices of accounts', () => {
  beforeAll(async () => {
    const invoice = (accountId: string, start: string, end: string, status: string, extra = {}) =>
      seed('invoices', w.companyId, {
        accountId,
        invoiceStartDate: start,
        invoiceEndDate: end,
        status,
        fileName: `${start}.pdf`,
        ...extra,
      });
    await invoice(mainId, '2025-01-01', '2025-01-31', 'completed');
    await invoice(mainId, '2025-02-01', '2025-02-28', 'completed');
    await invoice(mainId, '2025-03-01', '2025-03-31', 'processing');
    await invoice(gasId, '2024-06-01', '2024-06-30', 'completed');
    await invoice(gasId, '2025-02-01', '2025-02-28', 'completed', { isCreditNote: true });
  });

  it('selects the invoices of an account still being processed', async () => {
    const res = await w.api({
      method: 'GET',
      path: `/accounts/${mainId}?$select=processingInvoices`,
      token: owner,
    });
    expect(Object.keys(res.body).sort()).toEqual(['_id', 'processingInvoices']);
    expect(res.body.processingInvoices).toEqual([
      expect.objectContaining({ status: 'processing', fileName: '2025-03-01.pdf' }),
    ]);
  });

  it('lists accounts billed in a window for staff, and refuses everyone else', async () => {
    const q = `start=2025-01-15&end=2025-02-15&companyId=${w.companyId}`;
    const res = await w.api({
      method: 'GET',
      path: `/accounts/active-billing?${q}`,
      token: w.token('admin'),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 1, invoiceCount: 2 });
    expect(res.body.data).toEqual([
      expect.objectContaining({
        _id: mainId,
        invoiceCount: 2,
        firstDate: '2025-01-01',
        lastDate: '2025-02-28',
        asset: { _id: w.assetA, siteName: 'Temple Quay Point' },
      }),
    ]);
    const owners = await w.api({ method: 'GET', path: `/accounts/active-billing?${q}`, token: owner });
    expect(owners.status).toBe(403);
    const missing = await w.api({
      method: 'GET',
      path: '/accounts/active-billing?start=2025-01-01',
      token: w.token('admin'),
    });
    expect(missing.body.formMessages).toEqual({ end: 'This field is required' });
  });
});
