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

/**
 * Values a PATCH of round `n` may set a field to, tried in turn against the resource's own schema: the
 * first the schema accepts is used. Fields naming other items or files, and the item's place, are left alone.
 */
const CANDIDATES = (field: string, n: number, choices: readonly unknown[]): unknown[] => [
  `${field} ${n}`,
  `2026-0${n}-1${n}`,
  100 + n,
  n % 2 === 0,
  [`${field}-${n}`],
  choices[n % Math.max(choices.length, 1)],
];
/** The values an enum field (optional, defaulted or not) allows. */
function choicesOf(type: unknown): readonly unknown[] {
  let at = type as { def?: { type?: string; innerType?: unknown; entries?: Record<string, unknown> } };
  while (at.def?.innerType) at = at.def.innerType as typeof at;
  return at.def?.type === 'enum' ? Object.values(at.def.entries ?? {}) : [];
}
/** Fields changed only together with another: a meter's type decides which meter numbers are valid. */
const LINKED: Record<string, readonly string[]> = { accounts: ['type'] };
const UNTOUCHED =
  /(^_|Id$|Ids$|^id$|^key$|^companyId$|^deleted|^createdAt$|^updatedAt$|^createdBy$|^updatedBy$)/;

function writableFields(schema: import('zod').ZodObject, exclude: readonly string[]): Fields {
  const fields: Fields = {};
  for (const [field, type] of Object.entries(schema.shape)) {
    if (UNTOUCHED.test(field) || exclude.includes(field)) continue;
    const choices = choicesOf(type);
    const valid = (n: number) =>
      CANDIDATES(field, n, choices).find(
        (v) =>
          schema
            .partial()
            .strict()
            .safeParse({ [field]: v }).success,
      );
    const differs = (n: number) => JSON.stringify(valid(n)) !== JSON.stringify(valid(n + 1));
    if ([1, 2, 3, 4, 5].every((n) => valid(n) !== undefined) && [1, 2, 3].every(differs))
      fields[field] = (n) => valid(n);
  }
  return fields;
}

describe('every writable resource keeps concurrent PATCHes of different fields', () => {
  it('each resource and sub-resource with a PATCH', { timeout: 240_000 }, async () => {
    await import('../../shared/system/resource-schemas/all.ts');
    const { resourceSchema, subResourceSchema } = await import('../../shared/system/resource-schemas.ts');
    const { RESOURCES } = await import('../../shared/system/resources.ts');
    const { HTTP_ROUTES } = await import('../../shared/system/routes.ts');
    const { getItem, putItem } = await import('../../functions/core/data/item-repository.ts');
    const { keys } = await import('../../functions/core/data/keys.ts');
    const { newId } = await import('../../functions/core/lib/ids.ts');
    const admin = world.user('admin@voltfolio.test');
    const companyId = world.demo.companyId;
    const now = new Date().toISOString();
    const lost: string[] = [];
    const raced: string[] = [];
    const skipped: string[] = [];

    const race = async (label: string, path: string, pk: string, id: string, candidates: Fields) => {
      // Only fields this PATCH changes on its own: some resources let a few of their fields change here.
      const fields: Fields = {};
      for (const [field, value] of Object.entries(candidates)) {
        if (Object.keys(fields).length === 6) break;
        const alone = await fx.api({
          method: 'PATCH',
          path,
          token: admin.token,
          body: { [field]: value(5) },
        });
        if (alone.status === 200) fields[field] = value;
      }
      if (Object.keys(fields).length < 2) {
        skipped.push(label);
        return;
      }
      raced.push(`${label} (${Object.keys(fields).join(', ')})`);
      for (let round = 1; round <= ROUNDS; round++) {
        const answers = await Promise.all(
          Object.entries(fields).map(([field, value]) =>
            fx.api({ method: 'PATCH', path, token: admin.token, body: { [field]: value(round) } }),
          ),
        );
        for (const res of answers)
          if (res.status !== 200) lost.push(`${label}: PATCH ${res.status} ${JSON.stringify(res.body)}`);
        const stored: Record<string, unknown> = (await getItem(pk, id)) ?? {};
        for (const [field, value] of Object.entries(fields))
          if (JSON.stringify(stored[field]) !== JSON.stringify(value(round)))
            lost.push(`${label}.${field}@${round}`);
      }
    };

    for (const r of RESOURCES) {
      const patch = HTTP_ROUTES.find((x) => x.method === 'PATCH' && x.path === `/${r.name}/{id}`);
      if (!patch || patch.op.includes('readOnly')) continue;
      const scope = r.scope === 'company' ? { companyId } : {};
      const pk = keys.collection(scope, r.name);
      // Sites, meters and entities are the seeded ones, whole records; any other item is made here.
      const id = r.itemType ? world.demo.probeItems[r.itemType] : newId();
      const parentId = r.parent ? world.demo.probeItems[r.parent.type] : undefined;
      const place = r.parent
        ? { [r.parent.field]: r.parent.field.endsWith('Ids') ? [parentId] : parentId }
        : {};
      const owner = r.owner ? { [r.owner]: admin.sub } : {};
      if (!r.itemType)
        await putItem(
          { pk, indexes: r.indexes ?? [], searchFields: r.searchFields },
          { _id: id, ...scope, ...place, ...owner, name: `Raced ${r.name}`, createdAt: now, updatedAt: now },
        );
      const exclude = [
        ...(r.parent ? [r.parent.field] : []),
        ...(r.owner ? [r.owner] : []),
        ...(LINKED[r.name] ?? []),
      ];
      await race(r.name, `/${r.name}/${id}`, pk, id, writableFields(resourceSchema(r.name), exclude));
    }
    for (const r of RESOURCES) {
      for (const sub of r.subResources ?? []) {
        const route = HTTP_ROUTES.find(
          (x) => x.method === 'PATCH' && x.path === `/${r.name}/{id}/${sub}/{subId}`,
        );
        if (!route) continue;
        const parentId = r.itemType ? world.demo.probeItems[r.itemType] : world.demo.probes.get(r.name);
        if (!parentId) continue;
        const pk = keys.subCollection({ companyId }, r.name, parentId, sub);
        const id = newId();
        await putItem(
          { pk, indexes: [], searchFields: [] },
          { _id: id, companyId, name: `Raced ${sub}`, date: '2025-01-01', createdAt: now, updatedAt: now },
        );
        const fields = writableFields(subResourceSchema(r.name, sub), []);
        await race(`${r.name}/${sub}`, `/${r.name}/${parentId}/${sub}/${id}`, pk, id, fields);
      }
    }
    console.log(`raced:\n${raced.join('\n')}\nnot raced: ${skipped.join(', ')}`);
    expect(lost).toEqual([]);
    // A floor, so the loop cannot quietly race nothing: resources whose PATCH is their own call (scheduled
    // reports, targets, kiosks) are raced in their own tests or listed as not raced.
    expect(raced.length).toBeGreaterThanOrEqual(25);
  });
});

