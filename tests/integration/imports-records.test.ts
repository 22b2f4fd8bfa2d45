import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccountMonths } from '../../functions/accounts/index.ts';
import { isValidMpanCore } from '../../shared/domain/mpan.ts';
import { toCsv } from '../../shared/files/csv.ts';
import { type ImportWorld, startImportWorld } from './imports-support.ts';
import { created } from './register-support.ts';

/**
 * Sites, entities and meters through the import wizard (upload → mapping → dry run → import →
 * rollback): each row judged by the rules and with the messages of the resource's own create call.
 *
 *   Demo Estates Offices Ltd   the company's entity, holding the site Aldgate
 *   Northwind Ltd              another company's entity, holding Northwind HQ
 */
let w: ImportWorld;
let owner: string;
let entityId: string;
let aldgate: string;
let otherEntity: string;
let otherSite: string;

const utf8 = (text: string) => new TextEncoder().encode(text);
/** A valid MPAN core: the stem with the check digit that makes it one. */
const mpan = (stem: string) =>
  [...'0123456789'].map((d) => `${stem}${d}`).find((m) => isValidMpanCore(m)) as string;

beforeAll(async () => {
  w = await startImportWorld();
  owner = w.token('owner');
  entityId = await created(w.api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  aldgate = await created(w.api, owner, '/assets', { siteName: 'Aldgate', entityId });
  const outsider = w.token('outsider');
  otherEntity = await created(w.api, outsider, '/entities', { legalName: 'Northwind Ltd' });
  otherSite = await created(w.api, outsider, '/assets', { siteName: 'Northwind HQ', entityId: otherEntity });
  await created(w.api, outsider, '/accounts', {
    type: 'water',
    assetId: otherSite,
    name: 'Northwind water',
  });
}, 120_000);
afterAll(() => w?.stop());

interface Row {
  row: number;
  outcome: string;
  field?: string;
  reason?: string;
}

/** Uploads a file, keeps the suggested mapping and answers the dry run's rows and totals. */
async function dryRun(type: string, csv: string) {
  const id = await w.upload(owner, type, `${type}.csv`, utf8(csv));
  const info = await w.get(owner, `/imports/${id}/info`);
  expect(info.body.fileRead, JSON.stringify(info.body)).toBe(true);
  const preview = await w.post(owner, `/imports/${id}/preview`);
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  return {
    id,
    totals: preview.body.totals,
    rows: preview.body.rows as Row[],
    suggested: info.body.suggested as { columns: Record<string, number> },
  };
}

const errorsOf = (rows: Row[]) =>
  Object.fromEntries(rows.filter((r) => r.outcome === 'error').map((r) => [`${r.row}.${r.field}`, r.reason]));

const liveSiteNames = async () =>
  (((await w.get(owner, '/assets?$limit=100')).body.data ?? []) as { siteName: string }[]).map(
    (s) => s.siteName,
  );

describe('sites', () => {
  const header = ['Site name', 'Entity', 'Asset type', 'Street address', 'Postcode', 'Floor area'];

  it('reports bad rows with the messages of the site wizard, and writes nothing in the dry run', async () => {
    const before = await liveSiteNames();
    const { totals, rows, suggested } = await dryRun(
      'sites',
      toCsv([
        header,
        ['Bold Street', 'Demo Estates Offices Ltd', 'Retail', '17 Bold Street', 'L1 4DN', '420'],
        ['aldgate', 'Demo Estates Offices Ltd', 'Office', '1 High Street', 'EC3N 1DL', ''],
        ['Castle', 'Demo Estates Offices Ltd', 'Castle', '1 High Street', 'NOT A CODE', '-5'],
        ['Borrowed', 'Northwind Ltd', 'Office', '1 High Street', 'EC3N 1DL', ''],
      ]),
    );
    expect(suggested.columns).toMatchObject({ siteName: 0, entity: 1, assetType: 2, postCode: 4 });
    expect(totals).toMatchObject({ rows: 4, create: 1, error: 3 });
    expect(errorsOf(rows)).toEqual({
      '3.siteName': 'A site with this name already exists',
      '4.assetType': 'Choose a type of site',
      '5.entity': 'Choose an entity you manage: no entity is called "Northwind Ltd"',
    });
    expect(await liveSiteNames()).toEqual(before);
  });

  it("refuses another company's entity named by id", async () => {
    const { rows } = await dryRun(
      'sites',
      toCsv([
        ['siteName', 'entityId', 'assetType', 'streetAddress', 'postCode'],
        ['Borrowed Site', otherEntity, 'Office', '1 High Street', 'EC3N 1DL'],
      ]),
    );
    expect(errorsOf(rows)).toEqual({ '2.entityId': 'Choose an entity you manage' });
  });

  it('imports the good rows and rolls them back, keeping a site edited since', async () => {
    const { id } = await dryRun(
      'sites',
      toCsv([
        header,
        ['Moorgate', 'Demo Estates Offices Ltd', 'Office', '1 Moorgate', 'EC2R 6AR', '1000'],
        ['Cheapside', 'Demo Estates Offices Ltd', 'Retail', '2 Cheapside', 'EC2V 6AA', ''],
        ['Bad Row', 'Demo Estates Offices Ltd', 'Castle', '1 High Street', 'EC3N 1DL', ''],
      ]),
    );
    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', results: { create: 2, error: 1 } });
    const sites = ((await w.get(owner, '/assets?$limit=100')).body.data ?? []) as Record<string, string>[];
    const moorgate = sites.find((s) => s.siteName === 'Moorgate');
    expect(moorgate).toMatchObject({ assetType: 'Office', batchId: id, entityId });
    expect(sites.some((s) => s.siteName === 'Cheapside')).toBe(true);

    const edited = await w.api({
      method: 'PATCH',
      path: `/assets/${sites.find((s) => s.siteName === 'Cheapside')?._id}`,
      token: owner,
      body: { description: 'Corner shop' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    const rolled = await w.run(owner, id, 'rollback');
    expect(rolled.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 1, kept: 1 } });
    const names = await liveSiteNames();
    expect(names).not.toContain('Moorgate');
    expect(names).toContain('Cheapside');
    const kept = await w.get(owner, `/imports/${id}/items?stage=rollback`);
    expect(kept.body.rows).toEqual([
      { row: 3, outcome: 'unchanged', field: '_id', reason: 'Cheapside: Changed since the import' },
    ]);
  });
});

describe('entities', () => {
  it('creates a group in any row order, reports a child of a bad row, and rolls back', async () => {
    const { id, rows, totals } = await dryRun(
      'entities',
      toCsv([
        ['Legal name', 'Parent entity', 'Company number'],
        ['Demo Retail Shops Ltd', 'Demo Retail Ltd', ''],
        ['Demo Retail Ltd', 'Demo Estates Offices Ltd', ''],
        ['', 'Demo Estates Offices Ltd', ''],
        ['Orphan Ltd', 'Nobody Ltd', ''],
        ['Child Of Orphan Ltd', 'Orphan Ltd', ''],
      ]),
    );
    expect(totals).toMatchObject({ rows: 5, create: 2, error: 3 });
    expect(errorsOf(rows)).toEqual({
      '4.legalName': 'This field is required',
      '5.parentEntity': 'No entity called "Nobody Ltd" exists or is in this file',
      '6.parentEntity': 'Its parent entity, in another row of this file, cannot be imported',
    });
    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', results: { create: 2 } });
    const tree = await w.get(owner, '/entities?$limit=100');
    const names = (tree.body.data as { legalName: string }[]).map((e) => e.legalName);
    expect(names).toEqual(expect.arrayContaining(['Demo Retail Ltd', 'Demo Retail Shops Ltd']));
    const rolled = await w.run(owner, id, 'rollback');
    expect(rolled.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 2, kept: 0 } });
    const after = await w.get(owner, '/entities?$limit=100');
    expect((after.body.data as { legalName: string }[]).map((e) => e.legalName)).not.toContain(
      'Demo Retail Ltd',
    );
  });

  it("refuses another company's entity as a parent", async () => {
    const { rows } = await dryRun(
      'entities',
      toCsv([
        ['legalName', 'parentEntityId'],
        ['Cuckoo Ltd', otherEntity],
      ]),
    );
    expect(errorsOf(rows)).toEqual({ '2.parentEntityId': 'Parent entity not found' });
  });
});

