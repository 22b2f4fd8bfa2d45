import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccessFixture, type DemoWorld, seedDemoWorld, startAccessFixture } from './access-support.ts';

/**
 * Requests that change the same record at the same moment must all land: each PATCH names a different
 * field, each tag or asset added is a different one, and none may undo another.
 */

let fx: AccessFixture;
let world: DemoWorld;
const ROUNDS = 4;

const call = (method: string, path: string, body?: unknown) =>
  fx.api({ method, path, token: world.user('owner@demo.test').token, body });

beforeAll(async () => {
  fx = await startAccessFixture({ aws: true });
  world = await seedDemoWorld(fx);
});
afterAll(async () => fx?.stop());

/** Each field with the value a request of round `n` sets it to: every round changes every field again. */
type Fields = Record<string, (n: number) => unknown>;

const WRITABLE: { name: string; path: (w: DemoWorld) => string; fields: Fields }[] = [
  {
    name: 'assets',
    path: (w) => `/assets/${w.demo.probeItems.assets}`,
    fields: {
      siteName: (n) => `Hardman Court ${n}`,
      assetType: (n) => `Office ${n}`,
      floorArea: (n) => 1000 + n,
      floorAreaUnit: (n) => (n % 2 === 0 ? 'ft2' : 'm2'),
      status: (n) => (n % 2 === 0 ? 'inactive' : 'sold'),
      epcRating: (n) => `B${n}`,
      geocoordinates: (n) => ({ lat: 52 + n / 10, lng: -1.9 }),
    },
  },
  {
    name: 'entities',
    path: (w) => `/entities/${w.demo.probeItems.entities}`,
    fields: {
      legalName: (n) => `Demo Estates Retail ${n} Ltd`,
      companyNumber: (n) => `0123456${n}`,
      address: (n) => ({ streetAddress: `${n} Retail Row`, postCode: 'B1 1AA' }),
    },
  },
  {
    name: 'accounts',
    path: (w) => `/accounts/${w.demo.probeItems.accounts}`,
    fields: {
      name: (n) => `Aldgate House Electricity ${n}`,
      unit: (n) => (n % 2 === 0 ? 'kWh' : 'MWh'),
      wasteCategory: (n) => `Category ${n}`,
      status: (n) => (n % 2 === 0 ? 'inactive' : 'active'),
      tags: (n) => [`tag-${n}`],
    },
  },
  {
    name: 'projects',
    path: (w) => `/projects/${w.demo.probes.get('projects')}`,
    fields: {
      name: (n) => `Probe project ${n}`,
      description: (n) => `Round ${n}`,
      status: (n) => (n % 2 === 0 ? 'in-progress' : 'completed'),
      startDate: (n) => `2026-0${n + 1}-01`,
      endDate: (n) => `2026-0${n + 1}-28`,
      cost: (n) => 5000 + n,
      estimatedSavingKwh: (n) => 300 + n,
    },
  },
  {
    name: 'readings',
    path: (w) => `/readings/${w.demo.probes.get('readings')}`,
    fields: {
      value: (n) => 100 + n,
      unit: (n) => `kWh${n}`,
      isEstimate: (n) => n % 2 === 0,
      comment: (n) => `Read on round ${n}`,
      date: (n) => `2026-0${n + 1}-15`,
    },
  },
  {
    name: 'asset-groups',
    path: (w) => `/asset-groups/${w.demo.probes.get('asset-groups')}`,
    fields: {
      name: (n) => `Probe group ${n}`,
      description: (n) => `Round ${n}`,
    },
  },
];

