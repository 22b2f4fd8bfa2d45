import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAccountMonths } from '../../functions/accounts/index.ts';
import { getValidation, invoicesRef, queryIndexed } from '../../functions/invoices/index.ts';
import { isValidMpanCore } from '../../shared/domain/mpan.ts';
import { toCsv } from '../../shared/files/csv.ts';
import { type ImportWorld, startImportWorld } from './imports-support.ts';
import { created } from './register-support.ts';

/**
 * Contracts, meter readings and invoices through the import wizard, POST /accounts/upload-contract-csv
 * with its rollback, and a meter's consumption file queued onto the imports worker.
 *
 *   Aldgate   a site of the company, with the electricity meter ALDGATE
 *   Temple    a site of the company, with the electricity meter TEMPLE
 *   Northwind another company's site, with the electricity meter NORTHWIND
 */
let w: ImportWorld;
let owner: string;
let aldgate: string;
let aldgateMeter: string;
let templeMeter: string;
let otherMeter: string;

const mpan = (stem: string) =>
  [...'0123456789'].map((d) => `${stem}${d}`).find((m) => isValidMpanCore(m)) as string;
const ALDGATE = mpan('141234567891');
const TEMPLE = mpan('141234567892');
const NORTHWIND = mpan('141234567893');
const NOBODY = mpan('141234567899');
const utf8 = (text: string) => new TextEncoder().encode(text);

