import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountsWorld, BAD_MPAN, MPANS, startAccountsWorld } from './register-accounts-support.ts';

let w: AccountsWorld;
let owner: string;
let mainId: string;

type Account = Record<string, unknown> & { _id: string };
const wizard = (body: Record<string, unknown>, token = owner) =>
  w.api({ method: 'POST', path: '/accounts/from-wizard', token, body });

beforeAll(async () => {
  w = await startAccountsWorld();
  owner = w.token('owner');
  const main = await wizard({
    assetId: w.assetA,
    type: 'electricity',
    meterPointNumber: '13 1234 5678 907',
    supplierId: w.supplierId,
    tags: ['landlord supply'],
  });
  expect(main.status).toBe(201);
  mainId = String(main.body._id);
});

afterAll(async () => w?.stop());

describe('the account wizard', () => {
  it('creates an account with its MPAN as bare digits, the utility default unit and a name from the asset', async () => {
    const res = await w.api({ method: 'GET', path: `/accounts/${mainId}`, token: owner });
    expect(res.body).toMatchObject({
      name: 'Temple Quay Point Electricity',
      meterPointNumber: MPANS[0],
      unit: 'kWh',
      status: 'active',
      isSubMeter: false,
      asset: { _id: w.assetA, siteName: 'Temple Quay Point' },
      parentAccount: null,
    });
    const water = await wizard({ assetId: w.assetA, type: 'water', meterPointNumber: '19M123456' });
    expect(water.status).toBe(201);
    expect(water.body.unit).toBe('m³');
  });

  it('refuses a bad MPAN, a bad MPRN, a missing number and a unit of another utility, field by field', async () => {
    const mpan = await wizard({ assetId: w.assetA, type: 'electricity', meterPointNumber: BAD_MPAN });
    expect(mpan.status).toBe(400);
    expect(mpan.body.formMessages).toEqual({ meterPointNumber: 'Must be a valid 13-digit MPAN' });
    const mprn = await wizard({ assetId: w.assetA, type: 'gas', meterPointNumber: '12345' });
    expect(mprn.body.formMessages).toEqual({ meterPointNumber: 'Must be a valid MPRN (6 to 11 digits)' });
    const missing = await wizard({ assetId: w.assetA, type: 'gas', unit: 'm³' });
    expect(missing.body.formMessages).toEqual({
      meterPointNumber: 'A meter point number is required for this utility',
      unit: 'Must be one of kWh, MWh',
    });
    const gas = await wizard({ assetId: w.assetA, type: 'gas', meterPointNumber: '7412345678' });
    expect(gas.status).toBe(201);
    expect(gas.body.unit).toBe('kWh');
  });

  it('refuses a meter point number another account already has', async () => {
    const res = await wizard({ assetId: w.assetB, type: 'electricity', meterPointNumber: MPANS[0] });
    expect(res.body.formMessages).toEqual({
      meterPointNumber: 'An account with this meter point number already exists',
    });
  });

  it('makes a sub-meter below a parent of the same asset and flags it, and refuses a parent in another asset', async () => {
    const sub = await wizard({
      assetId: w.assetA,
      type: 'electricity',
      parentAccountId: mainId,
      name: 'Floor 3',
    });
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ isSubMeter: true, parentAccountId: mainId });
    expect(sub.body.meterPointNumber).toBeUndefined();
    const wrongAsset = await wizard({ assetId: w.assetB, type: 'electricity', parentAccountId: mainId });
    expect(wrongAsset.status).toBe(400);
    expect(wrongAsset.body.formMessages).toEqual({
      parentAccountId: 'The parent account must be in the same asset',
    });
    const wrongType = await wizard({
      assetId: w.assetA,
      type: 'water',
      parentAccountId: mainId,
      meterPointNumber: 'W1',
    });
    expect(wrongType.body.formMessages).toEqual({
      parentAccountId: 'The parent account must be of the same utility',
    });
    const list = await w.api({
      method: 'GET',
      path: `/accounts?assetId=${w.assetA}&type=electricity`,
      token: owner,
    });
    const rows = list.body.data as Account[];
    expect(rows.map((a) => [a.name, a.isSubMeter, (a.asset as { siteName: string }).siteName])).toEqual([
      ['Temple Quay Point Electricity', false, 'Temple Quay Point'],
      ['Floor 3', true, 'Temple Quay Point'],
    ]);
  });

  it('says which asset is unknown, including another company’s', async () => {
    const res = await wizard({ assetId: w.otherAsset, type: 'electricity', meterPointNumber: MPANS[1] });
    expect(res.body.formMessages).toEqual({ assetId: 'Asset not found' });
  });
});