describe('meters', () => {
  const first = mpan('131234567891');
  const second = mpan('131234567892');

  it('judges rows as the account wizard does, and imports and rolls back the good ones', async () => {
    const { id, rows, totals } = await dryRun(
      'meters',
      toCsv([
        ['Site', 'Utility', 'MPAN', 'Name'],
        ['Aldgate', 'Electricity', first, 'Aldgate main'],
        ['Aldgate', 'electricity', second, 'Aldgate lifts'],
        ['Aldgate', 'electricity', first, 'Aldgate twin'],
        ['Aldgate', 'electricity', '1234', 'Aldgate bad'],
        ['Aldgate', 'gas', '', 'Aldgate gas'],
        ['Nowhere', 'water', '', 'Lost water'],
        ['Aldgate', 'steam', '', 'Steam'],
      ]),
    );
    expect(totals).toMatchObject({ rows: 7, create: 2, error: 5 });
    const errors = errorsOf(rows);
    expect(errors).toMatchObject({
      '4.meterPointNumber': 'An account with this meter point number already exists (row 2)',
      '6.meterPointNumber': 'A meter point number is required for this utility',
      '7.site': 'Asset not found: no site is called "Nowhere"',
    });
    expect(errors['5.meterPointNumber']).toMatch(/MPAN/);
    expect(errors['8.type']).toBeDefined();

    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', results: { create: 2, error: 5 } });
    const meters = (await w.get(owner, '/accounts?$limit=100')).body.data as Record<string, unknown>[];
    expect(meters.find((m) => m.meterPointNumber === first)).toMatchObject({
      name: 'Aldgate main',
      assetId: aldgate,
      unit: 'kWh',
      batchId: id,
    });
    const rolled = await w.run(owner, id, 'rollback');
    expect(rolled.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 2, kept: 0 } });
    const after = (await w.get(owner, '/accounts?$limit=100')).body.data as Record<string, unknown>[];
    expect(after.some((m) => m.meterPointNumber === first)).toBe(false);
  });

  it("refuses another company's site named by id", async () => {
    const { rows } = await dryRun(
      'meters',
      toCsv([
        ['assetId', 'type', 'name'],
        [otherSite, 'water', 'Borrowed water'],
      ]),
    );
    expect(errorsOf(rows)).toEqual({ '2.assetId': 'Asset not found' });
  });
});

