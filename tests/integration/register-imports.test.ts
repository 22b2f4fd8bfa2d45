import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toCsv } from '../../shared/files/csv.ts';
import type { EntityNode } from '../../shared/schemas/register.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let api: Api;
let owner: string;
let outsider: string;
let siteUser: string;
let fullUser: string;
let groupId: string;
let northwindEntity: string;

const CRLF = '\r\n';
const importCsv = (path: string, token: string, csv: string, fileName = 'import.csv') =>
  api({ method: 'POST', path, token, body: { fileName, csv } });
const rollback = (path: string, token: string, batchId: string) =>
  api({ method: 'POST', path, token, body: { batchId } });

async function total(path: string, token = owner): Promise<number> {
  const res = await api({ method: 'GET', path: `${path}?limit=1`, token });
  expect(res.status).toBe(200);
  return Number(res.body.total);
}

async function getItem(path: string, token = owner) {
  return api({ method: 'GET', path, token });
}

/** Whether an item is soft-deleted (its page still answers, with the flag, so it can be restored). */
async function removed(path: string): Promise<boolean> {
  const res = await getItem(path);
  expect(res.status).toBe(200);
  return res.body.deleted === true;
}

function flatten(nodes: EntityNode[]): EntityNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  outsider = w.token('outsider');
  groupId = await created(api, owner, '/entities', { legalName: 'Demo Estates Group plc' });
  await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd', parentEntityId: groupId });
  northwindEntity = await created(api, outsider, '/entities', { legalName: 'Northwind Holdings Ltd' });
  siteUser = await w.addUser('site-user', ['asset_user'], { entities: { read: [], write: [groupId] } });
  fullUser = await w.addUser('full-user', ['company_user_full']);
});

afterAll(async () => w?.stop());