describe('concurrent PATCHes of different fields all survive', () => {
  for (const resource of WRITABLE) {
    it(`${resource.name}: ${Object.keys(resource.fields).length} fields at once, ${ROUNDS} rounds`, async () => {
      const path = resource.path(world);
      const lost: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const answers = await Promise.all(
          Object.entries(resource.fields).map(([field, value]) =>
            call('PATCH', path, { [field]: value(round) }),
          ),
        );
        for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
        const stored = (await call('GET', path)).body;
        for (const [field, value] of Object.entries(resource.fields)) {
          if (JSON.stringify(stored[field]) !== JSON.stringify(value(round))) lost.push(`${field}@${round}`);
        }
      }
      expect(lost).toEqual([]);
    });
  }
});

describe('concurrent changes of records under a meter all survive', () => {
  it(`contracts: 4 fields at once, ${ROUNDS} rounds`, async () => {
    const accountId = world.demo.probeItems.accounts;
    const made = await call('POST', `/accounts/${accountId}/contracts`, {
      name: 'Raced contract',
      startDate: '2026-01-01',
      endDate: '2026-12-31',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const path = `/accounts/${accountId}/contracts/${made.body._id}`;
    const fields: Fields = {
      name: (n) => `Raced contract ${n}`,
      reference: (n) => `REF-${n}`,
      notes: (n) => `Round ${n}`,
      isRenewable: (n) => n % 2 === 0,
    };
    const lost: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const answers = await Promise.all(
        Object.entries(fields).map(([field, value]) => call('PATCH', path, { [field]: value(round) })),
      );
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
      const stored = (await call('GET', path)).body;
      for (const [field, value] of Object.entries(fields))
        if (JSON.stringify(stored[field]) !== JSON.stringify(value(round))) lost.push(`${field}@${round}`);
    }
    expect(lost).toEqual([]);
  });
});

describe('concurrent changes of a member all survive', () => {
  it(`a member's name, permissions and grants changed at once, ${ROUNDS} rounds`, async () => {
    const member = world.user('validator@demo.test');
    const path = `/companies/${world.demo.companyId}/users/${member.sub}`;
    const site = world.demo.probeItems.assets;
    const fields: Fields = {
      name: (n) => `Tom Hughes ${n}`,
      permissions: (n) => (n % 2 === 0 ? ['bill_validation'] : ['bill_validation_v2']),
      grants: (n) => ({
        entities: { read: [], write: [] },
        assets: { read: n % 2 === 0 ? [site] : [], write: [] },
        accounts: { read: [], write: [] },
      }),
    };
    const lost: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const answers = await Promise.all(
        Object.entries(fields).map(([field, value]) => call('PATCH', path, { [field]: value(round) })),
      );
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
      const stored = (await call('GET', path)).body;
      for (const [field, value] of Object.entries(fields))
        if (JSON.stringify(stored[field]) !== JSON.stringify(value(round))) lost.push(`${field}@${round}`);
    }
    expect(lost).toEqual([]);
  });
});

describe('concurrent changes of the company settings all survive', () => {
  it(`different settings changed at once, ${ROUNDS} rounds`, async () => {
    const path = `/companies/${world.demo.companyId}`;
    const fields: Fields = {
      hideCostData: (n) => n % 2 === 0,
      invoiceCategories: (n) => [`Energy ${n}`],
      miscInvoiceCategories: (n) => [`Misc ${n}`],
      messageCategories: (n) => [`Message ${n}`],
      documentCategories: (n) => [`Lease ${n}`],
    };
    const lost: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const answers = await Promise.all(
        Object.entries(fields).map(([field, value]) =>
          call('PATCH', path, { settings: { [field]: value(round) } }),
        ),
      );
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
      // No read of a company by id: an empty change answers it as stored.
      const settings = (await call('PATCH', path, {})).body.settings as Record<string, unknown>;
      for (const [field, value] of Object.entries(fields))
        if (JSON.stringify(settings[field]) !== JSON.stringify(value(round))) lost.push(`${field}@${round}`);
    }
    expect(lost).toEqual([]);
  });
});

