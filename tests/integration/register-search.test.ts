import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putItem, type StoredItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import type { SearchResult } from '../../shared/schemas/register.ts';
import { createCompany, createUser } from '../support/api-fixture.ts';
import { spyOnDynamoCommands } from './dynamo-command-spy.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let api: Api;
let owner: string;
let outsider: string;
let retailUser: string;
const id: Record<string, string> = {};

async function search(query: string, token = owner): Promise<SearchResult[]> {
  const res = await api({
    method: 'GET',
    path: `/global-search/search?query=${encodeURIComponent(query)}`,
    token,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results as SearchResult[];
}

const labels = (results: SearchResult[]) =>
  results.map((r) => `${r.searchType}:${r.legalName ?? r.siteName ?? r.name ?? r.meterPointNumber}`);

/**
 * A new company with one member, `sub`, and a way to write its items straight to the table, as they were
 * written before search kept an index of them.
 */
async function companyBeforeIndexing(name: string, sub: string) {
  const companyId = await createCompany(name);
  await createUser({
    sub,
    email: `${sub}@${sub}.test`,
    companyIds: [companyId],
    permissions: ['company_user'],
  });
  const putUnindexed = (collection: 'entities' | 'assets', item: StoredItem) =>
    putItem(
      { pk: keys.collection({ companyId }, collection), indexes: [], searchFields: [] },
      { ...item, companyId },
    );
  return { token: w.token(sub), putUnindexed };
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  outsider = w.token('outsider');
  id.group = await created(api, owner, '/entities', { legalName: 'Demo Estates Group plc' });
  id.retail = await created(api, owner, '/entities', {
    legalName: 'Demo Estates Retail Ltd',
    parentEntityId: id.group,
  });
  id.offices = await created(api, owner, '/entities', {
    legalName: 'Aldgate Offices Ltd',
    parentEntityId: id.group,
  });
  const site = (
    siteName: string,
    entityId: string,
    streetAddress: string,
    locality: string,
    postCode: string,
  ) =>
    created(api, owner, '/assets', {
      siteName,
      entityId,
      address: { streetAddress, locality, postCode },
      images: [
        { url: `/s3/docs/${siteName}.svg`, isPrimary: false },
        { url: `/s3/docs/${siteName}-main.svg`, thumbUrl: `/s3/docs/${siteName}-thumb.svg`, isPrimary: true },
      ],
    });
  id.aldgate = await site('Aldgate', id.offices as string, '33 Aldgate High Street', 'London', 'EC3N 1DL');
  id.aldgateHouse = await site('Aldgate House', id.offices as string, '1 Minories', 'London', 'EC3N 1AA');
  id.bold = await site('17 Bold Street', id.retail as string, '17 Bold Street', 'Liverpool', 'L1 4DJ');
  id.elec = await created(api, owner, '/accounts', {
    type: 'electricity',
    assetId: id.bold,
    name: 'Bold Street Electricity',
    meterPointNumber: '1312345678907',
  });
  id.sub = await created(api, owner, '/accounts', {
    type: 'electricity',
    assetId: id.bold,
    name: 'Bold Street Tenant',
    meterPointNumber: '1398765432100',
    parentAccountId: id.elec,
    status: 'inactive',
  });
  const nwEntity = await created(api, outsider, '/entities', { legalName: 'Aldgate Northwind Ltd' });
  await created(api, outsider, '/assets', { siteName: 'Aldgate Tower', entityId: nwEntity });
  retailUser = await w.addUser('retail-user', ['entity_user'], {
    entities: { read: [id.retail as string], write: [] },
  });
});

afterAll(async () => w?.stop());

describe('global search', () => {
  it('ranks an exact name first, then names starting with the query (by name), then later words, then other fields', async () => {
    expect(labels(await search('aldgate'))).toEqual([
      'asset:Aldgate',
      'asset:Aldgate House',
      'entity:Aldgate Offices Ltd',
    ]);
    const london = await search('lond');
    expect(labels(london)).toEqual(['asset:Aldgate', 'asset:Aldgate House']);
    expect(labels(await search('street'))).toEqual([
      'asset:17 Bold Street',
      'account:Bold Street Electricity',
      'account:Bold Street Tenant',
      'asset:Aldgate',
    ]);
  });

  it('finds by postcode and meter point number however they are typed', async () => {
    for (const q of ['EC3N 1DL', 'ec3n1dl', 'EC3N1']) {
      expect(labels(await search(q))[0], q).toBe('asset:Aldgate');
    }
    expect(labels(await search('ec3n'))).toEqual(['asset:Aldgate', 'asset:Aldgate House']);
    expect(labels(await search('1312 3456'))).toEqual(['account:Bold Street Electricity']);
  });

  it('answers in the result shape of the specification', async () => {
    const [entity] = await search('demo estates retail');
    expect(entity).toEqual({
      searchType: 'entity',
      sourceId: id.retail,
      legalName: 'Demo Estates Retail Ltd',
      parentEntity: { _id: id.group, legalName: 'Demo Estates Group plc' },
      company: { _id: w.demoId, name: 'Demo Estates Ltd' },
    });
    const [asset] = await search('aldgate house');
    expect(asset).toEqual({
      searchType: 'asset',
      sourceId: id.aldgateHouse,
      siteName: 'Aldgate House',
      addressString: '1 Minories, London, EC3N 1AA',
      primaryImageUrl: '/s3/docs/Aldgate House-thumb.svg',
      entity: { _id: id.offices, legalName: 'Aldgate Offices Ltd' },
      company: { _id: w.demoId, name: 'Demo Estates Ltd' },
    });
    const [account] = await search('1398765432100');
    expect(account).toMatchObject({
      searchType: 'account',
      sourceId: id.sub,
      type: 'electricity',
      name: 'Bold Street Tenant',
      meterPointNumber: '1398765432100',
      status: 'inactive',
      assetId: id.bold,
      parentAccountId: id.elec,
      asset: { _id: id.bold, siteName: '17 Bold Street' },
      entity: { _id: id.retail, legalName: 'Demo Estates Retail Ltd' },
    });
  });

  it('needs at least 3 characters', async () => {
    for (const query of ['', 'al', ' a ', 'a-b']) {
      const res = await api({
        method: 'GET',
        path: `/global-search/search?query=${encodeURIComponent(query)}`,
        token: owner,
      });
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.formMessages as object)).toEqual(['query']);
    }
  });

  it('finds only what the caller may read, and never another company', async () => {
    expect(labels(await search('aldgate', outsider))).toEqual([
      'entity:Aldgate Northwind Ltd',
      'asset:Aldgate Tower',
    ]);
    expect(labels(await search('aldgate', retailUser))).toEqual([]);
    expect(labels(await search('bold', retailUser))).toEqual([
      'account:Bold Street Electricity',
      'account:Bold Street Tenant',
      'asset:17 Bold Street',
    ]);
  });

  it('follows renames, deletes and restores', async () => {
    await api({
      method: 'PATCH',
      path: `/assets/${id.aldgateHouse}`,
      token: owner,
      body: { siteName: 'Minories House' },
    });
    expect(labels(await search('aldgate house'))).toEqual([]);
    expect(labels(await search('minories'))).toEqual(['asset:Minories House']);
    await api({ method: 'DELETE', path: `/assets/${id.aldgateHouse}`, token: owner });
    expect(labels(await search('minories'))).toEqual([]);
    await api({ method: 'PUT', path: `/assets/${id.aldgateHouse}`, token: owner });
    expect(labels(await search('minories'))).toEqual(['asset:Minories House']);
    await api({
      method: 'PATCH',
      path: `/entities/${id.offices}`,
      token: owner,
      body: { legalName: 'City Offices Ltd' },
    });
    expect((await search('minories'))[0]?.entity).toEqual({ _id: id.offices, legalName: 'City Offices Ltd' });
  });

  it('indexes items written before the index existed on first use', async () => {
    const older = await companyBeforeIndexing('Older Co', 'older');
    const now = new Date().toISOString();
    const entityId = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    await older.putUnindexed('entities', {
      _id: entityId,
      legalName: 'Heritage Holdings Ltd',
      parentEntityId: null,
      createdAt: now,
    });
    await older.putUnindexed('assets', {
      _id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
      siteName: 'Heritage Mill',
      entityId,
      createdAt: now,
    });
    expect(labels(await search('heritage', older.token))).toEqual([
      'entity:Heritage Holdings Ltd',
      'asset:Heritage Mill',
    ]);
  });

  it('answers every search from queries and key reads, never a table Scan, first use of a company included', async () => {
    const unindexed = await companyBeforeIndexing('Unindexed Co', 'unindexed');
    await unindexed.putUnindexed('entities', {
      _id: 'cccccccccccccccccccccccc',
      legalName: 'Quarry Holdings Ltd',
      createdAt: '2025-01-01',
    });
    const spy = spyOnDynamoCommands();
    try {
      expect(labels(await search('quarry', unindexed.token))).toEqual(['entity:Quarry Holdings Ltd']);
      expect((await search('aldgate')).length).toBeGreaterThan(0);
      expect((await search('EC3N1DL')).length).toBeGreaterThan(0);
      expect((await search('bold', retailUser)).length).toBeGreaterThan(0);
      for (const type of ['entity', 'asset', 'account'] as const) {
        const res = await api({ method: 'GET', path: `/util/search?query=bold&type=${type}`, token: owner });
        expect(res.status).toBe(200);
      }
      const sent = spy.names();
      // The spy must see the searches' reads, or its silence about Scans would prove nothing.
      expect(sent.filter((n) => n === 'QueryCommand').length).toBeGreaterThan(0);
      expect(sent.filter((n) => /Scan/.test(n))).toEqual([]);
    } finally {
      spy.restore();
    }
  });

  it('lists results of one kind for pickers at /util/search', async () => {
    const res = await api({ method: 'GET', path: '/util/search?query=bold&type=account', token: owner });
    expect(res.body.total).toBe(2);
    expect((res.body.data as SearchResult[]).every((r) => r.searchType === 'account')).toBe(true);
    const bad = await api({ method: 'GET', path: '/util/search?query=bold&type=invoice', token: owner });
    expect(bad.status).toBe(400);
  });
});
