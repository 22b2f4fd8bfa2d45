import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityNode } from '../../shared/schemas/register.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let api: Api;
let owner: string;
let outsider: string;
let reader: string;
let writer: string;
const ids: Record<string, string> = {};

const CYCLE = 'An entity cannot be moved under itself or one of its own subsidiaries.';

async function structure(token: string): Promise<EntityNode[]> {
  const res = await api({ method: 'GET', path: '/entities/structure', token });
  expect(res.status).toBe(200);
  return res.body.data as EntityNode[];
}

const names = (nodes: EntityNode[]) => nodes.map((n) => n.legalName);

async function entityCount(): Promise<number> {
  const res = await api({ method: 'GET', path: '/entities?limit=1', token: owner });
  return Number(res.body.total);
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  outsider = w.token('outsider');
  ids.group = await created(api, owner, '/entities', { legalName: 'Demo Estates Group plc' });
  for (const name of ['Offices', 'Retail', 'Logistics']) {
    ids[name] = await created(api, owner, '/entities', {
      legalName: `Demo Estates ${name} Ltd`,
      parentEntityId: ids.group,
    });
  }
  ids.shops = await created(api, owner, '/entities', {
    legalName: 'High Street Shops Ltd',
    parentEntityId: ids.Retail,
  });
  for (const [siteName, entity] of [
    ['Aldgate House', 'Offices'],
    ['Temple Quay Point', 'Offices'],
    ['17 Bold Street', 'shops'],
  ] as const) {
    await created(api, owner, '/assets', { siteName, entityId: ids[entity] });
  }
  ids.northwind = await created(api, outsider, '/entities', { legalName: 'Northwind Holdings Ltd' });
  reader = await w.addUser('reader', ['entity_user'], {
    entities: { read: [ids.Retail as string], write: [] },
  });
  writer = await w.addUser('writer', ['entity_user'], {
    entities: { read: [], write: [ids.Retail as string] },
  });
});

afterAll(async () => w?.stop());

describe('the entity tree', () => {
  it('nests the subsidiaries under the group, by name, each with its own and its total assets', async () => {
    const [group, ...others] = await structure(owner);
    expect(others).toEqual([]);
    expect(group?.legalName).toBe('Demo Estates Group plc');
    expect(names(group?.children ?? [])).toEqual([
      'Demo Estates Logistics Ltd',
      'Demo Estates Offices Ltd',
      'Demo Estates Retail Ltd',
    ]);
    const offices = group?.children.find((c) => c._id === ids.Offices);
    const retail = group?.children.find((c) => c._id === ids.Retail);
    expect(offices).toMatchObject({ assetsCount: 2, totalAssetsCount: 2, parentEntityId: ids.group });
    expect(retail).toMatchObject({ assetsCount: 0, totalAssetsCount: 1 });
    expect(names(retail?.children ?? [])).toEqual(['High Street Shops Ltd']);
    expect(group).toMatchObject({ assetsCount: 0, totalAssetsCount: 3, parentEntityId: null });
  });

  it('shows a user with a grant on a subsidiary only that subtree', async () => {
    const tree = await structure(reader);
    expect(names(tree)).toEqual(['Demo Estates Retail Ltd']);
    expect(names(tree[0]?.children ?? [])).toEqual(['High Street Shops Ltd']);
  });

  it('answers a subtree and the ultimate parent, within what the caller may read', async () => {
    const sub = await api({ method: 'GET', path: `/entities/${ids.Retail}/structure`, token: owner });
    expect(sub.body).toMatchObject({ legalName: 'Demo Estates Retail Ltd', totalAssetsCount: 1 });
    const top = await api({ method: 'GET', path: `/entities/${ids.shops}/ultimate-parent`, token: owner });
    expect(top.body).toMatchObject({ _id: ids.group, legalName: 'Demo Estates Group plc' });
    const readerTop = await api({
      method: 'GET',
      path: `/entities/${ids.shops}/ultimate-parent`,
      token: reader,
    });
    expect(readerTop.body).toMatchObject({ _id: ids.Retail });
    const hidden = await api({ method: 'GET', path: `/entities/${ids.group}/structure`, token: reader });
    expect(hidden.status).toBe(404);
  });

  it("answers 404 for another company's entities on every entity call", async () => {
    const calls = [
      { method: 'GET', path: `/entities/${ids.group}` },
      { method: 'GET', path: `/entities/${ids.group}/structure` },
      { method: 'GET', path: `/entities/${ids.group}/ultimate-parent` },
      { method: 'PATCH', path: `/entities/${ids.Retail}`, body: { legalName: 'Taken over' } },
      { method: 'POST', path: `/entities/${ids.Retail}/move`, body: { parentEntityId: null } },
      { method: 'DELETE', path: `/entities/${ids.shops}` },
    ];
    for (const call of calls) {
      const res = await api({ ...call, token: outsider });
      expect(res.status, `${call.method} ${call.path}`).toBe(404);
    }
    expect(names(await structure(outsider))).toEqual(['Northwind Holdings Ltd']);
    const get = await api({ method: 'GET', path: `/entities/${ids.Retail}`, token: owner });
    expect(get.body.legalName).toBe('Demo Estates Retail Ltd');
  });
});

