import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountMonth, putAccountMonths } from '../../functions/accounts/consumption-repository.ts';
import { putItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { recordGridFetch } from '../../functions/staff-tools/staff-repository.ts';
import { type PublicDataFakes, startPublicDataFakes } from '../../infra/local/fakes/public-data-server.ts';
import type {
  AssetCertificate,
  GasMeterChoices,
  GasPrediction,
  GlobalStats,
  GridfetchUsageReport,
} from '../../shared/schemas/util-staff.ts';
import { createUser } from '../support/api-fixture.ts';
import { spyOnDynamoCommands } from './dynamo-command-spy.ts';
import { MPANS, minimalPdf, PNG_BYTES, putTo } from './register-accounts-support.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let fakes: PublicDataFakes;
let api: Api;
let owner: string;
let outsider: string;
let staff: string;
let siteUser: string;
const id: Record<string, string> = {};

const pad = (n: number) => String(n).padStart(2, '0');
const monthOf = (d: Date) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
const now = new Date();
const thisMonth = monthOf(now);
const monthsAgo = (n: number) => monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1)));

async function putInvoice(companyId: string, at: number, extra: Record<string, unknown> = {}) {
  const _id = newId(at);
  await putItem(
    { pk: keys.collection({ companyId }, 'invoices'), indexes: [], searchFields: [] },
    { _id, companyId, status: 'completed', createdAt: new Date(at).toISOString(), ...extra },
  );
}

