import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccessFixture,
  type DemoUser,
  type DemoWorld,
  seedDemoWorld,
  startAccessFixture,
} from './access-support.ts';

/**
 * Grants inside a company: a bill validator granted five sites sees, counts, downloads and writes only the
 * bills of the meters on those sites, through every list, search, stats, download and import call.
 */

let fx: AccessFixture;
let world: DemoWorld;
let validator: DemoUser;
/** A validator who may write one of those sites (and read nothing else). */
let writer: { token: string; siteId: string };

interface Bill {
  id: string;
  accountId: string;
  meterPointNumber: string;
}
const readable: Bill[] = [];
const hidden: Bill[] = [];
const STATUSES = ['passed', 'warning', 'failed', 'pending', 'error'] as const;

const call = (method: string, path: string, token: string, body?: unknown) =>
  fx.api({ method, path, token, body });
const owner = () => world.user('owner@demo.test').token;
const idsOf = (res: { body: Record<string, unknown> }) =>
  new Set(((res.body.data ?? []) as { _id: string }[]).map((i) => i._id));

beforeAll(async () => {
  fx = await startAccessFixture({ aws: true });
  world = await seedDemoWorld(fx);
  validator = world.user('validator@demo.test');
  const { putItem, declaredRef } = await import('../../functions/core/data/item-repository.ts');
  const { putProfile } = await import('../../functions/core/access/user-repository.ts');
  const { newId } = await import('../../functions/core/lib/ids.ts');
  const companyId = world.demo.companyId;
  const now = new Date().toISOString();
  const granted = new Set(validator.grants.assets.read);
  const grantedSites = [...granted].slice(0, 2);
  const otherSites = [...world.demo.assets.values()].filter((id) => !granted.has(id)).slice(0, 2);
  expect(grantedSites).toHaveLength(2);
  expect(otherSites).toHaveLength(2);
  let n = 0;
  for (const assetId of [...grantedSites, ...otherSites]) {
    const accountId = newId();
    const meterPointNumber = `19000000000${String(++n).padStart(2, '0')}`;
    await putItem(declaredRef('accounts', { companyId }), {
      _id: accountId,
      companyId,
      name: `Grants meter ${n}`,
      type: 'electricity',
      assetId,
      meterPointNumber,
      status: 'active',
      tags: [],
      createdAt: now,
      updatedAt: now,
    });
    for (const [i, status] of STATUSES.entries()) {
      const id = newId();
      const invoiceNumber = `GRANTS-${n}-${i}`;
      await putItem(declaredRef('invoices', { companyId }), {
        _id: id,
        companyId,
        accountId,
        fileName: `${invoiceNumber}.pdf`,
        key: `invoices/${companyId}/${id}/${invoiceNumber}.pdf`,
        invoiceNumber,
        status: 'captured',
        completed: i === 0,
        source: 'upload',
        createdAt: now,
        updatedAt: now,
      });
      await putItem(declaredRef('invoice-validation', { companyId }), {
        _id: id,
        companyId,
        invoiceId: id,
        accountId,
        status,
        completed: i === 0,
        hold: false,
        tags: ['grants'],
        displayName: invoiceNumber,
        invoiceNumber,
        createdAt: now,
        updatedAt: now,
      });
      (granted.has(assetId) ? readable : hidden).push({ id, accountId, meterPointNumber });
    }
  }
  // A bill validator with write access to one of the sites, and nothing else.
  const sub = randomUUID();
  const siteId = grantedSites[0] as string;
  await putItem(declaredRef('users', { companyId }), {
    _id: sub,
    companyId,
    email: 'site-validator@demo.test',
    name: 'Site validator',
    permissions: ['bill_validation'],
    grants: {
      entities: { read: [], write: [] },
      assets: { read: [], write: [siteId] },
      accounts: { read: [], write: [] },
    },
    createdAt: now,
    updatedAt: now,
  });
  await putProfile({
    sub,
    email: 'site-validator@demo.test',
    name: 'Site validator',
    isAdmin: false,
    currentCompanyId: companyId,
    companyIds: [companyId],
  });
  writer = { token: fx.fx.issuer.accessToken(sub), siteId };
}, 120_000);
afterAll(async () => fx?.stop());