describe('searching entities by legal name', () => {
  it('puts names that start with the query first, then names containing it', async () => {
    const res = await api({ method: 'GET', path: '/entities/search?query=retail', token: owner });
    expect(names(res.body.data as EntityNode[])).toEqual(['Demo Estates Retail Ltd']);
    const shops = await api({ method: 'GET', path: '/entities/search?query=high%20street', token: owner });
    expect(shops.body.data).toMatchObject([
      { legalName: 'High Street Shops Ltd', parentEntity: { _id: ids.Retail } },
    ]);
    const all = await api({ method: 'GET', path: '/entities/search?query=demo', token: owner });
    expect(names(all.body.data as EntityNode[])).toEqual([
      'Demo Estates Group plc',
      'Demo Estates Logistics Ltd',
      'Demo Estates Offices Ltd',
      'Demo Estates Retail Ltd',
    ]);
  });

  it('finds only what the caller may read, and needs a query', async () => {
    const res = await api({ method: 'GET', path: '/entities/search?query=demo', token: reader });
    expect(names(res.body.data as EntityNode[])).toEqual(['Demo Estates Retail Ltd']);
    const none = await api({ method: 'GET', path: '/entities/search?query=northwind', token: owner });
    expect(none.body).toMatchObject({ data: [], total: 0 });
    const empty = await api({ method: 'GET', path: '/entities/search?query=', token: owner });
    expect(empty.status).toBe(400);
  });
});