beforeAll(async () => {
  w = await startRegisterWorld({ s3: true });
  fakes = await startPublicDataFakes();
  Object.assign(process.env, fakes.env);
  api = w.api;
  owner = w.token('owner');
  outsider = w.token('outsider');
  await createUser({ sub: 'staff', email: 'staff@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  staff = w.token('staff');

  id.group = await created(api, owner, '/entities', { legalName: 'Demo Estates Group plc' });
  const site = (siteName: string, extra: Record<string, unknown> = {}) =>
    created(api, owner, '/assets', {
      siteName,
      entityId: id.group,
      address: { streetAddress: `1 ${siteName} Street`, locality: 'London', postCode: 'EC3N 1DL' },
      ...extra,
    });
  id.aldgate = await site('Aldgate House', {
    epcRating: 'C',
    epc: {
      certificateId: '0210-4567',
      kind: 'non-domestic',
      rating: 62,
      band: 'C',
      lodgementDate: '2019-05-14',
    },
  });
  id.bold = await site('17 Bold Street', {
    epcRating: 'E',
    epc: {
      certificateId: '9900-1111',
      kind: 'non-domestic',
      rating: 118,
      band: 'E',
      lodgementDate: '2013-02-01',
    },
  });
  id.temple = await site('Temple Quay Point', { epcRating: 'D' });
  id.hardman = await site('Hardman Court');
  const gone = await site('Sold Site');
  await api({ method: 'DELETE', path: `/assets/${gone}`, token: owner });
  id.gas = await created(api, owner, '/accounts', { type: 'gas', assetId: id.aldgate, name: 'Aldgate Gas' });
  id.power = await created(api, owner, '/accounts', { type: 'electricity', assetId: id.aldgate });
  id.northwindEntity = await created(api, outsider, '/entities', { legalName: 'Northwind Holdings Ltd' });
  await created(api, outsider, '/assets', { siteName: 'Wakefield 41', entityId: id.northwindEntity });

  const startOfMonth = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  await putInvoice(w.demoId, startOfMonth + 1000);
  await putInvoice(w.demoId, Date.now() - 1000);
  await putInvoice(w.demoId, Date.now() - 500, { deleted: true });
  await putInvoice(w.demoId, startOfMonth - 1000);
  await putInvoice(w.otherId, Date.now() - 2000);

  siteUser = await w.addUser('site-user', ['asset_user'], { assets: { read: [id.bold], write: [] } });
}, 60_000);

afterAll(async () => {
  await fakes?.stop();
  await w?.stop();
});

describe('staff only', () => {
  it('refuses the staff tools to everyone but staff, company owners included', async () => {
    for (const token of [owner, outsider, siteUser]) {
      for (const [method, path] of [
        ['GET', '/util/gridfetch-usage'],
        ['POST', '/util/gridfetch-loa'],
        ['GET', '/util/global-stats'],
        ['POST', '/util/gas-prediction-data'],
        ['GET', `/util/gas-prediction-accounts?companyId=${w.demoId}`],
      ] as const) {
        const res = await api({ method, path, token, body: method === 'POST' ? {} : undefined });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
    }
  });
});

describe('global statistics', () => {
  it('counts every company with no table scan: live items only, and invoices of this month', async () => {
    const spy = spyOnDynamoCommands();
    const res = await api({ method: 'GET', path: '/util/global-stats', token: staff }).finally(() =>
      spy.restore(),
    );
    expect(res.status).toBe(200);
    const sent = spy.names();
    expect(sent.filter((n) => n === 'QueryCommand').length).toBeGreaterThan(0);
    expect(sent.filter((n) => /Scan/.test(n))).toEqual([]);
    const stats = res.body as unknown as GlobalStats;
    expect(stats.month).toBe(thisMonth);
    const demo = stats.companies.find((c) => c._id === w.demoId);
    expect(demo).toEqual({
      _id: w.demoId,
      name: 'Demo Estates Ltd',
      isDemo: true,
      users: 3,
      entities: 1,
      assets: 4,
      accounts: 2,
      invoicesThisMonth: 2,
    });
    expect(stats.companies.find((c) => c._id === w.otherId)).toMatchObject({
      entities: 1,
      assets: 1,
      accounts: 0,
      invoicesThisMonth: 1,
    });
    expect(stats.totals).toEqual({
      companies: 2,
      users: 4,
      entities: 2,
      assets: 5,
      accounts: 2,
      invoicesThisMonth: 3,
    });
  });
});

describe('grid-data fetch usage and letters of authority', () => {
  it('reports fetches per company and month, every month of the range shown', async () => {
    await recordGridFetch(w.demoId, monthsAgo(1), 48 * 30);
    await recordGridFetch(w.demoId, monthsAgo(1), 48 * 30);
    await recordGridFetch(w.demoId, thisMonth, 48);
    await recordGridFetch(w.otherId, monthsAgo(5), 96);
    const res = await api({
      method: 'GET',
      path: `/util/gridfetch-usage?from=${monthsAgo(2)}&to=${thisMonth}`,
      token: staff,
    });
    expect(res.status).toBe(200);
    const report = res.body as unknown as GridfetchUsageReport;
    expect(report.months).toEqual([monthsAgo(2), monthsAgo(1), thisMonth]);
    expect(report.data[0]?.company.name).toBe('Demo Estates Ltd');
    expect(report.data[0]?.months).toEqual([
      { month: monthsAgo(2), fetches: 0, intervals: 0 },
      { month: monthsAgo(1), fetches: 2, intervals: 2880 },
      { month: thisMonth, fetches: 1, intervals: 48 },
    ]);
    expect(report.data.find((d) => d.company._id === w.otherId)?.totals).toEqual({
      fetches: 0,
      intervals: 0,
    });
    expect(report.totals).toEqual({ fetches: 3, intervals: 2928 });

    const one = await api({
      method: 'GET',
      path: `/util/gridfetch-usage?from=${monthsAgo(11)}&companyId=${w.otherId}`,
      token: staff,
    });
    expect((one.body as unknown as GridfetchUsageReport).data.map((d) => d.company._id)).toEqual([w.otherId]);
    expect((one.body as unknown as GridfetchUsageReport).totals.fetches).toBe(1);
    const backwards = await api({
      method: 'GET',
      path: `/util/gridfetch-usage?from=${thisMonth}&to=${monthsAgo(3)}`,
      token: staff,
    });
    expect(backwards.status).toBe(400);
  });

  it('stores an uploaded letter as a PDF under its company and lists it in the report', async () => {
    const ask = await api({
      method: 'POST',
      path: '/util/gridfetch-loa',
      token: staff,
      body: { companyId: w.demoId, fileName: 'LoA Demo Estates.pdf' },
    });
    expect(ask.status).toBe(200);
    expect(ask.body).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'application/pdf' } });
    const pdf = minimalPdf('Letter of authority');
    expect(await putTo(String(ask.body.uploadUrl), pdf, 'application/pdf')).toBe(200);
    const saved = await api({
      method: 'POST',
      path: '/util/gridfetch-loa',
      token: staff,
      body: {
        companyId: w.demoId,
        fileName: 'LoA Demo Estates.pdf',
        key: ask.body.key,
        mpans: [MPANS[0], MPANS[1]],
        validFrom: '2026-01-01',
        validUntil: '2027-12-31',
      },
    });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({
      companyId: w.demoId,
      fileName: 'LoA-Demo-Estates.pdf',
      mpans: [MPANS[0], MPANS[1]],
      validUntil: '2027-12-31',
      uploadedBy: 'staff',
    });
    const report = await api({
      method: 'GET',
      path: `/util/gridfetch-usage?companyId=${w.demoId}`,
      token: staff,
    });
    const [row] = (report.body as unknown as GridfetchUsageReport).data;
    expect(row?.loas.map((l) => l.fileName)).toEqual(['LoA-Demo-Estates.pdf']);
    const download = await fetch(String(row?.loas[0]?.downloadUrl));
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(pdf);
  });

  it('refuses a file that is not a PDF, an upload of another company, a bad MPAN and an unknown company', async () => {
    const ask = await api({
      method: 'POST',
      path: '/util/gridfetch-loa',
      token: staff,
      body: { companyId: w.demoId, fileName: 'scan.pdf' },
    });
    await putTo(String(ask.body.uploadUrl), PNG_BYTES, 'application/pdf');
    const png = await api({
      method: 'POST',
      path: '/util/gridfetch-loa',
      token: staff,
      body: { companyId: w.demoId, fileName: 'scan.pdf', key: ask.body.key },
    });
    expect(png.status).toBe(400);
    expect(png.body.formMessages).toEqual({ file: 'Must be a PDF file' });
    const elsewhere = await api({
      method: 'POST',
      path: '/util/gridfetch-loa',
      token: staff,
      body: { companyId: w.otherId, fileName: 'scan.pdf', key: ask.body.key },
    });
    expect(elsewhere.body.formMessages).toEqual({
      file: 'The uploaded file was not found: please upload it again',
    });
    const mpan = await api({
      method: 'POST',
      path: '/util/gridfetch-loa',
      token: staff,
      body: { companyId: w.demoId, fileName: 'a.pdf', mpans: ['1312345678900'] },
    });
    expect(mpan.body.formMessages).toEqual({ 'mpans.0': 'Must be a valid 13-digit MPAN core' });
    const nobody = await api({
      method: 'POST',
      path: '/util/gridfetch-loa',
      token: staff,
      body: { companyId: newId(), fileName: 'a.pdf' },
    });
    expect(nobody.body.formMessages).toEqual({ companyId: 'No such company' });
  });
});

