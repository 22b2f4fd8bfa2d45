import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccountMonths } from '../../functions/accounts/index.ts';
import { isValidMpanCore } from '../../shared/domain/mpan.ts';
import { toCsv } from '../../shared/files/csv.ts';
import { type ImportWorld, startImportWorld } from './imports-support.ts';
import { created } from './register-support.ts';

/**
 * Imports that update what exists: rows naming an item by its natural key (a site by name, a meter by
 * MPAN, a contract by meter and start date) change only the fields the file maps, under the rules of
 * PATCH, and a rollback puts the earlier values back unless someone changed the item since.
 *
 *   Demo Estates Offices Ltd   the company's entity; Moorgate and Cheapside are imported under it
 */
let w: ImportWorld;
let owner: string;
let entityId: string;

const utf8 = (text: string) => new TextEncoder().encode(text);
const mpan = (stem: string) =>
  [...'0123456789'].map((d) => `${stem}${d}`).find((m) => isValidMpanCore(m)) as string;

interface Row {
  row: number;
  outcome: string;
  field?: string;
  reason?: string;
  changes?: string[];
}

beforeAll(async () => {
  w = await startImportWorld();
  owner = w.token('owner');
  entityId = await created(w.api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
}, 120_000);
afterAll(() => w?.stop());

/** Uploads a file, maps it as suggested in the given mode and answers the dry run. */
async function dryRun(type: string, csv: string, mode?: 'create' | 'upsert') {
  const id = await w.upload(owner, type, `${type}.csv`, utf8(csv));
  const info = await w.get(owner, `/imports/${id}/info`);
  expect(info.body.fileRead, JSON.stringify(info.body)).toBe(true);
  const mapping = { ...(info.body.suggested as Record<string, unknown>), ...(mode ? { mode } : {}) };
  const saved = await w.post(owner, `/imports/${id}/mapping`, { mapping });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const preview = await w.post(owner, `/imports/${id}/preview`);
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  return { id, totals: preview.body.totals, rows: preview.body.rows as Row[] };
}

const sites = async () =>
  ((await w.get(owner, '/assets?$limit=100')).body.data ?? []) as Record<string, unknown>[];
const site = async (name: string) => (await sites()).find((s) => s.siteName === name);

describe('sites updated by name', () => {
  const header = ['Site name', 'Entity', 'Asset type', 'Street address', 'Postcode'];

  beforeAll(async () => {
    const { id } = await dryRun(
      'sites',
      toCsv([
        header,
        ['Moorgate', 'Demo Estates Offices Ltd', 'Office', '1 Moorgate', 'EC2R 6AR'],
        ['Cheapside', 'Demo Estates Offices Ltd', 'Retail', '2 Cheapside', 'EC2V 6AA'],
      ]),
    );
    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', results: { create: 2 } });
  });

  it('creates only, by default: a row naming an existing site is a duplicate', async () => {
    const { rows } = await dryRun(
      'sites',
      toCsv([header, ['Moorgate', 'Demo Estates Offices Ltd', 'Office', '1 Moorgate', 'EC2R 6AR']]),
    );
    expect(rows[0]).toMatchObject({ outcome: 'error', field: 'siteName' });
  });

  it('previews update, unchanged, create and error; writes only the mapped fields; rolls back unless edited since', async () => {
    const before = await site('Moorgate');
    const { id, rows, totals } = await dryRun(
      'sites',
      toCsv([
        ['Site name', 'Asset type', 'Postcode'],
        ['Moorgate', 'Retail', 'EC2R 6AR'],
        ['Cheapside', 'Retail', 'EC2V 6AA'],
        ['Bold Street', 'Retail', 'L1 4DN'],
        ['Cheapside', 'Castle', 'EC2V 6AA'],
      ]),
      'upsert',
    );
    expect(totals).toMatchObject({ rows: 4, update: 1, unchanged: 1, create: 0, error: 2 });
    expect(rows.map((r) => [r.row, r.outcome, r.changes ?? r.field])).toEqual([
      [2, 'update', ['assetType']],
      // Cheapside appears twice: the first row is unchanged, the second is refused.
      [3, 'unchanged', undefined],
      // A new site still needs every field the wizard asks for.
      [4, 'error', 'entity'],
      [5, 'error', '_row'],
    ]);
    // The dry run wrote nothing.
    expect((await site('Moorgate'))?.assetType).toBe('Office');

    const clean = await dryRun(
      'sites',
      toCsv([
        ['Site name', 'Asset type', 'Postcode'],
        ['Moorgate', 'Retail', 'EC2R 6AR'],
        ['Cheapside', 'Office', 'EC2V 6AA'],
        ['Bold Street', 'Retail', 'L1 4DN'],
      ]),
      'upsert',
    );
    expect(clean.rows.map((r) => [r.row, r.outcome, r.changes ?? r.field])).toEqual([
      [2, 'update', ['assetType']],
      [3, 'update', ['assetType']],
      [4, 'error', 'entity'],
    ]);
    const done = await w.run(owner, clean.id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', results: { update: 2, error: 1 } });
    const after = await site('Moorgate');
    expect(after).toMatchObject({
      assetType: 'Retail',
      siteName: 'Moorgate',
      address: before?.address,
      entityId,
    });
    expect(after?.batchId).toBe(before?.batchId);

    // Cheapside is edited after the import: its rollback keeps it and says so.
    const cheapside = await site('Cheapside');
    const edited = await w.api({
      method: 'PATCH',
      path: `/assets/${cheapside?._id}`,
      token: owner,
      body: { description: 'Corner shop' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);

    const rolled = await w.run(owner, clean.id, 'rollback');
    expect(rolled.body).toMatchObject({
      status: 'rolled-back',
      rollback: { restored: 1, removed: 0, kept: 1 },
    });
    expect((await site('Moorgate'))?.assetType).toBe('Office');
    // The edited site keeps what the import wrote as well as the later edit.
    expect((await site('Cheapside'))?.assetType).toBe('Office');
    const kept = await w.get(owner, `/imports/${clean.id}/items?stage=rollback`);
    expect(kept.body.rows).toEqual([
      {
        row: 3,
        outcome: 'unchanged',
        field: '_id',
        reason: 'Cheapside: Changed since the import, so kept as it is now',
      },
    ]);
    expect(id).not.toBe(clean.id);
  });

  it('refuses to update a site the caller may only read, as PATCH would', async () => {
    const moorgate = String((await site('Moorgate'))?._id);
    await w.addUser('moorgate-reader', ['asset_user'], { assets: { read: [moorgate], write: [] } });
    const { id, rows } = await dryRun(
      'sites',
      toCsv([
        ['Site name', 'Asset type'],
        ['Moorgate', 'Industrial'],
      ]),
      'upsert',
    );
    expect(rows[0]).toMatchObject({ outcome: 'update' });
    const started = await w.post(owner, `/imports/${id}/import`);
    expect(started.status).toBe(202);
    // The claimed import is run as the user who may only read Moorgate.
    await w.drain('imports');
    await w.workOn({ companyId: w.demoId, importId: id, action: 'import', sub: 'moorgate-reader' });
    const done = await w.get(owner, `/imports/${id}`);
    expect(done.body).toMatchObject({ status: 'completed', results: { update: 0, error: 1 } });
    expect((await site('Moorgate'))?.assetType).toBe('Office');
  });
});

describe('meters updated by MPAN and contracts by meter and start date', () => {
  const number = mpan('141234567891');
  let meterId: string;

  beforeAll(async () => {
    const assetId = await created(w.api, owner, '/assets', { siteName: 'Temple', entityId });
    meterId = await created(w.api, owner, '/accounts', {
      type: 'electricity',
      assetId,
      name: 'Temple main',
      meterPointNumber: number,
    });
  });

  it('renames a meter named by its MPAN, and puts the name back on rollback', async () => {
    const { id, rows } = await dryRun(
      'meters',
      toCsv([
        ['MPAN', 'Name'],
        [number, 'Temple incomer'],
      ]),
      'upsert',
    );
    expect(rows).toEqual([{ row: 2, outcome: 'update', changes: ['name'] }]);
    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', results: { update: 1 } });
    const meter = await w.get(owner, `/accounts/${meterId}`);
    expect(meter.body).toMatchObject({
      name: 'Temple incomer',
      meterPointNumber: number,
      type: 'electricity',
    });
    const rolled = await w.run(owner, id, 'rollback');
    expect(rolled.body).toMatchObject({ status: 'rolled-back', rollback: { restored: 1, kept: 0 } });
    expect((await w.get(owner, `/accounts/${meterId}`)).body.name).toBe('Temple main');
  });

  it('updates the contract starting on the same day, and creates one starting on another', async () => {
    const csv = (endDate: string) =>
      toCsv([
        ['MPAN', 'Contract name', 'Start date', 'End date'],
        [number, 'Temple 2025', '01/04/2025', endDate],
      ]);
    const first = await dryRun('contracts', csv('31/03/2026'), 'upsert');
    expect(first.rows).toEqual([{ row: 2, outcome: 'create' }]);
    await w.run(owner, first.id, 'import');
    const again = await dryRun('contracts', csv('31/03/2026'), 'upsert');
    expect(again.rows).toEqual([{ row: 2, outcome: 'unchanged' }]);
    const longer = await dryRun('contracts', csv('31/03/2027'), 'upsert');
    expect(longer.rows).toEqual([{ row: 2, outcome: 'update', changes: ['endDate'] }]);
    await w.run(owner, longer.id, 'import');
    const contracts = (await w.get(owner, `/accounts/${meterId}/contracts?limit=100`)).body.data as Record<
      string,
      unknown
    >[];
    expect(contracts).toHaveLength(1);
    expect(String(contracts[0]?.endDate)).toMatch(/^2027-03-31/);
  });
});

describe('meters known by the serial on the meter', () => {
  it('imports a serial, updates the meter a file names only by it, and takes its consumption by it', async () => {
    await created(w.api, owner, '/assets', { siteName: 'Blackfriars', entityId });
    const number = mpan('141234567892');
    const made = await dryRun(
      'meters',
      toCsv([
        ['Site', 'Type', 'MPAN', 'Meter serial number', 'Name'],
        ['Blackfriars', 'electricity', number, 'K19S 004512', 'Blackfriars main'],
      ]),
    );
    expect(made.rows).toEqual([{ row: 2, outcome: 'create' }]);
    await w.run(owner, made.id, 'import');
    const meters = (await w.get(owner, '/accounts?$limit=100')).body.data as Record<string, unknown>[];
    const meter = meters.find((m) => m.meterPointNumber === number);
    expect(meter).toMatchObject({ name: 'Blackfriars main', meterSerialNumber: 'K19S 004512' });

    // Spaced and cased as another system writes it, and with no MPAN: still the same meter.
    const renamed = await dryRun(
      'meters',
      toCsv([
        ['Serial', 'Name'],
        ['k19s004512', 'Blackfriars incomer'],
      ]),
      'upsert',
    );
    expect(renamed.rows).toEqual([{ row: 2, outcome: 'update', changes: ['name'] }]);
    await w.run(owner, renamed.id, 'import');
    expect((await w.get(owner, `/accounts/${String(meter?._id)}`)).body).toMatchObject({
      name: 'Blackfriars incomer',
      meterPointNumber: number,
    });

    const months = await dryRun(
      'monthly-consumption',
      toCsv([
        ['Meter serial', 'Month', 'kWh', 'Cost'],
        ['K19S004512', '2025-03', '1200', '240'],
      ]),
    );
    expect(months.totals).toMatchObject({ create: 1, error: 0 });
    await w.run(owner, months.id, 'import');
    expect(
      (await listAccountMonths(w.demoId, String(meter?._id), '2025-03', '2025-03')).map((m) => m.consumption),
    ).toEqual([1200]);
  });
});

describe('entities updated by legal name', () => {
  it('gives an entity named by its legal name the company number the file has', async () => {
    await created(w.api, owner, '/entities', { legalName: 'Demo Retail Ltd', parentEntityId: entityId });
    const { id, rows } = await dryRun(
      'entities',
      toCsv([
        ['Legal name', 'Company number'],
        ['Demo Retail Ltd', '01234567'],
      ]),
      'upsert',
    );
    expect(rows).toEqual([{ row: 2, outcome: 'update', changes: ['companyNumber'] }]);
    await w.run(owner, id, 'import');
    const entities = (await w.get(owner, '/entities?$limit=100')).body.data as Record<string, unknown>[];
    expect(entities.find((e) => e.legalName === 'Demo Retail Ltd')).toMatchObject({
      companyNumber: '01234567',
      parentEntityId: entityId,
    });
  });
});