describe('the new-entity wizard', () => {
  it('refuses bad input field by field and writes nothing', async () => {
    const before = await entityCount();
    const bad = [
      [{}, { legalName: 'This field is required' }],
      [{ legalName: '   ' }, { legalName: 'This field is required' }],
      [{ legalName: 'Ok Ltd', parentEntityId: 'nope' }, { parentEntityId: 'Must be a valid id' }],
      [
        { legalName: 'Ok Ltd', parentEntityId: '0123456789abcdef01234567' },
        { parentEntityId: 'Parent entity not found' },
      ],
      [{ legalName: 'Ok Ltd', parentEntityId: ids.northwind }, { parentEntityId: 'Parent entity not found' }],
      [
        { legalName: 'demo estates retail ltd', parentEntityId: ids.group },
        { legalName: 'An entity with this legal name already exists here.' },
      ],
    ] as const;
    for (const [body, formMessages] of bad) {
      const res = await api({ method: 'POST', path: '/entities/from-wizard', token: owner, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.formMessages).toEqual(formMessages);
    }
    expect(await entityCount()).toBe(before);
  });

  it('adds the entity where the wizard placed it in the tree', async () => {
    const res = await api({
      method: 'POST',
      path: '/entities/from-wizard',
      token: owner,
      body: {
        legalName: 'Demo Estates Residential Ltd',
        companyNumber: '12345678',
        parentEntityId: ids.group,
        address: { streetAddress: '40 Gracechurch Street', locality: 'London', postCode: 'EC3V 0BT' },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ legalName: 'Demo Estates Residential Ltd', parentEntityId: ids.group });
    const [group] = await structure(owner);
    expect(names(group?.children ?? [])).toContain('Demo Estates Residential Ltd');
  });

  it('lets a user with a write grant add under their entity, but not at the top or under a read-only one', async () => {
    const under = await api({
      method: 'POST',
      path: '/entities/from-wizard',
      token: writer,
      body: { legalName: 'Retail Parks Ltd', parentEntityId: ids.Retail },
    });
    expect(under.status).toBe(201);
    const top = await api({
      method: 'POST',
      path: '/entities/from-wizard',
      token: writer,
      body: { legalName: 'Rogue Ltd' },
    });
    expect(top.status).toBe(403);
    const readOnly = await api({
      method: 'POST',
      path: '/entities',
      token: reader,
      body: { legalName: 'Rogue Ltd', parentEntityId: ids.Retail },
    });
    expect(readOnly.status).toBe(403);
  });
});

describe('editing an entity', () => {
  it('clears the company number or address sent as null and keeps the rest, but never the legal name', async () => {
    const id = await created(api, owner, '/entities', {
      legalName: 'Demo Estates Student Ltd',
      companyNumber: '09876543',
      parentEntityId: ids.group,
      address: { streetAddress: '1 Broad Street', locality: 'Bristol', postCode: 'BS1 2EN' },
    });
    const path = `/entities/${id}`;
    const get = async () => (await api({ method: 'GET', path, token: owner })).body;

    const cleared = await api({ method: 'PATCH', path, token: owner, body: { companyNumber: null } });
    expect(cleared.status).toBe(200);
    const afterNumber = await get();
    expect(afterNumber).not.toHaveProperty('companyNumber');
    expect(afterNumber).toMatchObject({
      legalName: 'Demo Estates Student Ltd',
      parentEntityId: ids.group,
      address: { streetAddress: '1 Broad Street', locality: 'Bristol', postCode: 'BS1 2EN' },
    });

    // The address is replaced as a whole, so a field left out of it is gone.
    await api({
      method: 'PATCH',
      path,
      token: owner,
      body: { address: { streetAddress: '1 Broad Street', locality: 'Bristol' } },
    });
    expect((await get()).address).toEqual({ streetAddress: '1 Broad Street', locality: 'Bristol' });
    await api({ method: 'PATCH', path, token: owner, body: { address: null } });
    const bare = await get();
    expect(bare).not.toHaveProperty('address');
    expect(bare).toMatchObject({ legalName: 'Demo Estates Student Ltd', parentEntityId: ids.group });

    for (const body of [{ legalName: null }, { legalName: '  ' }]) {
      const refused = await api({ method: 'PATCH', path, token: owner, body });
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.formMessages).toEqual({ legalName: 'This field is required' });
    }
    expect((await get()).legalName).toBe('Demo Estates Student Ltd');
  });
});

describe('moving an entity within the tree', () => {
  it('refuses to move an entity under itself or one of its subsidiaries, and leaves it where it was', async () => {
    for (const parentEntityId of [ids.Retail, ids.shops]) {
      const res = await api({
        method: 'PATCH',
        path: `/entities/${ids.Retail}`,
        token: owner,
        body: { parentEntityId },
      });
      expect(res.status).toBe(400);
      expect(res.body.formMessages).toEqual({ parentEntityId: CYCLE });
    }
    const viaMove = await api({
      method: 'POST',
      path: `/entities/${ids.group}/move`,
      token: owner,
      body: { parentEntityId: ids.shops },
    });
    expect(viaMove.body.formMessages).toEqual({ parentEntityId: CYCLE });
    const retail = await api({ method: 'GET', path: `/entities/${ids.Retail}`, token: owner });
    expect(retail.body.parentEntityId).toBe(ids.group);
  });

  it('moves a subsidiary under another one, carrying its own subsidiaries along', async () => {
    const res = await api({
      method: 'POST',
      path: `/entities/${ids.shops}/move`,
      token: owner,
      body: { parentEntityId: ids.Offices },
    });
    expect(res.status).toBe(200);
    const [group] = await structure(owner);
    const offices = group?.children.find((c) => c._id === ids.Offices);
    expect(names(offices?.children ?? [])).toEqual(['High Street Shops Ltd']);
    expect(offices?.totalAssetsCount).toBe(3);
    const back = await api({
      method: 'PATCH',
      path: `/entities/${ids.shops}`,
      token: owner,
      body: { parentEntityId: ids.Retail },
    });
    expect(back.body.parentEntityId).toBe(ids.Retail);
  });

  it('keeps a user with a grant from moving an entity out of their reach', async () => {
    const res = await api({
      method: 'POST',
      path: `/entities/${ids.shops}/move`,
      token: writer,
      body: { parentEntityId: ids.Offices },
    });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({ parentEntityId: 'Parent entity not found' });
  });
});

describe('deleting an entity', () => {
  it('refuses while subsidiaries or assets depend on it, and deletes a leaf', async () => {
    const parent = await api({ method: 'DELETE', path: `/entities/${ids.Retail}`, token: owner });
    expect(parent.status).toBe(400);
    expect(parent.body.code).toBe('ENTITY_IN_USE');
    const withAssets = await api({ method: 'DELETE', path: `/entities/${ids.Offices}`, token: owner });
    expect(withAssets.status).toBe(400);
    const leaf = await api({ method: 'DELETE', path: `/entities/${ids.Logistics}`, token: owner });
    expect(leaf.status).toBe(200);
    const [group] = await structure(owner);
    expect(names(group?.children ?? [])).not.toContain('Demo Estates Logistics Ltd');
  });
});