describe('asset certificates', () => {
  const certificates = async (token: string, query = '') => {
    const res = await api({ method: 'GET', path: `/util/asset-certificates${query}`, token });
    expect(res.status).toBe(200);
    return res.body as {
      data: AssetCertificate[];
      total: number;
      byBand: Record<string, number>;
      withoutCertificate: number;
    };
  };

  it("lists the certificates stored on the caller's sites, with their validity", async () => {
    const list = await certificates(owner);
    expect(list.data).toEqual([
      {
        assetId: id.bold,
        siteName: '17 Bold Street',
        addressString: '1 17 Bold Street Street, London, EC3N 1DL',
        band: 'E',
        certificateId: '9900-1111',
        kind: 'non-domestic',
        rating: 118,
        lodgementDate: '2013-02-01',
        validUntil: '2023-02-01',
        status: 'expired',
      },
      expect.objectContaining({
        siteName: 'Aldgate House',
        band: 'C',
        validUntil: '2029-05-14',
        status: 'valid',
      }),
      {
        assetId: id.temple,
        siteName: 'Temple Quay Point',
        addressString: '1 Temple Quay Point Street, London, EC3N 1DL',
        band: 'D',
        status: 'unknown',
      },
    ]);
    expect(list.byBand).toMatchObject({ C: 1, D: 1, E: 1, A: 0 });
    expect(list.withoutCertificate).toBe(1);
    expect((await certificates(owner, '?band=c')).data.map((c) => c.siteName)).toEqual(['Aldgate House']);
    const wrong = await api({ method: 'GET', path: '/util/asset-certificates?band=H', token: owner });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Invalid query parameter (band: Must be one of A to G)');
  });

  it('shows a user only the sites granted to them, and another company none of these', async () => {
    expect((await certificates(siteUser)).data.map((c) => c.assetId)).toEqual([id.bold]);
    expect((await certificates(outsider)).data).toEqual([]);
  });
});