/**
 * Races `fields` on one record, each PATCH changing one field, for ROUNDS rounds; answers the changes a
 * read afterwards does not show, as `field@round`.
 */
async function lostChanges(
  path: string,
  fields: Fields,
  read: () => Promise<Record<string, unknown>>,
): Promise<string[]> {
  const lost: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const answers = await Promise.all(
      Object.entries(fields).map(([field, value]) => call('PATCH', path, { [field]: value(round) })),
    );
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const stored = await read();
    for (const [field, value] of Object.entries(fields))
      if (JSON.stringify(stored[field]) !== JSON.stringify(value(round))) lost.push(`${field}@${round}`);
  }
  return lost;
}

describe('roles, report and import templates, and targets keep concurrent PATCHes of different fields', () => {
  const created = async (path: string, body: unknown) => {
    const res = await call('POST', path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return String(res.body._id);
  };
  const readBack = (path: string) => async () => (await call('GET', path)).body;

  it(`a role's name and permissions, ${ROUNDS} rounds`, async () => {
    const id = await created('/roles', { name: 'Raced role', permissions: ['bill_validation'] });
    const lost = await lostChanges(
      `/roles/${id}`,
      {
        name: (n) => `Raced role ${n}`,
        permissions: (n) => (n % 2 === 0 ? ['bill_validation'] : ['bill_validation_v2']),
      },
      async () => {
        const roles = (await call('GET', '/companies/roles')).body;
        const list = (Array.isArray(roles) ? roles : (roles.data as unknown[])) as { _id: string }[];
        return (list.find((r) => r._id === id) ?? {}) as Record<string, unknown>;
      },
    );
    expect(lost).toEqual([]);
  });

  it(`a report template's name and sections, ${ROUNDS} rounds`, async () => {
    const id = await created('/report-templates', {
      name: 'Raced report',
      sections: [{ kind: 'text', title: 'Round 0', text: 'Before the race' }],
    });
    const path = `/report-templates/${id}`;
    const lost = await lostChanges(
      path,
      {
        name: (n) => `Raced report ${n}`,
        sections: (n) => [{ kind: 'text', title: `Round ${n}`, text: `Written in round ${n}` }],
      },
      readBack(path),
    );
    expect(lost).toEqual([]);
  });

  it(`an import template's name, type and columns, ${ROUNDS} rounds`, async () => {
    const id = await created('/import-templates', { name: 'Raced import', type: 'sites', columns: [] });
    const path = `/import-templates/${id}`;
    const lost = await lostChanges(
      path,
      {
        name: (n) => `Raced import ${n}`,
        type: (n) => (n % 2 === 0 ? 'sites' : 'meters'),
        columns: (n) => [`Column ${n}`],
      },
      readBack(path),
    );
    expect(lost).toEqual([]);
  });

  it(`a target's name, reduction, milestones and path, ${ROUNDS} rounds`, async () => {
    const year = new Date().getUTCFullYear();
    const id = await created('/targets', {
      name: 'Raced target',
      scope: 'company',
      measure: 'energy',
      baselineYear: year - 2,
      targetYear: year + 8,
      reductionPercent: 30,
    });
    const path = `/targets/${id}`;
    const lost = await lostChanges(
      path,
      {
        name: (n) => `Raced target ${n}`,
        reductionPercent: (n) => 30 + n,
        milestones: (n) => [{ year: year + 3, reductionPercent: 10 + n }],
        linearPath: (n) => n % 2 === 0,
      },
      readBack(path),
    );
    expect(lost).toEqual([]);
  });
});