describe('every list of bills holds only the bills a grant reaches', () => {
  const LISTS = [
    '/invoices/validation?limit=1000000',
    '/invoices?limit=1000',
    '/invoices/search?query=grants-&limit=1000',
    '/invoice-validation?limit=1000',
    '/invoice-validation/search?query=grants-&limit=1000',
    '/invoice-validation/queue?group=open&limit=1000',
    '/invoice-validation/queue?group=completed&limit=1000',
  ];
  for (const path of LISTS) {
    it(`GET ${path}`, async () => {
      const mine = await call('GET', path, validator.token);
      expect(mine.status, JSON.stringify(mine.body)).toBe(200);
      const ids = idsOf(mine);
      expect(hidden.filter((b) => ids.has(b.id))).toEqual([]);
      expect(readable.some((b) => ids.has(b.id))).toBe(true);
      // The total counts what the caller may see, not the company's bills.
      expect(mine.body.total).toBe(ids.size);
      const all = idsOf(await call('GET', path, owner()));
      expect(hidden.some((b) => all.has(b.id))).toBe(true);
    });
  }

  it('GET /invoices/validation pages through the same bills as GET /invoices', async () => {
    const page = await call('GET', '/invoices/validation?limit=1000000', validator.token);
    const list = await call('GET', '/invoices?limit=1000', validator.token);
    expect(page.body.total).toBe(list.body.total);
    expect(idsOf(page)).toEqual(idsOf(list));
    for (const b of readable) expect(idsOf(page).has(b.id)).toBe(true);
  });

  it('GET /invoices/validation-stats counts only the validations the caller may read', async () => {
    const stats = await call('GET', '/invoices/validation-stats', validator.token);
    expect(stats.status).toBe(200);
    const everyone = await call('GET', '/invoices/validation-stats', owner());
    expect(stats.body.total).toBeLessThan(everyone.body.total as number);
    const readableTotal = (await call('GET', '/invoice-validation?limit=0', validator.token)).body.total;
    expect(stats.body.total).toBe(readableTotal);
    const statuses = stats.body.statuses as Record<string, { open: number; completed: number }>;
    for (const status of STATUSES) {
      const count = async (completed: boolean) =>
        (
          await call(
            'GET',
            `/invoice-validation?status=${status}&completed=${completed}&limit=0`,
            validator.token,
          )
        ).body.total;
      expect(statuses[status]).toEqual({ open: await count(false), completed: await count(true) });
    }
  });

  it('single-bill reads and downloads of a bill out of reach are 404, of one in reach 200', async () => {
    const paths = (b: Bill) => [
      `/invoices/${b.id}`,
      `/invoices/${b.id}/download`,
      `/invoices/${b.id}/refresh`,
      `/invoice-validation/${b.id}`,
      `/invoice-validation/${b.id}/summary`,
      `/invoice-validation/${b.id}/export`,
      `/accounts/${b.accountId}/invoice/${b.id}/download`,
    ];
    const inReach = readable[1] as Bill;
    const outOfReach = hidden[1] as Bill;
    for (const path of paths(outOfReach)) {
      expect((await call('GET', path, validator.token)).status, path).toBe(404);
    }
    for (const path of paths(inReach).filter((p) => !p.endsWith('/refresh') && !p.includes('/export'))) {
      expect((await call('GET', path, validator.token)).status, path).toBe(200);
    }
  });
});

const csv = (rows: string[]) =>
  ['meterPointNumber,invoiceNumber,startDate,endDate,grossTotal', ...rows].join('\n');
const row = (mpn: string, number: string) => `${mpn},${number},01/01/2026,31/01/2026,99999.99`;

