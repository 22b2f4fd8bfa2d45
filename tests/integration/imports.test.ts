import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccountMonths, listAssetRollups } from '../../functions/accounts/index.ts';
import { listIntervalDays } from '../../functions/analytics/index.ts';
import { serialOf, xlsxOf } from '../support/xlsx-fixture.ts';
import { type ImportWorld, startImportWorld } from './imports-support.ts';
import { created } from './register-support.ts';

/**
 * Spreadsheet imports end to end: signed upload, the worker's first read, mapping, the dry run, the
 * import and its rollback, against the table and an S3 and SQS emulator.
 *
 *   Aldgate electricity  MPAN 1312345678907, on the Aldgate site
 *   Temple gas           MPRN 1234567890, on the Temple site
 *   Northwind main       a meter of another company
 */
let w: ImportWorld;
let owner: string;
const site: Record<string, string> = {};
const meter: Record<string, string> = {};

const cp1252 = (text: string) =>
  new Uint8Array([...text].map((c) => (c === '£' ? 0xa3 : c === 'é' ? 0xe9 : c.charCodeAt(0))));
const utf8 = (text: string) => new TextEncoder().encode(text);
const halfHours = (n: number, v: (i: number) => number) => Array.from({ length: n }, (_, i) => String(v(i)));

beforeAll(async () => {
  w = await startImportWorld();
  owner = w.token('owner');
  const entityId = await created(w.api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  site.Aldgate = await created(w.api, owner, '/assets', { siteName: 'Aldgate', entityId });
  site.Temple = await created(w.api, owner, '/assets', { siteName: 'Temple', entityId });
  meter.Aldgate = await created(w.api, owner, '/accounts', {
    type: 'electricity',
    assetId: site.Aldgate,
    name: 'Aldgate electricity',
    meterPointNumber: '1312345678907',
  });
  meter.Temple = await created(w.api, owner, '/accounts', {
    type: 'gas',
    assetId: site.Temple,
    name: 'Temple gas',
    meterPointNumber: '1234567890',
  });
  const outsider = w.token('outsider');
  const otherEntity = await created(w.api, outsider, '/entities', { legalName: 'Northwind Ltd' });
  const otherSite = await created(w.api, outsider, '/assets', {
    siteName: 'Northwind HQ',
    entityId: otherEntity,
  });
  await created(w.api, outsider, '/accounts', {
    type: 'electricity',
    assetId: otherSite,
    name: 'Northwind main',
  });
}, 120_000);
afterAll(() => w?.stop());

const MONTHLY = [
  'Meter;Month;kWh;Cost',
  '1312345678907;Jan-25;1200;£150.50',
  'Temple gas;01/2025;"3,000";£90.00',
  '1312345678907;Jan-25;1200;£150.50',
  'Northwind main;Feb-25;10;£1',
  '1312345678907;Feb-25;lots;£1',
  '1312345678907;13/2025;5;£1',
  '=HYPERLINK("http://evil.test");Mar-25;1;£1',
].join('\r\n');

const janRollup = async (assetId: string) =>
  (await listAssetRollups(w.demoId, assetId, '2025-01', '2025-01')).find((r) => r.month === '2025-01');

describe('monthly consumption', () => {
  let id: string;

  it('reads the header of a Windows-1252 file and suggests its columns', async () => {
    id = await w.upload(owner, 'monthly-consumption', 'bills £.csv', cp1252(MONTHLY));
    const info = await w.get(owner, `/imports/${id}/info`);
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ fileRead: true, encoding: 'windows-1252', delimiter: ';' });
    expect(info.body.columns).toEqual([
      { index: 0, name: 'Meter' },
      { index: 1, name: 'Month' },
      { index: 2, name: 'kWh' },
      { index: 3, name: 'Cost' },
    ]);
    expect(info.body.suggested).toMatchObject({
      type: 'monthly-consumption',
      columns: { meter: 0, month: 1, consumption: 2, cost: 3 },
      dateFormat: 'DMY',
    });
  });

  it('judges every row in a dry run and writes nothing', async () => {
    const preview = await w.post(owner, `/imports/${id}/preview`);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.totals).toEqual({ rows: 7, create: 2, update: 0, unchanged: 0, error: 5 });
    const byRow = new Map(
      (preview.body.rows as { row: number; outcome: string; field?: string; reason?: string }[]).map((r) => [
        r.row,
        r,
      ]),
    );
    expect(byRow.get(4)).toMatchObject({
      outcome: 'error',
      field: 'meter',
      reason: 'The same meter and period as row 2',
    });
    expect(byRow.get(5)).toMatchObject({ outcome: 'error', field: 'meter' });
    expect(byRow.get(5)?.reason).toMatch(/No meter of this company/);
    expect(byRow.get(6)).toMatchObject({
      outcome: 'error',
      field: 'consumption',
      reason: 'lots is not a number',
    });
    expect(byRow.get(7)).toMatchObject({ outcome: 'error', field: 'month' });
    expect(await listAccountMonths(w.demoId, meter.Aldgate as string, '2025-01', '2025-12')).toEqual([]);
    expect(await janRollup(site.Aldgate as string)).toBeUndefined();
  });

  it('offers the failed rows as CSV with formula-looking cells neutralised', async () => {
    const res = await w.get(owner, `/imports/${id}/failed-rows`);
    expect(res.status).toBe(200);
    const csv = String(res.body.csv);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('imports in the background: months and roll-ups move, status and counts are kept', async () => {
    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', progress: 100, results: { create: 2, error: 5 } });
    const months = await listAccountMonths(w.demoId, meter.Aldgate as string, '2025-01', '2025-12');
    expect(months.map((m) => [m.month, m.consumption, m.cost, m.source])).toEqual([
      ['2025-01', 1200, 150.5, 'import'],
    ]);
    expect((await janRollup(site.Aldgate as string))?.consumption).toBe(1200);
    const items = await w.get(owner, `/imports/${id}/items?stage=import&outcome=create`);
    expect((items.body.rows as { row: number }[]).map((r) => r.row)).toEqual([2, 3]);
  });

  it('rolls back what it created but keeps a month changed since, and reports it', async () => {
    const later = await w.upload(
      owner,
      'monthly-consumption',
      'correction.csv',
      utf8('MPRN,Month,kWh,Cost\n1234567890,2025-01,3500,95\n'),
    );
    const preview = await w.post(owner, `/imports/${later}/preview`);
    expect(preview.body.totals).toMatchObject({ update: 1 });
    expect((await w.run(owner, later, 'import')).body.status).toBe('completed');

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({
      status: 'rolled-back',
      rollback: { removed: 1, restored: 0, kept: 1 },
    });
    const kept = await w.get(owner, `/imports/${id}/items?stage=rollback`);
    expect(kept.body.rows).toEqual([
      expect.objectContaining({
        row: 3,
        reason: expect.stringMatching(/^2025-01: Changed since the import/),
      }),
    ]);
    expect(await listAccountMonths(w.demoId, meter.Aldgate as string, '2025-01', '2025-12')).toEqual([]);
    expect((await janRollup(site.Aldgate as string))?.consumption ?? 0).toBe(0);
    const temple = await listAccountMonths(w.demoId, meter.Temple as string, '2025-01', '2025-01');
    expect(temple.map((m) => m.consumption)).toEqual([3500]);
    expect((await janRollup(site.Temple as string))?.consumption).toBe(3500);
  });

  it('admits only company users, as 01 §6 has it: a user granted one site is refused', async () => {
    const limited = await w.addUser('temple-only', [], {
      assets: { read: [site.Temple as string], write: [site.Temple as string] },
    });
    const res = await w.get(limited, '/imports/upload-url?type=monthly-consumption');
    expect(res.status).toBe(403);
  });
});