beforeAll(async () => {
  w = await startImportWorld();
  owner = w.token('owner');
  const entityId = await created(w.api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  aldgate = await created(w.api, owner, '/assets', { siteName: 'Aldgate', entityId });
  const temple = await created(w.api, owner, '/assets', { siteName: 'Temple', entityId });
  aldgateMeter = await created(w.api, owner, '/accounts', {
    type: 'electricity',
    assetId: aldgate,
    name: 'Aldgate supply',
    meterPointNumber: ALDGATE,
  });
  templeMeter = await created(w.api, owner, '/accounts', {
    type: 'electricity',
    assetId: temple,
    name: 'Temple supply',
    meterPointNumber: TEMPLE,
  });
  const outsider = w.token('outsider');
  const otherEntity = await created(w.api, outsider, '/entities', { legalName: 'Northwind Ltd' });
  const otherSite = await created(w.api, outsider, '/assets', {
    siteName: 'Northwind HQ',
    entityId: otherEntity,
  });
  otherMeter = await created(w.api, outsider, '/accounts', {
    type: 'electricity',
    assetId: otherSite,
    name: 'Northwind supply',
    meterPointNumber: NORTHWIND,
  });
}, 120_000);
afterAll(() => w?.stop());

interface Row {
  row: number;
  outcome: string;
  field?: string;
  reason?: string;
}

async function dryRun(type: string, csv: string) {
  const id = await w.upload(owner, type, `${type}.csv`, utf8(csv));
  const preview = await w.post(owner, `/imports/${id}/preview`);
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  return { id, totals: preview.body.totals, rows: preview.body.rows as Row[] };
}

const errorsOf = (rows: Row[]) =>
  Object.fromEntries(rows.filter((r) => r.outcome === 'error').map((r) => [`${r.row}.${r.field}`, r.reason]));

const contractsOf = async (meterId: string) =>
  ((await w.get(owner, `/accounts/${meterId}/contracts?limit=100`)).body.data ?? []) as Record<
    string,
    unknown
  >[];

describe('contracts', () => {
  it('judges rows as POST /accounts/{id}/contracts does, writes nothing in the dry run, and rolls back keeping an edited one', async () => {
    const header = [
      'MPAN',
      'Account id',
      'Contract name',
      'Start date',
      'End date',
      'Renewable',
      'Supplier id',
    ];
    const { id, totals, rows } = await dryRun(
      'contracts',
      toCsv([
        header,
        [ALDGATE, '', 'Aldgate fixed 2025', '01/04/2025', '31/03/2026', 'yes', ''],
        ['', templeMeter, 'Temple fixed 2025', '2025-04-01', '2026-03-31', 'no', ''],
        [ALDGATE, '', 'Backwards', '01/04/2026', '31/03/2025', '', ''],
        ['', otherMeter, 'Borrowed', '01/04/2025', '31/03/2026', '', ''],
        ['', 'ffffffffffffffffffffffff', 'Nobody', '01/04/2025', '31/03/2026', '', ''],
        [NORTHWIND, '', 'Borrowed by number', '01/04/2025', '31/03/2026', '', ''],
        [ALDGATE, '', '', '01/04/2025', '31/03/2026', '', ''],
        [ALDGATE, '', 'Unknown supplier', '01/04/2025', '31/03/2026', '', 'eeeeeeeeeeeeeeeeeeeeeeee'],
      ]),
    );
    expect(totals).toMatchObject({ rows: 8, create: 2, error: 6 });
    expect(errorsOf(rows)).toEqual({
      '4.endDate': 'Must be on or after the start date',
      // Another company's meter reads exactly as one that does not exist.
      '5.accountId': 'No meter of this company has this id',
      '6.accountId': 'No meter of this company has this id',
      '7.meterPointNumber': 'No meter of this company has this meter point number',
      '8.name': 'This field is required',
      '9.supplierId': 'Supplier not found',
    });
    expect(await contractsOf(aldgateMeter)).toEqual([]);

    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', results: { create: 2, error: 6 } });
    const [aldgateContract] = await contractsOf(aldgateMeter);
    expect(aldgateContract).toMatchObject({
      name: 'Aldgate fixed 2025',
      startDate: '2025-04-01',
      endDate: '2026-03-31',
      isRenewable: true,
      status: 'active',
    });
    const [templeContract] = await contractsOf(templeMeter);
    expect(templeContract).toMatchObject({ name: 'Temple fixed 2025', isRenewable: false });
    expect(await contractsOf(otherMeter)).toEqual([]);

    const edited = await w.api({
      method: 'PATCH',
      path: `/accounts/${templeMeter}/contracts/${templeContract?._id}`,
      token: owner,
      body: { notes: 'Renegotiated' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const rolled = await w.run(owner, id, 'rollback');
    expect(rolled.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 1, kept: 1 } });
    expect(await contractsOf(aldgateMeter)).toEqual([]);
    expect((await contractsOf(templeMeter)).map((c) => c.notes)).toEqual(['Renegotiated']);
    const kept = await w.get(owner, `/imports/${id}/items?stage=rollback`);
    expect(kept.body.rows).toEqual([
      { row: 3, outcome: 'unchanged', field: '_id', reason: 'Temple fixed 2025: Changed since the import' },
    ]);
  });

  it("refuses in the worker a row for a meter outside the caller's grants, as one that does not exist", async () => {
    const limited = 'aldgate-only';
    await w.addUser(limited, ['asset_user'], { assets: { read: [aldgate], write: [aldgate] } });
    const { id } = await dryRun(
      'contracts',
      toCsv([
        ['MPAN', 'Name', 'Start', 'End'],
        [ALDGATE, 'Aldgate 2026', '01/04/2026', '31/03/2027'],
        [TEMPLE, 'Temple 2026', '01/04/2026', '31/03/2027'],
      ]),
    );
    const started = await w.post(owner, `/imports/${id}/import`);
    expect(started.status).toBe(202);
    // The claimed import is run as the user whose grants reach Aldgate only.
    await w.drain('imports');
    await w.workOn({ companyId: w.demoId, importId: id, action: 'import', sub: limited });
    const done = await w.get(owner, `/imports/${id}`);
    expect(done.body).toMatchObject({ status: 'completed', results: { create: 1, error: 1 } });
    const failed = await w.get(owner, `/imports/${id}/items?stage=import&outcome=error`);
    expect(failed.body.rows).toEqual([
      {
        row: 3,
        outcome: 'error',
        field: 'meterPointNumber',
        reason: 'No meter of this company has this meter point number',
      },
    ]);
    expect((await contractsOf(templeMeter)).map((c) => c.name)).not.toContain('Temple 2026');
    expect((await contractsOf(aldgateMeter)).map((c) => c.name)).toContain('Aldgate 2026');
  });
});

describe('POST /accounts/upload-contract-csv and /accounts/contract-import-rollback', () => {
  it('refuses a file with a bad row whole, naming the row and field', async () => {
    const res = await w.post(owner, '/accounts/upload-contract-csv', {
      fileName: 'contracts.csv',
      csv: toCsv([
        ['meterPointNumber', 'name', 'startDate', 'endDate'],
        [ALDGATE, 'Aldgate 2027', '2027-04-01', '2028-03-31'],
        [NORTHWIND, 'Borrowed', '2027-04-01', '2028-03-31'],
        [NOBODY, 'Nobody', '2027-04-01', '2028-03-31'],
        [TEMPLE, 'No dates', 'soon', ''],
      ]),
    });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({
      'rows.3.meterPointNumber': 'No meter of this company has this meter point number',
      'rows.4.meterPointNumber': 'No meter of this company has this meter point number',
      'rows.5.startDate': 'Must be a date as YYYY-MM-DD',
      'rows.5.endDate': 'This field is required',
    });
    expect((await contractsOf(aldgateMeter)).map((c) => c.name)).not.toContain('Aldgate 2027');
  });

  it('writes a good file as one batch, which only its own company can roll back', async () => {
    const res = await w.post(owner, '/accounts/upload-contract-csv', {
      fileName: 'contracts.csv',
      csv: toCsv([
        ['meterPointNumber', 'name', 'startDate', 'endDate', 'status'],
        [ALDGATE, 'Aldgate 2028', '01/04/2028', '31/03/2029', 'Inactive'],
        [TEMPLE, 'Temple 2028', '01/04/2028', '31/03/2029', ''],
      ]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ model: 'contracts', created: 2, fileName: 'contracts.csv' });
    expect((await contractsOf(aldgateMeter)).find((c) => c.name === 'Aldgate 2028')).toMatchObject({
      status: 'inactive',
      startDate: '2028-04-01',
    });
    const batchId = String(res.body.batchId);
    const foreign = await w.post(w.token('outsider'), '/accounts/contract-import-rollback', { batchId });
    expect(foreign.status).toBe(404);
    const rolled = await w.post(owner, '/accounts/contract-import-rollback', { batchId });
    expect(rolled.status, JSON.stringify(rolled.body)).toBe(200);
    expect(rolled.body).toMatchObject({ model: 'contracts', removed: 2, kept: [] });
    expect((await contractsOf(templeMeter)).map((c) => c.name)).not.toContain('Temple 2028');
  });
});

describe('readings', () => {
  const readingsOf = async (meterId: string) =>
    ((await w.get(owner, `/readings?accountId=${meterId}&$limit=100`)).body.data ?? []) as Record<
      string,
      unknown
    >[];

  it('judges rows as POST /readings/submit does, and rolls back keeping an edited reading', async () => {
    const stored = await w.post(owner, '/readings/submit', {
      accountId: aldgateMeter,
      date: '2025-03-01',
      value: 1000,
    });
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    const { id, totals, rows } = await dryRun(
      'readings',
      toCsv([
        ['MPAN', 'Read date', 'Reading', 'Type'],
        [ALDGATE, '01/04/2025', '1,250', 'Actual'],
        [ALDGATE, '01/05/2025', '1500', 'Estimate'],
        [ALDGATE, '01/02/2025', '1100', ''],
        [ALDGATE, '01/05/2025', '1600', ''],
        [ALDGATE, '01/01/2099', '9999', ''],
        [NORTHWIND, '01/04/2025', '10', ''],
        [TEMPLE, '01/04/2025', 'lots', ''],
      ]),
    );
    expect(totals).toMatchObject({ rows: 7, create: 2, error: 5 });
    expect(errorsOf(rows)).toEqual({
      '4.value': 'Must not be higher than the next reading (1,000 on 01/03/2025)',
      '5.date': 'The same meter and date as row 3',
      '6.date': 'Must not be in the future',
      '7.meterPointNumber': 'No meter of this company has this meter point number',
      '8.value': 'Must be a number',
    });
    expect(await readingsOf(aldgateMeter)).toHaveLength(1);

    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', results: { create: 2, error: 5 } });
    const readings = await readingsOf(aldgateMeter);
    expect(readings.map((r) => [r.date, r.value, r.isEstimate, r.unit]).sort()).toEqual([
      ['2025-03-01', 1000, false, 'kWh'],
      ['2025-04-01', 1250, false, 'kWh'],
      ['2025-05-01', 1500, true, 'kWh'],
    ]);
    const may = readings.find((r) => r.date === '2025-05-01');
    const edited = await w.api({
      method: 'PUT',
      path: `/readings/${may?._id}/edit-submission`,
      token: owner,
      body: { comment: 'Checked on site' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const rolled = await w.run(owner, id, 'rollback');
    expect(rolled.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 1, kept: 1 } });
    expect((await readingsOf(aldgateMeter)).map((r) => r.date).sort()).toEqual(['2025-03-01', '2025-05-01']);
  });
});

describe('invoices (values without PDFs)', () => {
  it('judges rows as POST /invoices/import does, queues the bills for validation, and rolls them back', async () => {
    const { id, totals, rows } = await dryRun(
      'invoices',
      toCsv([
        ['MPAN', 'Invoice number', 'Period start', 'Period end', 'kWh', 'Total'],
        [ALDGATE, 'INV-1001', '01/01/2025', '31/01/2025', '1200', '£240.00'],
        [TEMPLE, 'INV-1002', '01/01/2025', '31/01/2025', '800', '(12.50)'],
        [ALDGATE, 'INV-1001', '01/01/2025', '31/01/2025', '1200', '£240.00'],
        [NORTHWIND, 'INV-9', '01/01/2025', '31/01/2025', '1', '1'],
        [ALDGATE, 'INV-1003', '31/02/2025', '31/01/2025', '1', 'free'],
      ]),
    );
    expect(totals).toMatchObject({ rows: 5, create: 2, error: 3 });
    expect(errorsOf(rows)).toEqual({
      '4.invoiceNumber': 'The same invoice as row 2',
      '5.meterPointNumber': 'No account has this meter point number',
      '6.startDate': 'Must be a date such as 31/01/2026 or 2026-01-31',
    });
    expect(await queryIndexed(invoicesRef(w.demoId), 'batchId', id)).toEqual([]);

    const done = await w.run(owner, id, 'import');
    expect(done.body).toMatchObject({ status: 'completed', results: { create: 2, error: 3 } });
    const bills = await queryIndexed(invoicesRef(w.demoId), 'batchId', id);
    expect(bills.map((b) => [b.invoiceNumber, b.accountId, b.grossTotal, b.isCreditNote]).sort()).toEqual([
      ['INV-1001', aldgateMeter, 240, false],
      ['INV-1002', templeMeter, -12.5, true],
    ]);
    // Each bill is filed under the name of the file it came from.
    expect(bills.map((b) => b.fileName)).toEqual(['invoices.csv', 'invoices.csv']);
    const queued = (await w.drain('validation')).map((b) => JSON.parse(b).invoiceId).sort();
    expect(queued).toEqual(bills.map((b) => b._id).sort());
    expect(await getValidation(w.demoId, String(bills[0]?._id))).toMatchObject({ status: 'pending' });

    const rolled = await w.run(owner, id, 'rollback');
    expect(rolled.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 2, kept: 0 } });
    const after = await queryIndexed(invoicesRef(w.demoId), 'batchId', id);
    expect(after.every((b) => b.deleted === true)).toBe(true);
    expect(await getValidation(w.demoId, String(bills[0]?._id))).toMatchObject({ deleted: true });
  });
});

describe('POST /accounts/{id}/consumption-import', () => {
  const months = async () =>
    (await listAccountMonths(w.demoId, templeMeter, '2024-01', '2024-12')).map((m) => [
      m.month,
      m.consumption,
    ]);

  it('keeps the file and queues it; the imports worker imports it into the meter named', async () => {
    const csv = toCsv([
      ['Month', 'Consumption', 'MPAN'],
      ['Feb-24', '500', NORTHWIND],
      ['Mar-24', 'lots', ''],
    ]);
    const res = await w.post(owner, `/accounts/${templeMeter}/consumption-import`, {
      fileName: 'temple.csv',
      csv,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({
      status: 'pending',
      accountId: templeMeter,
      type: 'monthly-consumption',
    });
    // Nothing is written until the worker runs.
    expect(await months()).toEqual([]);
    await w.work();
    const id = String(res.body._id);
    const done = await w.get(owner, `/imports/${id}`);
    expect(done.body).toMatchObject({ status: 'completed', results: { create: 1, error: 1 } });
    const failed = await w.get(owner, `/imports/${id}/items?stage=import&outcome=error`);
    expect(failed.body.rows).toMatchObject([
      { row: 3, field: 'consumption', reason: 'lots is not a number' },
    ]);
    // The file's own MPAN column names another company's meter: the row still goes to the meter of the call.
    expect(await months()).toEqual([['2024-02', 500]]);
    expect(await listAccountMonths(w.otherId, otherMeter, '2024-01', '2024-12')).toEqual([]);

    const rolled = await w.run(owner, id, 'rollback');
    expect(rolled.body).toMatchObject({ status: 'rolled-back', rollback: { removed: 1 } });
    expect(await months()).toEqual([]);
  });

  it("answers another company's meter as not found, and a file without rows with 400", async () => {
    const csv = toCsv([
      ['Month', 'Consumption'],
      ['Feb-24', '500'],
    ]);
    const foreign = await w.post(owner, `/accounts/${otherMeter}/consumption-import`, { csv });
    expect(foreign.status).toBe(404);
    const missing = await w.post(owner, '/accounts/ffffffffffffffffffffffff/consumption-import', { csv });
    expect(missing.status).toBe(404);
    const empty = await w.post(owner, `/accounts/${templeMeter}/consumption-import`, {
      csv: 'Month,Consumption\n',
    });
    expect(empty.status).toBe(400);
    expect(await w.drain('imports')).toEqual([]);
  });
});