describe('lists and counters inside a record', () => {
  it('20 tags added at once to one validation are all kept', async () => {
    const { putItem } = await import('../../functions/core/data/item-repository.ts');
    const { declaredRef } = await import('../../functions/core/data/item-repository.ts');
    const { newId } = await import('../../functions/core/lib/ids.ts');
    const companyId = world.demo.companyId;
    const id = newId();
    const now = new Date().toISOString();
    await putItem(declaredRef('invoices', { companyId }), {
      _id: id,
      companyId,
      fileName: 'race.pdf',
      status: 'captured',
      createdAt: now,
      updatedAt: now,
    });
    await putItem(declaredRef('invoice-validation', { companyId }), {
      _id: id,
      companyId,
      invoiceId: id,
      status: 'failed',
      completed: false,
      hold: false,
      tags: [],
      createdAt: now,
      updatedAt: now,
    });
    const tags = Array.from({ length: 20 }, (_, i) => `tag-${i}`);
    const answers = await Promise.all(
      tags.map((tag) => call('POST', '/invoice-validation/bulk-tag', { ids: [id], tags: [tag] })),
    );
    for (const res of answers) expect(res.body).toMatchObject({ updated: 1, failed: [] });
    const comments = await Promise.all(
      tags.map((tag) => call('POST', `/invoices/${id}/update-validation`, { comment: `note ${tag}` })),
    );
    for (const res of comments) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const summary = await call('GET', `/invoice-validation/${id}/summary`);
    const validation = summary.body.validation as { tags: string[]; comments: { text: string }[] };
    expect([...validation.tags].sort()).toEqual([...tags].sort());
    expect(validation.comments.map((c) => c.text).sort()).toEqual(tags.map((t) => `note ${t}`).sort());
  });

  it('charge lines and values added at once to one bill are all kept', async () => {
    const { putItem, declaredRef } = await import('../../functions/core/data/item-repository.ts');
    const { newId } = await import('../../functions/core/lib/ids.ts');
    const companyId = world.demo.companyId;
    const id = newId();
    const now = new Date().toISOString();
    await putItem(declaredRef('invoices', { companyId }), {
      _id: id,
      companyId,
      fileName: 'rates.pdf',
      status: 'captured',
      completed: false,
      values: {},
      rates: [],
      createdAt: now,
      updatedAt: now,
    });
    const lines = Array.from({ length: 10 }, (_, i) => `Line ${i}`);
    const keys = ['netTotal', 'vatTotal', 'grossTotal', 'consumption', 'standingCharge'];
    const answers = await Promise.all([
      ...lines.map((description) => call('POST', `/invoices/${id}/rates`, { description, amount: 1 })),
      ...keys.map((k, i) => call('PATCH', `/invoices/${id}/manual-update`, { values: { [k]: 10 + i } })),
    ]);
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    const stored = (await call('GET', `/invoices/${id}`)).body;
    const rates = stored.rates as { description: string }[];
    expect(rates.map((r) => r.description).sort()).toEqual([...lines].sort());
    expect(stored.values).toMatchObject(Object.fromEntries(keys.map((k, i) => [k, 10 + i])));
  });

  it('assets added to a group at once are all in it', async () => {
    const group = await call('POST', '/asset-groups', { name: 'Raced group', assetIds: [] });
    expect(group.status).toBe(201);
    const assetIds = [...world.demo.assets.values()];
    const answers = await Promise.all(
      assetIds.map((assetId) => call('PUT', `/asset-groups/${group.body._id}/asset/${assetId}`)),
    );
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await call('GET', `/asset-groups/${group.body._id}`);
    expect([...(stored.body.assetIds as string[])].sort()).toEqual([...assetIds].sort());
  });

  it('items created at once are all counted in their list', async () => {
    const assetId = world.demo.probeItems.assets;
    const before = (await call('GET', '/projects?limit=0')).body.total as number;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('POST', '/projects', { name: `Raced project ${i}`, assetId }),
      ),
    );
    for (const res of answers) expect(res.status).toBe(201);
    expect((await call('GET', '/projects?limit=0')).body.total).toBe(before + 20);
  });
});