describe('half-hourly data', () => {
  it('imports the wide layout, clock-change days included, from an XLSX with merged header cells', async () => {
    const header = Array.from(
      { length: 50 },
      (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
    );
    const book = xlsxOf([
      {
        name: 'Readings',
        rows: [
          ['MPAN', 'Date', 'Half-hourly kWh', ...Array.from({ length: 49 }, () => null)],
          [null, null, ...header],
          ['1312345678907', { date: serialOf('2025-01-06') }, ...halfHours(48, () => 1).map(Number)],
          ['1312345678907', { date: serialOf('2025-03-30') }, ...halfHours(46, () => 2).map(Number)],
          ['1312345678907', { date: serialOf('2025-10-26') }, ...halfHours(50, () => 1).map(Number)],
        ],
        merges: ['A1:A2', 'B1:B2', 'C1:AZ1'],
      },
    ]);
    const id = await w.upload(owner, 'half-hourly-wide', 'hh.xlsx', book);
    const info = await w.get(owner, `/imports/${id}/info`);
    expect(info.body).toMatchObject({
      fileKind: 'xlsx',
      sheet: 'Readings',
      suggested: { type: 'half-hourly-wide' },
    });
    const preview = await w.post(owner, `/imports/${id}/preview`);
    expect(preview.body.totals).toEqual({ rows: 3, create: 3, update: 0, unchanged: 0, error: 0 });
    expect(await listIntervalDays(w.demoId, meter.Aldgate as string, '2025-01-01', '2025-12-31')).toEqual([]);
    expect((await w.run(owner, id, 'import')).body.status).toBe('completed');
    const days = await listIntervalDays(w.demoId, meter.Aldgate as string, '2025-01-01', '2025-12-31');
    expect(days.map((d) => [d.date, d.values.length, d.total])).toEqual([
      ['2025-01-06', 48, 48],
      ['2025-03-30', 46, 92],
      ['2025-10-26', 50, 50],
    ]);
    const again = await w.upload(owner, 'half-hourly-wide', 'hh.xlsx', book);
    expect((await w.post(owner, `/imports/${again}/preview`)).body.totals).toMatchObject({ unchanged: 3 });

    const undone = await w.run(owner, id, 'rollback');
    expect(undone.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 3, kept: 0 } });
    const emptied = await listIntervalDays(w.demoId, meter.Aldgate as string, '2025-01-01', '2025-12-31');
    expect(emptied.map((d) => [d.date, d.total, d.missing])).toEqual([
      ['2025-01-06', 0, 48],
      ['2025-03-30', 0, 46],
      ['2025-10-26', 0, 50],
    ]);
  });

  it('imports the long layout, the repeated hour of the day clocks go back told apart by its offset', async () => {
    const lines = ['MPRN,Timestamp,kWh'];
    const starts = Array.from({ length: 50 }, (_, i) => {
      const utc = new Date(Date.parse('2025-10-25T23:00:00Z') + i * 1_800_000);
      const bst = utc.getTime() < Date.parse('2025-10-26T01:00:00Z');
      const local = new Date(utc.getTime() + (bst ? 3_600_000 : 0)).toISOString().slice(0, 16);
      return `${local}${bst ? '+01:00' : '+00:00'}`;
    });
    for (const [i, s] of starts.entries()) lines.push(`1234567890,${s},${i + 1}`);
    const id = await w.upload(owner, 'half-hourly-long', 'long.csv', utf8(lines.join('\n')));
    const preview = await w.post(owner, `/imports/${id}/preview`);
    expect(preview.body.totals).toEqual({ rows: 50, create: 50, update: 0, unchanged: 0, error: 0 });
    expect((await w.run(owner, id, 'import')).body.status).toBe('completed');
    const [day] = await listIntervalDays(w.demoId, meter.Temple as string, '2025-10-26', '2025-10-26');
    expect(day?.values).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });
});