describe('POST /accounts/upload-csv and /accounts/import-rollback', () => {
  const third = mpan('131234567893');

  it('refuses a file with bad rows whole, with the messages per row and field', async () => {
    const res = await w.post(owner, '/accounts/upload-csv', {
      fileName: 'meters.csv',
      csv: toCsv([
        ['site', 'type', 'meterPointNumber'],
        ['Aldgate', 'electricity', third],
        ['Aldgate', 'gas', ''],
        [otherSite, 'water', ''],
      ]),
    });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({
      'rows.3.meterPointNumber': 'A meter point number is required for this utility',
      'rows.4.site': `Asset not found: no site is called "${otherSite}"`,
    });
  });

  it('creates the meters of a good file, and rolls back the batch', async () => {
    const res = await w.post(owner, '/accounts/upload-csv', {
      fileName: 'meters.csv',
      csv: toCsv([
        ['site', 'type', 'meterPointNumber', 'name'],
        ['Aldgate', 'electricity', third, 'Aldgate chiller'],
        ['Aldgate', 'water', '', 'Aldgate water'],
      ]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ model: 'accounts', created: 2, fileName: 'meters.csv' });
    const batchId = String(res.body.batchId);
    const rolled = await w.post(owner, '/accounts/import-rollback', { batchId });
    expect(rolled.status).toBe(200);
    expect(rolled.body).toMatchObject({ model: 'accounts', removed: 2, kept: [] });
    const again = await w.post(w.token('outsider'), '/accounts/import-rollback', { batchId });
    expect(again.status).toBe(404);
  });
});

describe('POST /consumptions/upload', () => {
  const supply = mpan('131234567894');
  let meterId: string;
  const months = async () =>
    (await listAccountMonths(w.demoId, meterId, '2025-01', '2025-12')).map((m) => [m.month, m.consumption]);

  beforeAll(async () => {
    meterId = await created(w.api, owner, '/accounts', {
      type: 'electricity',
      assetId: aldgate,
      name: 'Aldgate supply',
      meterPointNumber: supply,
    });
  });

  it('imports a file at once, answers its failed rows, and is rolled back as an import', async () => {
    const res = await w.post(owner, '/consumptions/upload', {
      fileName: 'bills.csv',
      csv: toCsv([
        ['Meter', 'Month', 'kWh', 'Cost'],
        [supply, 'Jan-25', '1200', '£150.50'],
        [supply, '13/2025', '5', '1'],
        ['Northwind water', 'Jan-25', '10', '1'],
      ]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: 'completed', results: { create: 1, error: 2 } });
    expect(res.body.errors).toEqual([
      { row: 3, outcome: 'error', field: 'month', reason: '13/2025 is not a month', meter: supply },
      {
        row: 4,
        outcome: 'error',
        field: 'meter',
        reason: 'No meter of this company has this MPAN, MPRN, serial number or name',
        meter: 'Northwind water',
      },
    ]);
    expect(await months()).toEqual([['2025-01', 1200]]);
    const rolled = await w.run(owner, String(res.body._id), 'rollback');
    expect(rolled.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 1 } });
    expect(await months()).toEqual([]);
  });

  it('says what is wrong with a file that cannot be read', async () => {
    const res = await w.post(owner, '/consumptions/upload', { csv: '\u0000\u0001binary' });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toHaveProperty('file');
  });
});

