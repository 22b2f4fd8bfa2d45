import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessFixture, type DemoWorld, seedDemoWorld, startAccessFixture } from './access-support.ts';

let fx: AccessFixture;
let world: DemoWorld;
const ids: Record<string, string> = {};

const call = (method: string, path: string, token: string, body?: unknown) =>
  fx.api({ method, path, token, body });
const token = (email: string) => world.user(email).token;
const names = (res: { body: Record<string, unknown> }, field = 'name') =>
  (res.body.data as Record<string, unknown>[]).map((i) => String(i[field])).sort();

async function make(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await call('POST', path, token('owner@demo.test'), body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return String(res.body._id);
}

beforeAll(async () => {
  fx = await startAccessFixture();
  world = await seedDemoWorld(fx);
  const asset = (n: string) => world.demo.assets.get(n) as string;
  const account = (n: string) => world.demo.accounts.get(n) as string;
  ids.colmoreAccount = await make('/accounts', {
    name: 'Colmore Gate Electricity',
    type: 'electricity',
    assetId: asset('Colmore Gate'),
  });
  ids.retailAccount = await make('/accounts', {
    name: '54 Princes Street Gas',
    type: 'gas',
    assetId: asset('54 Princes Street'),
  });
  for (const [name, assetId] of [
    ['Hardman LED retrofit', asset('Hardman Court')],
    ['Aldgate boiler', asset('Aldgate House')],
    ['Princes Street roof', asset('54 Princes Street')],
  ] as const) {
    ids[name] = await make('/projects', { name, assetId });
  }
  for (const [accountId, value] of [
    [account('Aldgate House Electricity'), 1],
    [ids.colmoreAccount, 2],
    [ids.retailAccount, 3],
  ] as const) {
    await make('/readings', { accountId, date: '2026-10-01', value });
  }
  // Invoices come from uploads and captures, not from a create call: stored as capture leaves them.
  const { putInvoice } = await import('../../functions/invoices/invoice-repository.ts');
  const { newId } = await import('../../functions/core/lib/ids.ts');
  const invoice = async (fileName: string, accountId?: string) => {
    const now = new Date().toISOString();
    const _id = newId();
    const companyId = world.demo.companyId;
    await putInvoice(companyId, {
      _id,
      companyId,
      fileName,
      ...(accountId ? { accountId } : {}),
      createdAt: now,
      updatedAt: now,
    });
    return _id;
  };
  ids.unassignedInvoice = await invoice('unassigned.pdf');
  await invoice('aldgate.pdf', account('Aldgate House Electricity'));
  await invoice('princes.pdf', ids.retailAccount);
  await make('/asset-groups', {
    name: 'Birmingham offices',
    assetIds: [asset('Hardman Court'), asset('Colmore Gate')],
  });
  await make('/asset-groups', { name: 'Mixed', assetIds: [asset('Hardman Court'), asset('Aldgate House')] });
});
afterAll(async () => fx?.stop());

describe('lists hold only what the caller may read', () => {
  it('projects follow their asset', async () => {
    const mine = await call('GET', '/projects', token('asset@demo.test'));
    expect(names(mine)).toEqual(['Hardman LED retrofit', 'Probe projects']);
    expect(mine.body.total).toBe(2);
    expect(names(await call('GET', '/projects', token('entity@demo.test')))).toEqual(['Princes Street roof']);
    expect((await call('GET', '/projects', token('user@demo.test'))).body.total).toBe(4);
  });

  it('readings follow their account, and an asset grant reaches the asset’s accounts', async () => {
    const values = (res: { body: Record<string, unknown> }) =>
      (res.body.data as { value?: number }[])
        .map((r) => r.value)
        .filter((v) => v !== undefined)
        .sort();
    expect(values(await call('GET', '/readings', token('account@demo.test')))).toEqual([1]);
    expect(values(await call('GET', '/readings', token('asset@demo.test')))).toEqual([2]);
    expect(values(await call('GET', '/readings', token('entity@demo.test')))).toEqual([3]);
  });

  it('bill validators see unassigned invoices and those of accounts they may read', async () => {
    const files = (res: { body: Record<string, unknown> }) =>
      (res.body.data as { fileName?: string }[])
        .map((i) => i.fileName)
        .filter(Boolean)
        .sort();
    expect(files(await call('GET', '/invoices', token('validator@demo.test')))).toEqual([
      'princes.pdf',
      'unassigned.pdf',
    ]);
    expect(files(await call('GET', '/invoices', token('account@demo.test')))).toEqual(['aldgate.pdf']);
    expect((await call('GET', `/invoices/${ids.unassignedInvoice}`, token('account@demo.test'))).status).toBe(
      404,
    );
  });

  it('an asset group is readable when every asset in it is', async () => {
    expect(names(await call('GET', '/asset-groups', token('asset@demo.test')))).toEqual([
      'Birmingham offices',
      'Probe asset-groups',
    ]);
  });

  it("an entity grant reaches the entity's assets and their accounts", async () => {
    const assets = await call('GET', '/assets', token('entity@demo.test'));
    expect(names(assets, 'siteName')).toEqual([
      '128 High Street Guildford',
      '210 Oxford Street',
      '54 Princes Street',
      'Foregate Street Retail Park',
      'Queen Street Arcade',
    ]);
    expect(names(await call('GET', '/accounts', token('entity@demo.test')))).toEqual([
      '54 Princes Street Gas',
    ]);
  });
});

describe('bill validation follows the account, as invoices do', () => {
  const VALIDATOR_SITES = [
    'Foregate Street Retail Park',
    '128 High Street Guildford',
    '54 Princes Street',
    'Queen Street Arcade',
    '210 Oxford Street',
  ];
  const v = {
    mine: [] as string[],
    unassigned: '',
    moved: '',
    others: [] as string[],
    captures: {} as Record<string, string>,
  };
  const idsOf = (res: { body: Record<string, unknown> }) =>
    (res.body.data as { _id: string }[]).map((d) => d._id).sort();

  beforeAll(async () => {
    // Validations come from capture and validation, not from a create call: stored as validation leaves them.
    const { putCapture, putInvoice, putValidation } = await import(
      '../../functions/invoices/invoice-repository.ts'
    );
    const { newId } = await import('../../functions/core/lib/ids.ts');
    const companyId = world.demo.companyId;
    const validation = async (n: number, accountId?: string) => {
      const now = new Date().toISOString();
      const _id = newId();
      await putValidation(companyId, {
        _id,
        companyId,
        invoiceId: _id,
        status: 'failed',
        completed: false,
        hold: false,
        tags: [],
        displayName: `Bill ${n}`,
        invoiceNumber: `VQ-${n}`,
        ...(accountId ? { accountId } : {}),
        createdAt: now,
        updatedAt: now,
      });
      return _id;
    };
    let n = 0;
    for (const site of VALIDATOR_SITES) {
      const accountId = await make('/accounts', {
        name: `${site} Water`,
        type: 'water',
        assetId: world.demo.assets.get(site),
      });
      v.mine.push(await validation(++n, accountId));
    }
    v.unassigned = await validation(++n);
    for (const accountId of [
      world.demo.accounts.get('Aldgate House Electricity') as string,
      world.demo.accounts.get('Temple Quay Point Electricity') as string,
      ids.colmoreAccount as string,
    ])
      v.others.push(await validation(++n, accountId));
    // Uploaded documents: one holding a bill of the validator's, one also holding another account's.
    const now = new Date().toISOString();
    const bill = async (accountId?: string) => {
      const _id = newId();
      await putInvoice(companyId, { _id, companyId, ...(accountId ? { accountId } : {}), createdAt: now });
      return _id;
    };
    const capture = async (fileName: string, invoiceIds: string[]) => {
      const _id = newId();
      await putCapture(companyId, { _id, companyId, fileName, invoiceIds, status: 'done', createdAt: now });
      v.captures[fileName] = _id;
    };
    await capture('mine.pdf', [await bill(ids.retailAccount), await bill()]);
    v.moved = await validation(++n, ids.retailAccount);
    await putInvoice(companyId, { _id: v.moved, companyId, accountId: ids.colmoreAccount, createdAt: now });
    await capture('shared.pdf', [await bill(ids.retailAccount), await bill(ids.colmoreAccount)]);
  });

  it("queues, counts and searches hold only the validator's sites' bills and those with no account yet", async () => {
    const validator = token('validator@demo.test');
    const readable = [...v.mine, v.unassigned, v.moved].sort();
    const queue = await call('GET', '/invoice-validation/queue?group=failed', validator);
    expect(queue.status).toBe(200);
    expect(idsOf(queue)).toEqual(readable);
    expect(queue.body.total).toBe(readable.length);
    // The navigation's counts ask for one row and read the total.
    const count = await call('GET', '/invoice-validation/queue?group=failed&limit=1', validator);
    expect(count.body.total).toBe(readable.length);
    expect(count.body.data).toHaveLength(1);
    const second = await call('GET', '/invoice-validation/queue?group=failed&limit=4&skip=4', validator);
    expect((second.body.data as unknown[]).length).toBe(readable.length - 4);
    const search = await call('GET', '/invoice-validation/search?query=vq-', validator);
    expect(idsOf(search)).toEqual(readable);
    expect(search.body.total).toBe(readable.length);

    const owner = await call('GET', '/invoice-validation/queue?group=failed', token('owner@demo.test'));
    expect(idsOf(owner)).toEqual(expect.arrayContaining([...readable, ...v.others]));
    expect(owner.body.total).toBe((owner.body.data as unknown[]).length);

    const captures = await call('GET', '/invoice-validation/invoices', validator);
    expect(idsOf(captures)).toEqual([v.captures['mine.pdf']]);
    expect(captures.body.total).toBe(1);
    const all = await call('GET', '/invoice-validation/invoices', token('owner@demo.test'));
    expect(idsOf(all)).toEqual(Object.values(v.captures).sort());
  });

  it("answers 404 for another account's validation, and leaves it untouched by bulk calls", async () => {
    const validator = token('validator@demo.test');
    const other = v.others[0] as string;
    for (const [method, path, body] of [
      ['GET', `/invoice-validation/${other}/summary`],
      ['GET', `/invoice-validation/${other}/export`],
      ['PUT', `/invoice-validation/${other}/force`],
      ['PATCH', `/invoice-validation/${other}`, { hold: true }],
      ['DELETE', `/invoice-validation/${other}`],
    ] as const)
      expect((await call(method, path, validator, body)).status, `${method} ${path}`).toBe(404);
    const mine = await call('GET', `/invoice-validation/${v.mine[0]}/summary`, validator);
    expect(mine.status).toBe(200);
    expect(mine.body.validation).toMatchObject({ _id: v.mine[0] });
    // Until it is validated again, a bill just moved to an account they may not read names that account.
    expect((await call('GET', `/invoice-validation/${v.moved}/summary`, validator)).body.account).toBeNull();
    expect(
      (await call('GET', `/invoice-validation/${v.moved}/summary`, token('owner@demo.test'))).body.account,
    ).toMatchObject({ _id: ids.colmoreAccount });

    const hold = await call('POST', '/invoice-validation/bulk-hold', validator, {
      ids: [other, v.unassigned],
      hold: true,
    });
    expect(hold.status).toBe(200);
    expect(hold.body).toEqual({ updated: 1, missing: [other], failed: [] });
    const force = await call('POST', '/invoice-validation/bulk-force', validator, { ids: v.others });
    expect(force.body).toMatchObject({ updated: 0, missing: v.others });

    // A document that also holds another account's bill is hidden from them like a missing one.
    const shared = v.captures['shared.pdf'] as string;
    for (const [method, path] of [
      ['GET', `/invoice-capture/${shared}/download`],
      ['POST', `/invoice-capture/${shared}/start-capture`],
      ['PUT', `/invoice-capture/${shared}/start-validation`],
    ] as const)
      expect((await call(method, path, validator)).status, `${method} ${path}`).toBe(404);
    const own = await call('GET', `/invoice-capture/${v.captures['mine.pdf']}/download`, validator);
    expect(own.status).toBe(200);
    expect(own.body.name).toBe('mine.pdf');

    const owner = token('owner@demo.test');
    expect((await call('GET', `/invoice-capture/${shared}/download`, owner)).status).toBe(200);
    const seen = await call('GET', `/invoice-validation/${other}/summary`, owner);
    expect(seen.status).toBe(200);
    expect(seen.body.validation).toMatchObject({ hold: false, status: 'failed' });
    expect((seen.body.validation as Record<string, unknown>).forced).toBeUndefined();
  });
});

describe('single items', () => {
  it('answers 404 for an unreadable item and 403 for a readable one without write access', async () => {
    const entity = token('entity@demo.test');
    expect((await call('GET', `/projects/${ids['Aldgate boiler']}`, entity)).status).toBe(404);
    expect((await call('GET', `/projects/${ids['Princes Street roof']}`, entity)).status).toBe(200);
    expect(
      (await call('PATCH', `/projects/${ids['Princes Street roof']}`, entity, { name: 'x' })).status,
    ).toBe(403);
    const asset = token('asset@demo.test');
    expect(
      (await call('PATCH', `/projects/${ids['Hardman LED retrofit']}`, asset, { name: 'LED phase 2' }))
        .status,
    ).toBe(200);
  });

  it('refuses to create an item under an asset the caller may not write', async () => {
    const asset = token('asset@demo.test');
    const colmore = world.demo.assets.get('Colmore Gate') as string;
    const aldgate = world.demo.assets.get('Aldgate House') as string;
    expect((await call('POST', '/projects', asset, { name: 'Mine', assetId: colmore })).status).toBe(201);
    expect((await call('POST', '/projects', asset, { name: 'Not mine', assetId: aldgate })).status).toBe(403);
    // Nor move one there.
    const mine = ids['Hardman LED retrofit'] as string;
    expect((await call('PATCH', `/projects/${mine}`, asset, { assetId: aldgate })).status).toBe(403);
  });

  it("never shows another company's item, whoever asks", async () => {
    const northwind = token('owner@northwind.test');
    for (const path of [
      `/projects/${ids['Aldgate boiler']}`,
      `/invoices/${ids.unassignedInvoice}`,
      `/accounts/${ids.colmoreAccount}`,
    ]) {
      expect((await call('GET', path, northwind)).status).toBe(404);
    }
  });

  it("a grant on a parent entity reaches its subsidiaries' assets", async () => {
    const { putItem } = await import('../../functions/core/data/item-repository.ts');
    const { putProfile } = await import('../../functions/core/access/user-repository.ts');
    const group = world.demo.entities.get('Demo Estates Group plc') as string;
    await putProfile({
      sub: 'group-reader',
      email: 'group@demo.test',
      name: 'Group',
      isAdmin: false,
      companyIds: [world.demo.companyId],
    });
    await putItem(
      { pk: `C#${world.demo.companyId}#users`, indexes: [], searchFields: [] },
      {
        _id: 'group-reader',
        permissions: [],
        grants: {
          entities: { read: [group], write: [] },
          assets: { read: [], write: [] },
          accounts: { read: [], write: [] },
        },
      },
    );
    const res = await call('GET', '/assets', fx.fx.issuer.accessToken('group-reader'));
    expect(res.body.total).toBe(world.demo.assets.size);
  });
});

describe('read lists for widgets', () => {
  it('lists the readable ids per type, and nothing for company users (they read everything)', async () => {
    const { loadCaller } = await import('../../functions/core/access/caller-service.ts');
    const { readListsOf } = await import('../../functions/core/access/item-access-service.ts');
    const { widgetAccess } = await import('../../shared/access/widget-access.ts');
    const account = await loadCaller(world.user('account@demo.test').sub);
    const lists = await readListsOf(account);
    expect([...(lists?.accounts ?? [])].sort()).toEqual(
      ['Aldgate House Electricity', 'Aldgate House Gas', 'Temple Quay Point Electricity']
        .map((n) => world.demo.accounts.get(n))
        .sort(),
    );
    expect(lists?.assets).toEqual([]);
    expect(await readListsOf(await loadCaller(world.user('user@demo.test').sub))).toBeUndefined();
    const subject = {
      ...account,
      read: lists ?? { assets: [], assetGroups: [], accounts: [], entities: [] },
    };
    const selected = world.demo.accounts.get('Aldgate House Gas');
    expect(widgetAccess(subject, { settings: { selectedType: 'account', selectedId: selected } })).toBe('ok');
    const elsewhere = world.demo.assets.get('Hardman Court');
    expect(widgetAccess(subject, { settings: { selectedType: 'asset', selectedId: elsewhere } })).toBe(
      'You do not have access to this data',
    );
  });
});