describe('generic create and update of accounts', () => {
  it('applies the meter point rules on POST /accounts and on PATCH, against the stored utility', async () => {
    const bad = await w.api({
      method: 'POST',
      path: '/accounts',
      token: owner,
      body: { assetId: w.assetB, type: 'electricity', meterPointNumber: BAD_MPAN },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toEqual({ meterPointNumber: 'Must be a valid 13-digit MPAN' });
    const good = await w.api({
      method: 'POST',
      path: '/accounts',
      token: owner,
      body: {
        assetId: w.assetB,
        type: 'electricity',
        meterPointNumber: MPANS[1],
        name: 'Harbour Yard Supply',
      },
    });
    expect(good.status).toBe(201);
    const id = String(good.body._id);
    const patchNumber = await w.api({
      method: 'PATCH',
      path: `/accounts/${id}`,
      token: owner,
      body: { meterPointNumber: '2099999999990' },
    });
    expect(patchNumber.body.formMessages).toEqual({ meterPointNumber: 'Must be a valid 13-digit MPAN' });
    // A 13-digit MPAN is no MPRN: changing only the utility re-checks the number the account has.
    const patchType = await w.api({
      method: 'PATCH',
      path: `/accounts/${id}`,
      token: owner,
      body: { type: 'gas' },
    });
    expect(patchType.body.formMessages).toEqual({
      meterPointNumber: 'Must be a valid MPRN (6 to 11 digits)',
    });
    const parent = await w.api({
      method: 'PATCH',
      path: `/accounts/${id}`,
      token: owner,
      body: { parentAccountId: mainId },
    });
    expect(parent.body.formMessages).toEqual({
      parentAccountId: 'The parent account must be in the same asset',
    });
    const renamed = await w.api({
      method: 'PATCH',
      path: `/accounts/${id}`,
      token: owner,
      body: { name: 'Main' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('Main');
  });

  it('refuses to move an account with sub-meters to another asset', async () => {
    const res = await w.api({
      method: 'PATCH',
      path: `/accounts/${mainId}`,
      token: owner,
      body: { assetId: w.assetB },
    });
    expect(res.body.formMessages).toEqual({
      assetId: 'This account has sub-meters: move or remove them first',
    });
  });
});

describe('finding accounts', () => {
  it('searches by name or meter number, and lists by id list, supplier and status with the asset shown', async () => {
    const found = await w.api({
      method: 'GET',
      path: `/accounts/search?query=${MPANS[0].slice(0, 6)}`,
      token: owner,
    });
    expect(found.body).toMatchObject({
      total: 1,
      limit: 100,
      data: [{ _id: mainId, asset: { siteName: 'Temple Quay Point' } }],
    });
    const bySupplier = await w.api({
      method: 'GET',
      path: `/accounts?supplierId=${w.supplierId}&status=active&$populate=asset`,
      token: owner,
    });
    expect((bySupplier.body.data as Account[]).map((a) => a._id)).toEqual([mainId]);
    const all = (await w.api({ method: 'GET', path: '/accounts', token: owner })).body.data as Account[];
    const two = all.slice(0, 2).map((a) => a._id);
    const byIds = await w.api({ method: 'GET', path: `/accounts?_id=${two.join(',')}`, token: owner });
    expect((byIds.body.data as Account[]).map((a) => a._id).sort()).toEqual([...two].sort());
  });

  it('lists the tags in use and the waste categories', async () => {
    const tags = await w.api({ method: 'GET', path: '/accounts/tags', token: owner });
    expect(tags.body).toEqual({ data: ['landlord supply'], total: 1 });
    const waste = await w.api({ method: 'GET', path: '/accounts/waste-categories', token: owner });
    expect(waste.body.data).toEqual(expect.arrayContaining(['General waste', 'Food waste']));
  });
});

describe('access', () => {
  it('answers 404 to another company for an account, its consumption and its contracts, and lists nothing', async () => {
    const outsider = w.token('outsider');
    for (const path of [
      `/accounts/${mainId}`,
      `/accounts/${mainId}/consumption`,
      `/accounts/${mainId}/contracts`,
    ]) {
      const res = await w.api({ method: 'GET', path, token: outsider });
      expect(res.status, path).toBe(404);
    }
    const patch = await w.api({
      method: 'PATCH',
      path: `/accounts/${mainId}`,
      token: outsider,
      body: { name: 'x' },
    });
    expect(patch.status).toBe(404);
    expect((await w.api({ method: 'GET', path: '/accounts', token: outsider })).body.total).toBe(0);
  });

  it('lets a user with a grant on one asset add accounts there only', async () => {
    const token = w.token('assetUser');
    const there = await wizard({ assetId: w.assetA, type: 'electricity', meterPointNumber: MPANS[2] }, token);
    expect(there.status).toBe(201);
    const elsewhere = await wizard({ assetId: w.assetB, type: 'waste', wasteCategory: 'Food waste' }, token);
    expect(elsewhere.body.formMessages).toEqual({ assetId: 'Asset not found' });
    const list = await w.api({ method: 'GET', path: '/accounts', token });
    const assets = new Set((list.body.data as Account[]).map((a) => a.assetId));
    expect([...assets]).toEqual([w.assetA]);
  });
});