describe('the log: an import file, and the undo of a deletion', () => {
  const logsOf = async (type: string) =>
    ((await w.get(owner, `/logs?type=${type}&$limit=100`)).body.data ?? []) as Record<string, string>[];

  it("hands out the file an import read, to the company's own log readers only", async () => {
    const csv = toCsv([
      ['Meter', 'Month', 'kWh'],
      ['Aldgate supply', 'Apr-25', '10'],
    ]);
    const res = await w.post(owner, '/consumptions/upload', { fileName: 'april.csv', csv });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const log = (await logsOf('import')).find((l) => l.batchId === res.body._id);
    expect(log).toBeDefined();
    const file = await w.get(owner, `/logs/${log?._id}/attachment`);
    expect(file.status, JSON.stringify(file.body)).toBe(200);
    expect(file.body.fileName).toBe('april.csv');
    expect(await (await fetch(String(file.body.url))).text()).toBe(csv);
    const foreign = await w.get(w.token('outsider'), `/logs/${log?._id}/attachment`);
    expect(foreign.status).toBe(404);
  });

  it('brings a deleted site back once, and only for its own company', async () => {
    const siteId = await created(w.api, owner, '/assets', { siteName: 'Short Lived', entityId });
    const del = await w.api({ method: 'DELETE', path: `/assets/${siteId}`, token: owner });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(await liveSiteNames()).not.toContain('Short Lived');
    const log = (await logsOf('delete')).find((l) => l.modelId === siteId);
    expect(log).toMatchObject({ model: 'assets' });
    const foreign = await w.post(w.token('outsider'), `/logs/${log?._id}/delete-rollback`, {});
    expect(foreign.status).toBe(404);
    const back = await w.post(owner, `/logs/${log?._id}/delete-rollback`, {
      modelId: siteId,
      type: 'assets',
    });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(await liveSiteNames()).toContain('Short Lived');
    const again = await w.post(owner, `/logs/${log?._id}/delete-rollback`, {});
    expect(again.status).toBe(409);
    const restoreLog = (await logsOf('restore')).find((l) => l.modelId === siteId);
    expect(restoreLog).toMatchObject({ model: 'assets' });
  });
});