describe('company logo search', () => {
  it('finds logos through the brand search service', async () => {
    const res = await api({
      method: 'GET',
      path: '/util/company-logo-search?query=british%20gas',
      token: owner,
    });
    expect(res.status).toBe(200);
    const [first] = res.body.data as { name: string; domain: string; logoUrl: string }[];
    expect(first).toMatchObject({ name: 'British Gas Business', domain: 'britishgas.co.uk' });
    const icon = await fetch(first?.logoUrl as string);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('says so when the service fails, and needs a query and a company admin', async () => {
    fakes.fail('brandfetch');
    const failing = await api({ method: 'GET', path: '/util/company-logo-search?query=edf', token: owner });
    fakes.fail('brandfetch', false);
    expect(failing.status).toBe(424);
    expect(failing.body.message).toBe('There was a problem searching for company logos.');
    const empty = await api({ method: 'GET', path: '/util/company-logo-search', token: owner });
    expect(empty.status).toBe(400);
    const user = await api({ method: 'GET', path: '/util/company-logo-search?query=edf', token: siteUser });
    expect(user.status).toBe(403);
  });
});

describe('gas prediction', () => {
  // Degree days of a made-up but plausible UK year, January first.
  const HDD = [390, 330, 300, 220, 140, 60, 25, 30, 80, 190, 290, 360];
  const daysIn = (month: string) => {
    const [y, m] = month.split('-').map(Number) as [number, number];
    return new Date(Date.UTC(y, m, 0)).getUTCDate();
  };
  const hddOf = (month: string) => HDD[Number(month.slice(5, 7)) - 1] as number;
  /** A building using 40 kWh a day plus 25 kWh per degree day, as the model should find out. */
  const truth = (month: string) => 40 * daysIn(month) + 25 * hddOf(month);
  const history = Array.from({ length: 24 }, (_, i) => monthsAgo(24 - i));
  const degreeDays = Object.fromEntries(
    [...history, thisMonth, monthsAgo(-1), monthsAgo(-2)].map((m) => [m, hddOf(m)]),
  );

  beforeAll(async () => {
    const months: AccountMonth[] = history.map((month, i) => ({
      month,
      // The last month is an estimate that is far off: it must not be learnt from.
      consumption: i === history.length - 1 ? truth(month) * 3 : truth(month),
      unit: 'kWh',
      cost: 1,
      currency: 'GBP',
      emissionsKg: 1,
      factorVersion: 'desnz-2025-v1',
      source: i === history.length - 1 ? 'estimate' : 'invoice',
    }));
    await putAccountMonths(w.demoId, id.gas as string, months);
    id.boldGas = await created(api, owner, '/accounts', {
      type: 'gas',
      assetId: id.bold,
      name: 'Bold Street Gas',
      meterPointNumber: '7512345678',
    });
    id.deletedGas = await created(api, owner, '/accounts', {
      type: 'gas',
      assetId: id.bold,
      name: 'Old Gas',
    });
    await api({ method: 'DELETE', path: `/accounts/${id.deletedGas}`, token: owner });
    const wakefield = await created(api, outsider, '/assets', {
      siteName: 'Wakefield 42',
      entityId: id.northwindEntity,
    });
    id.northwindGas = await created(api, outsider, '/accounts', {
      type: 'gas',
      assetId: wakefield,
      name: 'Wakefield Gas',
    });
  });

  const predict = (body: Record<string, unknown>) =>
    api({ method: 'POST', path: '/util/gas-prediction-data', token: staff, body });

  it('learns baseload and heating from stored months and degree days, and predicts each month', async () => {
    const start = `${thisMonth}-01`;
    const end = `${monthsAgo(-2)}-15`;
    const res = await predict({
      accountId: id.gas,
      companyId: w.demoId,
      startDate: start,
      endDate: end,
      degreeDays,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const p = res.body as unknown as GasPrediction;
    expect(p.model).toMatchObject({
      method: 'baseload-and-heating',
      baseloadKwhPerDay: 40,
      kwhPerDegreeDay: 25,
      r2: 1,
      monthsUsed: 23,
      historyFrom: monthsAgo(24),
      historyTo: monthsAgo(1),
    });
    expect(p.months.map((m) => m.predictedKwh)).toEqual([
      truth(thisMonth),
      truth(monthsAgo(-1)),
      Math.round(40 * 15 + (25 * hddOf(monthsAgo(-2)) * 15) / daysIn(monthsAgo(-2))),
    ]);
    expect(p.months[2]?.days).toBe(15);
    expect(p.totalKwh).toBe(p.months.reduce((s, m) => s + m.predictedKwh, 0));
    expect(p.history.map((h) => h.month)).not.toContain(monthsAgo(1));
  });

  it("offers a company's live gas meters with their sites, and none of another company", async () => {
    const choices = (companyId?: string) =>
      api({
        method: 'GET',
        path: `/util/gas-prediction-accounts${companyId ? `?companyId=${companyId}` : ''}`,
        token: staff,
      });
    const demo = await choices(w.demoId);
    expect(demo.status, JSON.stringify(demo.body)).toBe(200);
    const offered = demo.body as unknown as GasMeterChoices;
    // By site, then by name; the electricity meter and the deleted gas meter are not offered.
    expect(offered.data).toEqual([
      expect.objectContaining({
        _id: id.boldGas,
        name: 'Bold Street Gas',
        meterPointNumber: '7512345678',
        assetId: id.bold,
        siteName: '17 Bold Street',
      }),
      expect.objectContaining({
        _id: id.gas,
        name: 'Aldgate Gas',
        assetId: id.aldgate,
        siteName: 'Aldgate House',
      }),
    ]);
    expect(offered.total).toBe(2);
    // The staff member's own company is the default.
    expect((await choices()).body).toEqual(demo.body);
    const northwind = (await choices(w.otherId)).body as unknown as GasMeterChoices;
    expect(northwind.data.map((c) => c._id)).toEqual([id.northwindGas]);

    const unknown = await choices('0123456789abcdef01234567');
    expect(unknown.status).toBe(400);
    expect(unknown.body.formMessages).toEqual({ companyId: 'No such company' });
    const malformed = await choices('not-an-id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.formMessages).toEqual({ companyId: 'Must be a valid id' });
  });

  it('refuses a meter that is unknown, deleted, of another company, or of a company that does not exist', async () => {
    const period = { startDate: `${thisMonth}-01`, endDate: `${thisMonth}-28`, degreeDays };
    for (const [accountId, companyId] of [
      ['0123456789abcdef01234567', w.demoId],
      [id.deletedGas, w.demoId],
      // Another company's gas meter, asked for as the demo company's or as the caller's own.
      [id.northwindGas, w.demoId],
      [id.northwindGas, undefined],
      // The demo company's gas meter, asked for as another company's.
      [id.gas, w.otherId],
    ] as const) {
      const res = await predict({ accountId, ...(companyId ? { companyId } : {}), ...period });
      expect(res.status, `${accountId} of ${companyId}`).toBe(400);
      expect(res.body.formMessages, `${accountId} of ${companyId}`).toEqual({ accountId: 'No such account' });
    }
    const noCompany = await predict({ accountId: id.gas, companyId: '0123456789abcdef01234567', ...period });
    expect(noCompany.status).toBe(400);
    expect(noCompany.body.formMessages).toEqual({ companyId: 'No such company' });
    const badId = await predict({ accountId: 'Aldgate Gas', ...period });
    expect(badId.status).toBe(400);
    expect(badId.body.formMessages).toEqual({ accountId: 'Must be a valid id' });
  });

  it('says which degree days are missing, and refuses accounts that are not gas', async () => {
    const { [monthsAgo(-1)]: _dropped, ...withoutNext } = degreeDays;
    const missing = await predict({
      accountId: id.gas,
      startDate: `${thisMonth}-01`,
      endDate: `${monthsAgo(-1)}-28`,
      degreeDays: withoutNext,
    });
    expect(missing.status).toBe(400);
    expect(missing.body.formMessages).toEqual({ degreeDays: `Give degree days for ${monthsAgo(-1)}` });
    const few = await predict({
      accountId: id.gas,
      startDate: `${thisMonth}-01`,
      endDate: `${thisMonth}-28`,
      degreeDays: { [thisMonth]: 100, [monthsAgo(1)]: 100, [monthsAgo(2)]: 100 },
    });
    expect((few.body.formMessages as Record<string, string>).degreeDays).toMatch(
      /at least 6 months.*: 1 month has both$/,
    );
    const power = await predict({
      accountId: id.power,
      startDate: `${thisMonth}-01`,
      endDate: `${thisMonth}-28`,
      degreeDays,
    });
    expect(power.body.formMessages).toEqual({ accountId: 'Must be a gas account' });
    const backwards = await predict({
      accountId: id.gas,
      startDate: '2026-05-01',
      endDate: '2026-04-01',
      degreeDays,
    });
    expect(backwards.body.formMessages).toEqual({ endDate: 'Must be on or after the start date' });
  });
});