describe('entity import', () => {
  let batchId: string;

  it('creates a group from one file, parents named by legal name in any row order, stamped with the batch', async () => {
    // A byte-order mark, CRLF line ends, a quoted value with a comma and header names in other spellings.
    const csv =
      '\ufeffLegal Name,Company Number,Parent,Street Address,Town,Post Code' +
      CRLF +
      'Demo Retail Shops Ltd,09312499,Demo Estates Retail Ltd,"40 Gracechurch Street, Floor 2",London,EC3V 0BT' +
      CRLF +
      `Demo Estates Retail Ltd,09312461,Demo Estates Group plc,,,${CRLF}` +
      `Demo Estates Logistics Ltd,10458832,Demo Estates Group plc,,,${CRLF}`;
    const res = await importCsv('/entities/import', owner, csv, 'entities.csv');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ model: 'entities', created: 3, fileName: 'entities.csv' });
    batchId = String(res.body.batchId);
    const items = res.body.items as { row: number; _id: string; name: string }[];
    expect(items.map((i) => [i.row, i.name])).toEqual([
      [2, 'Demo Retail Shops Ltd'],
      [3, 'Demo Estates Retail Ltd'],
      [4, 'Demo Estates Logistics Ltd'],
    ]);

    const tree = await api({ method: 'GET', path: '/entities/structure', token: owner });
    const group = (tree.body.data as EntityNode[]).find((n) => n._id === groupId);
    expect(group?.children.map((c) => c.legalName)).toEqual([
      'Demo Estates Logistics Ltd',
      'Demo Estates Offices Ltd',
      'Demo Estates Retail Ltd',
    ]);
    const retail = group?.children.find((c) => c.legalName === 'Demo Estates Retail Ltd');
    expect(retail?.children.map((c) => c.legalName)).toEqual(['Demo Retail Shops Ltd']);

    const shops = await getItem(`/entities/${items[0]?._id}`);
    expect(shops.body).toMatchObject({
      batchId,
      companyNumber: '09312499',
      address: { streetAddress: '40 Gracechurch Street, Floor 2', locality: 'London', postCode: 'EC3V 0BT' },
    });
    const found = await api({
      method: 'GET',
      path: '/global-search/search?query=Demo%20Retail%20Shops',
      token: owner,
    });
    expect((found.body.results as { sourceId: string }[]).map((r) => r.sourceId)).toContain(items[0]?._id);
  });

  it('refuses a file with bad rows, naming each row and field, and creates nothing', async () => {
    const before = await total('/entities');
    const csv = toCsv([
      ['legalName', 'parentEntity', 'parentEntityId', 'companyNumber'],
      ['Good Row Ltd', 'Demo Estates Group plc', '', ''],
      ['', 'Demo Estates Group plc', '', ''],
      ['Orphan Ltd', 'Nobody Ltd', '', ''],
      ['Loop A Ltd', 'Loop B Ltd', '', ''],
      ['Loop B Ltd', 'Loop A Ltd', '', ''],
      ['Demo Estates Offices Ltd', 'Demo Estates Group plc', '', ''],
      ['Stranger Ltd', '', northwindEntity, ''],
      ['Long Number Ltd', '', '', '123456789012345678901'],
    ]);
    const res = await importCsv('/entities/import', owner, csv);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('7 rows have problems: nothing was imported.');
    expect(res.body.formMessages).toEqual({
      'rows.3.legalName': 'This field is required',
      'rows.4.parentEntity': 'No entity called "Nobody Ltd" exists or is in this file',
      'rows.5.parentEntity': 'An entity cannot be moved under itself or one of its own subsidiaries.',
      'rows.6.parentEntity': 'An entity cannot be moved under itself or one of its own subsidiaries.',
      'rows.7.legalName': 'An entity with this legal name already exists here.',
      'rows.8.parentEntityId': 'Parent entity not found',
      'rows.9.companyNumber': expect.stringMatching(/20/),
    });
    expect(await total('/entities')).toBe(before);
  });

  it('refuses a file with unknown columns, bad quoting or no rows, saying what is wrong with it', async () => {
    const unknown = await importCsv('/entities/import', owner, 'legalName,Colour\nA Ltd,red\n');
    expect(unknown.status).toBe(400);
    expect((unknown.body.formMessages as Record<string, string>).file).toMatch(/^Unknown column "Colour"/);
    const quoting = await importCsv('/entities/import', owner, 'legalName\n"Unclosed Ltd\n');
    expect(quoting.status).toBe(400);
    expect((quoting.body.formMessages as Record<string, string>).file).toMatch(/never closed/);
    const empty = await importCsv('/entities/import', owner, 'legalName\r\n\r\n');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('The file has no rows to import below its header.');
    const extra = await importCsv('/entities/import', owner, 'legalName\nA Ltd,extra\n');
    expect(extra.body.formMessages).toEqual({ 'rows.2._row': 'Has 2 values but the header has 1 columns' });
  });

  it('holds to the limits of 5,000 rows and 5 MB with clear messages', async () => {
    const rows = Array.from({ length: 5001 }, (_, i) => `Entity ${i} Ltd`);
    const many = await importCsv('/entities/import', owner, `legalName\n${rows.join('\n')}\n`);
    expect(many.status).toBe(400);
    expect(many.body.message).toBe('The file has more than 5,000 rows: split it into smaller files.');
    const big = await importCsv('/entities/import', owner, `legalName\n${'x'.repeat(5 * 1024 * 1024)}\n`);
    expect(big.status).toBe(400);
    expect(big.body.message).toBe('The file is larger than 5 MB: split it into smaller files.');
  });

  it('refuses a JSON body without its text, a file name too long and a rollback of no batch id, beside the field', async () => {
    const noText = await api({
      method: 'POST',
      path: '/entities/import',
      token: owner,
      body: { fileName: 'a.csv' },
    });
    expect(noText.status).toBe(400);
    expect(noText.body.formMessages).toEqual({ csv: 'Choose a CSV file to import.' });
    const longName = await importCsv(
      '/entities/import',
      owner,
      'legalName\nA Ltd\n',
      `${'n'.repeat(197)}.csv`,
    );
    expect(longName.status).toBe(400);
    expect(longName.body.formMessages).toEqual({
      fileName: 'Too big: expected string to have <=200 characters',
    });
    const notAnId = await rollback('/entities/import-rollback', owner, 'batch-1');
    expect(notAnId.status).toBe(400);
    expect(notAnId.body.formMessages).toEqual({ batchId: 'Must be a valid id' });
  });

  it('takes the file as the request body too, as text/csv', async () => {
    const res = await api({
      method: 'POST',
      path: '/entities/import?fileName=raw.csv',
      token: owner,
      rawBody: `legalName,parentEntity\nRaw Body Ltd,Demo Estates Group plc\n`,
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ created: 1, fileName: 'raw.csv' });
    const undo = await rollback('/entities/import-rollback', owner, String(res.body.batchId));
    expect(undo.body).toMatchObject({ removed: 1, kept: [] });
  });

  it('rolls back only what is unchanged and free: an entity holding a site stays, and so do its parents', async () => {
    const tree = await api({ method: 'GET', path: '/entities/structure', token: owner });
    const all = flatten(tree.body.data as EntityNode[]);
    const shops = all.find((n) => n.legalName === 'Demo Retail Shops Ltd')?._id as string;
    const logistics = all.find((n) => n.legalName === 'Demo Estates Logistics Ltd')?._id as string;
    await created(api, owner, '/assets', { siteName: '17 Bold Street', entityId: shops });

    const res = await rollback('/entities/import-rollback', owner, batchId);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ model: 'entities', removed: 1, alreadyRemoved: 0 });
    expect(res.body.kept).toEqual(
      expect.arrayContaining([
        {
          _id: shops,
          name: 'Demo Retail Shops Ltd',
          reason: 'Has subsidiaries or sites that were not part of the import',
        },
        expect.objectContaining({ name: 'Demo Estates Retail Ltd' }),
      ]),
    );
    expect(await removed(`/entities/${logistics}`)).toBe(true);
    expect(await removed(`/entities/${shops}`)).toBe(false);
    expect(await removed(`/entities/${groupId}`)).toBe(false);
    const log = await api({ method: 'GET', path: `/logs?batchId=${batchId}`, token: owner });
    expect((log.body.data as { type: string }[]).map((l) => l.type).sort()).toEqual([
      'import',
      'import-rollback',
    ]);
  });
});