describe('files that cannot be imported', () => {
  it('says so for an empty file, a file that is not a spreadsheet, and one with only a header', async () => {
    const pdf = await w.upload(
      owner,
      'monthly-consumption',
      'bill.pdf',
      utf8('%PDF-1.7\n\u0000\u0001binary'),
    );
    expect((await w.get(owner, `/imports/${pdf}`)).body).toMatchObject({
      status: 'error',
      error: 'The file is not a spreadsheet: choose a CSV or XLSX file',
    });
    const empty = await w.get(owner, '/imports/upload-url?type=monthly-consumption&size=0');
    expect(empty.status).toBe(400);
    const huge = await w.get(owner, `/imports/upload-url?type=monthly-consumption&size=${200 * 1024 * 1024}`);
    expect(huge.status).toBe(400);
    const blank = await w.upload(owner, 'monthly-consumption', 'blank.csv', utf8('\n\n'));
    expect((await w.get(owner, `/imports/${blank}`)).body).toMatchObject({
      status: 'error',
      error: 'The file is empty',
    });
    const headerOnly = await w.upload(owner, 'monthly-consumption', 'h.csv', utf8('Meter,Month,kWh\n'));
    expect((await w.post(owner, `/imports/${headerOnly}/preview`)).body.totals).toMatchObject({ rows: 0 });
  });

  it('refuses to have an import made or changed other than through its own calls', async () => {
    const id = await w.upload(owner, 'monthly-consumption', 'x.csv', utf8('Meter,Month,kWh\nx,2025-01,1\n'));
    const patched = await w.api({
      method: 'PATCH',
      path: `/imports/${id}`,
      token: owner,
      body: { status: 'completed' },
    });
    expect(patched.status).toBeGreaterThanOrEqual(400);
    expect((await w.get(owner, `/imports/${id}`)).body.status).toBe('pending');
  });

  it('refuses a mapping naming columns the file does not have, or fields the type lacks', async () => {
    const id = await w.upload(owner, 'monthly-consumption', 'm.csv', utf8('Meter,Month,kWh\nx,2025-01,1\n'));
    const res = await w.post(owner, `/imports/${id}/mapping`, {
      mapping: { type: 'monthly-consumption', columns: { meter: 0, month: 1, consumption: 7, colour: 2 } },
    });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toMatchObject({
      'mapping.consumption': 'The file has no such column',
      'mapping.colour': 'Not a field of this import',
    });
  });

  it('remembers a mapping as a template and offers it when the same header returns', async () => {
    const file = utf8('Supply,Billing period,Units\n1312345678907,2025-05,10\n');
    const first = await w.upload(owner, 'monthly-consumption', 'a.csv', file);
    const saved = await w.post(owner, `/imports/${first}/mapping`, {
      mapping: { type: 'monthly-consumption', columns: { meter: 0, month: 1, consumption: 2 } },
      templateName: 'Supplier portal export',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const second = await w.upload(owner, 'monthly-consumption', 'b.csv', file);
    const info = await w.get(owner, `/imports/${second}/info`);
    expect(info.body.templates).toEqual([expect.objectContaining({ name: 'Supplier portal export' })]);
    expect(info.body.suggested).toMatchObject({ columns: { meter: 0, month: 1, consumption: 2 } });
  });
});
