import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceContribution } from '../../functions/accounts/index.ts';
import { createUser } from '../support/api-fixture.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/**
 * Benchmarks worked by hand. The pathway set has one pathway, United Kingdom offices: carbon 60 kg/m² in
 * 2020 falling 2 a year, energy 200 kWh/m² falling 5 a year.
 *
 *   Aldgate  Office, 1000 m², electricity 10,000 kWh and 4,000 kg in every month of the last two whole
 *            years: 120 kWh/m² and 48 kg/m² a year, flat. Carbon stays above the pathway once 60 − 2n < 48,
 *            n > 6: 2027; energy once 200 − 5n < 120, n > 16: 2037. Two heavy months of the year before
 *            make no whole year, so they neither start the trend nor show.
 *   Temple   Office, no floor area: cannot be benchmarked.
 *   Hardman  no property type, 500 m²: cannot be benchmarked.
 */
let w: RegisterWorld;
let api: Api;
let owner: string;
let staff: string;
let aldgateOnly: string;
let setId: string;
const site: Record<string, string> = {};
const LAST = new Date().getUTCFullYear() - 1;

const get = (path: string, token = owner) => api({ method: 'GET', path, token });

function pathwayCsv(): string {
  const rows = ['Country,Property type,Year,kWh/m²,kgCO2e/m²'];
  for (let n = 0; n <= 30; n++) rows.push(`United Kingdom,Office,${2020 + n},${200 - 5 * n},${60 - 2 * n}`);
  return rows.join('\n');
}

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  owner = w.token('owner');
  await createUser({ sub: 'staff', email: 'admin@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  staff = w.token('staff');
  const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Offices Ltd' });
  const address = { streetAddress: '1 Aldgate', postCode: 'EC3N 1AA', country: 'United Kingdom' };
  site.Aldgate = await created(api, owner, '/assets', {
    siteName: 'Aldgate',
    entityId,
    assetType: 'Office',
    floorArea: 1000,
    address,
  });
  site.Temple = await created(api, owner, '/assets', {
    siteName: 'Temple',
    entityId,
    assetType: 'Office',
    address,
  });
  site.Hardman = await created(api, owner, '/assets', {
    siteName: 'Hardman',
    entityId,
    floorArea: 500,
    address,
  });
  const meter = await created(api, owner, '/accounts', { type: 'electricity', assetId: site.Aldgate });
  const months = [LAST - 1, LAST].flatMap((year) =>
    Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`),
  );
  // The last two months of the year before, far above the rest: not a whole year, so not in the trend.
  const part = [`${LAST - 2}-11`, `${LAST - 2}-12`];
  months.push(...part);
  for (const month of months) {
    await applyInvoiceContribution(
      w.demoId,
      meter,
      site.Aldgate,
      `bill-${month}`,
      {
        month,
        utilityType: 'electricity',
        consumption: part.includes(month) ? 90_000 : 10_000,
        unit: 'kWh',
        cost: 2_000,
        emissionsKg: part.includes(month) ? 36_000 : 4_000,
        factorVersion: 'DESNZ-2025',
      },
      1,
    );
  }
  aldgateOnly = await w.addUser('aldgate-only', ['asset_user'], {
    assets: { read: [site.Aldgate as string], write: [] },
  });
  const upload = await api({
    method: 'POST',
    path: '/benchmarks/crrem/pathway-sets',
    token: staff,
    body: {
      name: 'Test pathways',
      version: '1.0',
      source: 'Worked by hand',
      illustrative: true,
      csv: pathwayCsv(),
    },
  });
  expect(upload.status).toBe(201);
  setId = String(upload.body._id);
});

afterAll(async () => w?.stop());

describe('CRREM pathway sets', () => {
  it('refuses the upload to anyone but staff', async () => {
    const res = await api({
      method: 'POST',
      path: '/benchmarks/crrem/pathway-sets',
      token: owner,
      body: { name: 'Mine', version: '1', source: 'x', csv: pathwayCsv() },
    });
    expect(res.status).toBe(403);
    const sets = (await get('/benchmarks/crrem/pathway-sets')).body.data as { name: string }[];
    expect(sets.map((s) => s.name)).toEqual(['Test pathways']);
  });

  it('refuses a file with a bad row, naming it, and stores nothing', async () => {
    const res = await api({
      method: 'POST',
      path: '/benchmarks/crrem/pathway-sets',
      token: staff,
      body: {
        name: 'Broken',
        version: '1',
        source: 'x',
        csv: `${pathwayCsv()}\nUnited Kingdom,Office,2051,abc,1`,
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('Row 33');
    expect(((await get('/benchmarks/crrem/pathway-sets')).body.data as unknown[]).length).toBe(1);
  });
});

describe('CRREM sites', () => {
  it("gives each site's intensity, gap and misalignment year, with the set's name and version", async () => {
    const res = await get('/benchmarks/crrem/sites');
    expect(res.status).toBe(200);
    expect(res.body.pathwaySet).toMatchObject({
      _id: setId,
      name: 'Test pathways',
      version: '1.0',
      illustrative: true,
    });
    const rows = res.body.sites as { _id: string }[];
    expect(rows.find((r) => r._id === site.Aldgate)).toMatchObject({
      benchmarked: true,
      floorAreaM2: 1000,
      latest: {
        year: LAST,
        kwhM2: 120,
        kgCo2eM2: 48,
        pathwayKgCo2eM2: 60 - 2 * (LAST - 2020),
        carbonGap: 48 - (60 - 2 * (LAST - 2020)),
      },
      misalignment: { year: 2027, carbon: 2027, energy: 2037 },
    });
  });

  it("puts the misalignment year on the site's regulatory calendar, and none for a site it cannot judge", async () => {
    const events = async (id: string) =>
      ((await get(`/calendar/events?assetId=${id}&window=all`)).body.data as { kind: string; date: string }[])
        .filter((e) => e.kind === 'crrem-misalignment')
        .map((e) => e.date);
    expect(await events(site.Aldgate ?? '')).toEqual(['2027-01-01']);
    expect(await events(site.Temple ?? '')).toEqual([]);
  });

  it('lists a site without floor area or property type with what it lacks, not as zero', async () => {
    const rows = (await get('/benchmarks/crrem/sites')).body.sites as { _id: string }[];
    expect(rows.find((r) => r._id === site.Temple)).toMatchObject({
      benchmarked: false,
      missing: ['floorArea'],
    });
    expect(rows.find((r) => r._id === site.Hardman)).toMatchObject({
      benchmarked: false,
      missing: ['propertyType'],
    });
    expect(rows.find((r) => r._id === site.Temple)).not.toHaveProperty('latest');
  });

  it('filters by property type', async () => {
    const rows = (await get('/benchmarks/crrem/sites?propertyType=Office')).body.sites as {
      siteName: string;
    }[];
    expect(rows.map((r) => r.siteName).sort()).toEqual(['Aldgate', 'Temple']);
  });

  it('shows a granted user only the sites they may read', async () => {
    const res = await get('/benchmarks/crrem/sites', aldgateOnly);
    expect(res.status).toBe(200);
    expect(res.body.restricted).toBe(true);
    expect((res.body.sites as { _id: string }[]).map((r) => r._id)).toEqual([site.Aldgate]);
    expect((await get(`/benchmarks/crrem/sites/${site.Temple}`, aldgateOnly)).status).toBe(404);
  });

  it("gives a site's measured and projected intensities beside its pathway to 2050", async () => {
    const res = await get(`/benchmarks/crrem/sites/${site.Aldgate}`);
    expect(res.status).toBe(200);
    const points = res.body.points as { year: number; kgCo2eM2: number; projected: boolean }[];
    expect(points[0]).toMatchObject({ year: LAST - 1, kgCo2eM2: 48, projected: false });
    expect(points.find((p) => p.year === LAST + 1)).toMatchObject({ kgCo2eM2: 48, projected: true });
    expect((res.body.pathway as unknown[]).length).toBe(31);
  });

  it('moves with a bill written after the table was read, and back when the bill is withdrawn', async () => {
    const latest = async () =>
      ((await get('/benchmarks/crrem/sites')).body.sites as { _id: string; latest?: unknown }[]).find(
        (r) => r._id === site.Aldgate,
      )?.latest;
    expect(await latest()).toMatchObject({ kwhM2: 120, kgCo2eM2: 48 });
    // A second bill for March of the last year: 12,000 kWh and 2,000 kg more over 1,000 m².
    const extra = {
      month: `${LAST}-03`,
      utilityType: 'electricity' as const,
      consumption: 12_000,
      unit: 'kWh',
      cost: 2_400,
      emissionsKg: 2_000,
      factorVersion: 'DESNZ-2025',
    };
    const meter = 'meter-extra';
    await applyInvoiceContribution(w.demoId, meter, site.Aldgate, 'bill-extra', extra, 1);
    expect(await latest()).toMatchObject({ year: LAST, kwhM2: 132, kgCo2eM2: 50 });
    await applyInvoiceContribution(w.demoId, meter, site.Aldgate, 'bill-extra', extra, -1);
    expect(await latest()).toMatchObject({ year: LAST, kwhM2: 120, kgCo2eM2: 48 });
  });

  it("divides each year by the floor area in force that year, from the site's history, and refuses overlaps", async () => {
    const patch = (body: unknown) =>
      api({ method: 'PATCH', path: `/assets/${site.Aldgate}`, token: owner, body });
    const overlapping = await patch({
      floorAreaHistory: [
        { from: `${LAST - 1}-01-01`, to: `${LAST - 1}-12-31`, floorAreaM2: 500 },
        { from: `${LAST - 1}-06-01`, floorAreaM2: 800 },
      ],
    });
    expect(overlapping.status).toBe(400);
    expect(JSON.stringify(overlapping.body)).toContain(`Overlaps the period from ${LAST - 1}-01-01`);
    const zero = await patch({ floorAreaHistory: [{ from: `${LAST - 1}-01-01`, floorAreaM2: 0 }] });
    expect(zero.status).toBe(400);
    expect(JSON.stringify(zero.body)).toContain('Must be greater than 0');

    // 120,000 kWh and 48,000 kg over 500 m² the year before last: 240 kWh/m², 96 kg/m²; the last year keeps
    // the site's 1,000 m².
    expect(
      (
        await patch({
          floorAreaHistory: [{ from: `${LAST - 1}-01-01`, to: `${LAST - 1}-12-31`, floorAreaM2: 500 }],
        })
      ).status,
    ).toBe(200);
    const points = (await get(`/benchmarks/crrem/sites/${site.Aldgate}`)).body.points as {
      year: number;
      kwhM2: number;
      kgCo2eM2: number;
      floorAreaM2: number;
    }[];
    expect(points.slice(0, 2).map((p) => [p.year, p.kwhM2, p.kgCo2eM2, p.floorAreaM2])).toEqual([
      [LAST - 1, 240, 96, 500],
      [LAST, 120, 48, 1000],
    ]);
    expect((await patch({ floorAreaHistory: null })).status).toBe(200);
    const restored = (await get(`/benchmarks/crrem/sites/${site.Aldgate}`)).body.points as {
      kgCo2eM2: number;
    }[];
    expect(restored[0]?.kgCo2eM2).toBe(48);
  });
});

describe('energy benchmarks', () => {
  it('places sites against the LETI target of their type, with its source', async () => {
    await created(api, staff, '/benchmarks', {
      name: 'LETI offices',
      kind: 'leti',
      propertyType: 'Office',
      values: { target: 55 },
      source: 'Worked by hand',
      period: '2020',
      illustrative: true,
    });
    const res = await get('/benchmarks/leti/sites');
    expect(res.status).toBe(200);
    expect(res.body.benchmarks).toMatchObject([
      { propertyType: 'Office', target: 55, source: 'Worked by hand', period: '2020', illustrative: true },
    ]);
    const rows = res.body.sites as { _id: string }[];
    expect(rows.find((r) => r._id === site.Aldgate)).toMatchObject({
      year: LAST,
      kwhM2: 120,
      comparison: { rating: 'above-target', gap: 65, reference: 'target' },
    });
    expect(rows.find((r) => r._id === site.Temple)).toMatchObject({ missing: ['floorArea'] });
    expect((await get('/benchmarks/leti/sites', aldgateOnly)).body.sites).toHaveLength(1);
  });

  it('knows no other kind of benchmark', async () => {
    expect((await get('/benchmarks/nabers/sites')).status).toBe(404);
  });
});