describe('site import', () => {
  const header = [
    'siteName',
    'entity',
    'assetType',
    'streetAddress',
    'locality',
    'postCode',
    'floorArea',
    'floorAreaUnit',
  ];

  it('creates sites checked like the wizard, with normalised postcodes and floor areas in m²', async () => {
    const csv = toCsv([
      header,
      [
        'Aldgate House',
        'demo estates offices ltd',
        'office',
        '33 Aldgate High Street',
        'London',
        'ec3n1dl',
        '6,240',
        '',
      ],
      [
        'Temple Quay Point',
        'Demo Estates Offices Ltd',
        'Office',
        '1 Temple Quay',
        'Bristol',
        'BS1 6DZ',
        '10000',
        'sq ft',
      ],
    ]);
    const res = await importCsv('/assets/import', owner, csv, 'sites.csv');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ model: 'assets', created: 2 });
    const [aldgate, temple] = res.body.items as { _id: string }[];
    const a = await getItem(`/assets/${aldgate?._id}`);
    expect(a.body).toMatchObject({
      siteName: 'Aldgate House',
      assetType: 'Office',
      status: 'active',
      floorArea: 6240,
      address: { postCode: 'EC3N 1DL', country: 'United Kingdom' },
      batchId: res.body.batchId,
    });
    expect((await getItem(`/assets/${temple?._id}`)).body.floorArea).toBe(929.03);
  });

  it('refuses bad rows per row and field, a site name already taken included, and creates nothing', async () => {
    const before = await total('/assets');
    const csv = toCsv([
      header,
      ['ALDGATE HOUSE', 'Demo Estates Offices Ltd', 'Office', '1 High Street', 'London', 'EC3N 1DL', '', ''],
      ['New Site', 'Northwind Holdings Ltd', 'Office', '1 High Street', 'London', 'EC3N 1DL', '', ''],
      [
        'Castle Site',
        'Demo Estates Offices Ltd',
        'Castle',
        '1 High Street',
        'London',
        'NOT A CODE',
        '-5',
        '',
      ],
      ['Twin', 'Demo Estates Offices Ltd', 'Retail', '1 High Street', 'London', 'EC3N 1DL', '', ''],
      ['twin', 'Demo Estates Offices Ltd', 'Retail', '2 High Street', 'London', 'EC3N 1DL', '', ''],
    ]);
    const res = await importCsv('/assets/import', owner, csv);
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({
      'rows.2.siteName': 'A site with this name already exists',
      'rows.3.entity': 'Choose an entity you manage: no entity is called "Northwind Holdings Ltd"',
      'rows.4.assetType': 'Choose a type of site',
      'rows.4.postCode': 'Must be a valid UK postcode',
      'rows.4.floorArea': 'Must be greater than 0',
      'rows.6.siteName': 'A site with this name already exists',
    });
    expect(await total('/assets')).toBe(before);
  });

  it("never places a site under another company's entity, even named by id", async () => {
    const csv = toCsv([
      ['siteName', 'entityId', 'assetType', 'streetAddress', 'postCode'],
      ['Borrowed Site', northwindEntity, 'Office', '1 High Street', 'EC3N 1DL'],
    ]);
    const res = await importCsv('/assets/import', owner, csv);
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({ 'rows.2.entityId': 'Choose an entity you manage' });
  });

  it('rolls back exactly its own batch: edited sites and sites with meters stay, other batches are untouched', async () => {
    const first = await importCsv(
      '/assets/import',
      owner,
      toCsv([
        ['siteName', 'entity', 'assetType', 'streetAddress', 'postCode'],
        ['Batch One A', 'Demo Estates Offices Ltd', 'Office', '1 A Street', 'EC3N 1DL'],
        ['Batch One B', 'Demo Estates Offices Ltd', 'Office', '2 A Street', 'EC3N 1DL'],
        ['Batch One C', 'Demo Estates Offices Ltd', 'Office', '3 A Street', 'EC3N 1DL'],
        ['Batch One D', 'Demo Estates Offices Ltd', 'Office', '4 A Street', 'EC3N 1DL'],
      ]),
    );
    const second = await importCsv(
      '/assets/import',
      owner,
      toCsv([
        ['siteName', 'entity', 'assetType', 'streetAddress', 'postCode'],
        ['Batch Two A', 'Demo Estates Offices Ltd', 'Office', '9 B Street', 'EC3N 1DL'],
      ]),
    );
    expect([first.status, second.status]).toEqual([201, 201]);
    const [a, b, c, d] = first.body.items as { _id: string }[];
    const [other] = second.body.items as { _id: string }[];
    const edited = await api({
      method: 'PATCH',
      path: `/assets/${b?._id}`,
      token: owner,
      body: { floorArea: 500 },
    });
    expect(edited.status).toBe(200);
    await created(api, owner, '/accounts', { type: 'water', assetId: c?._id, name: 'Batch One C Water' });

    // Another company cannot name the batch at all.
    const foreign = await rollback('/assets/import-rollback', outsider, String(first.body.batchId));
    expect(foreign.status).toBe(404);
    // Nor does the entity rollback take a batch of sites.
    const wrong = await rollback('/entities/import-rollback', owner, String(first.body.batchId));
    expect(wrong.status).toBe(400);

    const res = await rollback('/assets/import-rollback', owner, String(first.body.batchId));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ removed: 2, alreadyRemoved: 0 });
    expect(res.body.kept).toEqual([
      { _id: b?._id, name: 'Batch One B', reason: 'Changed since the import' },
      { _id: c?._id, name: 'Batch One C', reason: 'Has meters or projects added since the import' },
    ]);
    expect(await removed(`/assets/${a?._id}`)).toBe(true);
    expect(await removed(`/assets/${d?._id}`)).toBe(true);
    expect(await removed(`/assets/${b?._id}`)).toBe(false);
    expect(await removed(`/assets/${other?._id}`)).toBe(false);

    const again = await rollback('/assets/import-rollback', owner, String(first.body.batchId));
    expect(again.body).toMatchObject({ removed: 0, alreadyRemoved: 2 });
    const unknown = await rollback('/assets/import-rollback', owner, '0123456789abcdef01234567');
    expect(unknown.status).toBe(404);
  });

  it('imports and rolls back a file of many rows, written and indexed in batches', {
    timeout: 60_000,
  }, async () => {
    const rows = Array.from({ length: 600 }, (_, i) => [
      `Bulk Site ${i}`,
      'Demo Estates Offices Ltd',
      'Warehouse',
      `${i + 1} Bulk Road`,
      'LS1 4AP',
      String(1000 + i),
    ]);
    const csv = toCsv([
      ['siteName', 'entity', 'assetType', 'streetAddress', 'postCode', 'floorArea'],
      ...rows,
    ]);
    const before = await total('/assets');
    const res = await importCsv('/assets/import', owner, csv, 'bulk.csv');
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(600);
    expect(await total('/assets')).toBe(before + 600);
    const found = await api({
      method: 'GET',
      path: '/global-search/search?query=Bulk%20Site%20599',
      token: owner,
    });
    expect((found.body.results as { siteName: string }[])[0]?.siteName).toBe('Bulk Site 599');
    const undo = await rollback('/assets/import-rollback', owner, String(res.body.batchId));
    expect(undo.body).toMatchObject({ removed: 600, kept: [] });
    expect(await total('/assets')).toBe(before);
    const gone = await api({
      method: 'GET',
      path: '/global-search/search?query=Bulk%20Site%20599',
      token: owner,
    });
    expect(gone.body.results).toEqual([]);
  });
});

describe('who may import', () => {
  it('refuses users without company_user, company_user_full and site grants included', async () => {
    const csv = 'legalName\nNot Allowed Ltd\n';
    for (const token of [siteUser, fullUser]) {
      expect((await importCsv('/entities/import', token, csv)).status).toBe(403);
      expect((await importCsv('/assets/import', token, csv)).status).toBe(403);
      expect((await rollback('/assets/import-rollback', token, '0123456789abcdef01234567')).status).toBe(403);
      expect((await rollback('/entities/import-rollback', token, '0123456789abcdef01234567')).status).toBe(
        403,
      );
    }
  });
});