describe('imports write only where the caller may write', () => {
  const UNKNOWN = 'No account has this meter point number';

  it('a row on a meter the caller cannot write is refused as if the meter did not exist', async () => {
    const reachable = readable[0] as Bill;
    const other = hidden[0] as Bill;
    for (const [token, mpn] of [
      [validator.token, reachable.meterPointNumber],
      [validator.token, other.meterPointNumber],
      [writer.token, other.meterPointNumber],
      [validator.token, '1999999999999'],
    ] as const) {
      const res = await call('POST', '/invoices/import', token, {
        csv: csv([row(mpn, `IMP-${randomUUID()}`)]),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.formMessages).toEqual({ 'rows.2.meterPointNumber': UNKNOWN });
    }
    const listed = await call('GET', '/invoices?source=import&limit=1000', owner());
    expect(listed.body.total).toBe(0);
  });

  it('a row on a meter the caller may write is imported', async () => {
    const mine = readable.find((b) => b !== undefined) as Bill;
    const res = await call('POST', '/invoices/import', writer.token, {
      csv: csv([row(mine.meterPointNumber, 'IMP-WRITER-1')]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.created).toBe(1);
  });

  it('a rollback touches only the bills the caller may write, and names no other', async () => {
    const mine = readable[0] as Bill;
    const other = hidden[0] as Bill;
    const imported = await call('POST', '/invoices/import', owner(), {
      csv: csv([row(mine.meterPointNumber, 'IMP-OWNER-1'), row(other.meterPointNumber, 'IMP-OWNER-2')]),
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const batchId = String(imported.body.batchId);
    const [ownBill, otherBill] = (imported.body.items as { _id: string }[]).map((i) => i._id);

    const refused = await call('POST', '/invoices/import-rollback', validator.token, { batchId });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('No import with this batch id was found.');

    const rolled = await call('POST', '/invoices/import-rollback', writer.token, { batchId });
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    expect(rolled.body).toMatchObject({ removed: 1, alreadyRemoved: 0, kept: [] });
    expect(JSON.stringify(rolled.body)).not.toContain(String(otherBill));

    const stillThere = await call('GET', `/invoices/${otherBill}`, owner());
    expect(stillThere.status).toBe(200);
    expect(stillThere.body.deleted).not.toBe(true);
    const gone = await call('GET', `/invoices/${ownBill}`, owner());
    expect(gone.body.deleted).toBe(true);
  });
});

describe('writes that name bills or places in their body touch nothing out of reach', () => {
  const stateOf = async (b: Bill) => {
    const invoice = (await call('GET', `/invoices/${b.id}`, owner())).body;
    const validation = (await call('GET', `/invoice-validation/${b.id}`, owner())).body;
    const { status, deleted, completed, updatedAt } = invoice;
    return { invoice: { status, deleted, completed, updatedAt }, validation };
  };

  it('every bulk call of bills and validations leaves a bill out of reach as it was', async () => {
    const targets = hidden.slice(0, 3);
    const before = await Promise.all(targets.map(stateOf));
    const ids = targets.map((b) => b.id);
    const calls: [string, Record<string, unknown>][] = [
      ['/invoice-validation/bulk-tag', { ids, tags: ['out-of-reach'] }],
      ['/invoice-validation/bulk-hold', { ids, hold: true }],
      ['/invoice-validation/assign-users', { ids, userSub: validator.sub }],
      ['/invoice-validation/bulk-revalidate', { ids }],
      ['/invoice-validation/bulk-force', { ids }],
      ['/invoice-validation/bulk-complete', { ids }],
      ['/invoice-validation/bulk-delete', { ids }],
      ['/invoices/bulk-delete', { ids }],
    ];
    const told: string[] = [];
    for (const token of [validator.token, writer.token]) {
      for (const [path, body] of calls) {
        const res = await call('POST', path, token, body);
        if (res.status >= 500) told.push(`${path}: ${res.status}`);
        if (Number(res.body.updated ?? res.body.deleted ?? 0) > 0)
          told.push(`${path}: ${JSON.stringify(res.body)}`);
      }
    }
    expect(told).toEqual([]);
    expect(await Promise.all(targets.map(stateOf))).toEqual(before);
  });

  it('a reading, meter or project placed out of reach is refused and not made', async () => {
    const other = hidden[0] as Bill;
    const { getItem } = await import('../../functions/core/data/item-repository.ts');
    const { keys } = await import('../../functions/core/data/keys.ts');
    const account = await getItem(
      keys.collection({ companyId: world.demo.companyId }, 'accounts'),
      other.accountId,
    );
    const otherSite = String(account?.assetId);
    const before = {
      readings: (await call('GET', '/readings?limit=0', owner())).body.total,
      accounts: (await call('GET', '/accounts?limit=0', owner())).body.total,
      projects: (await call('GET', '/projects?limit=0', owner())).body.total,
    };
    const attempts: [string, Record<string, unknown>][] = [
      ['/readings', { accountId: other.accountId, date: '2026-01-15', value: 123 }],
      ['/accounts', { name: 'Out of reach meter', type: 'electricity', assetId: otherSite }],
      ['/projects', { name: 'Out of reach project', assetId: otherSite }],
    ];
    for (const token of [validator.token, writer.token]) {
      for (const [path, body] of attempts) {
        const res = await call('POST', path, token, body);
        expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
      }
    }
    expect({
      readings: (await call('GET', '/readings?limit=0', owner())).body.total,
      accounts: (await call('GET', '/accounts?limit=0', owner())).body.total,
      projects: (await call('GET', '/projects?limit=0', owner())).body.total,
    }).toEqual(before);
  });
});
