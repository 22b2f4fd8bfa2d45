import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyInvoiceContribution } from '../../functions/accounts/index.ts';
import { changeAsset } from '../../functions/assets/asset-records.ts';
import { IMPORT_PLACING } from '../../functions/assets/external-data-service.ts';
import { migrateCompanyFloorAreas } from '../../functions/assets/floor-area-migration.ts';
import { lookupPostcodes } from '../../functions/core/adapters/public-data.ts';
import { toCsv } from '../../shared/files/csv.ts';
import { createUser } from '../support/api-fixture.ts';
import type { TestRequest } from '../support/http-events.ts';
import { type RegisterFixture, startRegisterFixture, wizardBody } from './register-assets-support.ts';

/**
 * Floor areas are stored in m² whichever unit they are entered in; `floorAreaUnit` is the unit they are
 * entered and shown in. 10,763.91 ft² is 1,000 m² (0.092903 m² per ft²), so a site of that size using
 * 10,000 kWh of electricity every month is 120 kWh/m² a year, however it was created.
 */
let r: RegisterFixture;
const call = (req: TestRequest) => r.api(req);
const asOwner = (method: string, path: string, body?: unknown) =>
  call({ method, path, token: r.tokens.owner, body });
const LAST = new Date().getUTCFullYear() - 1;
const FEET = 10_763.91;

const apiSite = (siteName: string, extra: Record<string, unknown> = {}) =>
  asOwner('POST', '/assets', {
    siteName,
    entityId: r.entityId,
    assetType: 'Office',
    floorArea: FEET,
    floorAreaUnit: 'ft2',
    address: { streetAddress: '33 Aldgate High Street', postCode: 'EC3N 1DL', country: 'United Kingdom' },
    ...extra,
  });

async function addElectricity(assetId: string) {
  const meter = await asOwner('POST', '/accounts', { type: 'electricity', assetId });
  expect(meter.status).toBe(201);
  for (const year of [LAST - 1, LAST]) {
    for (let m = 1; m <= 12; m++) {
      const month = `${year}-${String(m).padStart(2, '0')}`;
      await applyInvoiceContribution(
        r.demoId,
        String(meter.body._id),
        assetId,
        `bill-${assetId}-${month}`,
        {
          month,
          utilityType: 'electricity',
          consumption: 10_000,
          unit: 'kWh',
          cost: 2_000,
          emissionsKg: 4_000,
          factorVersion: 'DESNZ-2025',
        },
        1,
      );
    }
  }
}

beforeAll(async () => {
  r = await startRegisterFixture();
  await createUser({ sub: 'staff', email: 'admin@voltfolio.test', companyIds: [r.demoId], isAdmin: true });
  const rows = ['Country,Property type,Year,kWh/m²,kgCO2e/m²'];
  for (let n = 0; n <= 30; n++) rows.push(`United Kingdom,Office,${2020 + n},${200 - 5 * n},${60 - 2 * n}`);
  const upload = await call({
    method: 'POST',
    path: '/benchmarks/crrem/pathway-sets',
    token: r.fx.issuer.accessToken('staff'),
    body: { name: 'Test pathways', version: '1.0', source: 'Worked by hand', csv: rows.join('\n') },
  });
  expect(upload.status).toBe(201);
}, 60_000);
afterAll(async () => r?.stop());

describe('floor area in one unit', () => {
  it('gives a site entered in ft² by POST /assets and one entered through the wizard the same kWh/m²', async () => {
    const byApi = await apiSite('Feet by API');
    expect(byApi.status).toBe(201);
    const byWizard = await asOwner(
      'POST',
      '/assets/wizard-submit',
      wizardBody(r.entityId, { siteName: 'Feet by wizard', floorArea: String(FEET), floorAreaUnit: 'ft2' }),
    );
    expect(byWizard.status).toBe(201);
    for (const res of [byApi, byWizard]) {
      expect(res.body).toMatchObject({ floorArea: 1000, floorAreaUnit: 'ft2' });
      await addElectricity(String(res.body._id));
    }
    const crrem = await asOwner('GET', '/benchmarks/crrem/sites');
    expect(crrem.status).toBe(200);
    const rows = crrem.body.sites as { _id: string; floorAreaM2: number; latest: { kwhM2: number } }[];
    for (const id of [byApi.body._id, byWizard.body._id]) {
      expect(rows.find((row) => row._id === id)).toMatchObject({
        floorAreaM2: 1000,
        latest: { year: LAST, kwhM2: 120 },
      });
    }
  });

  it('stores a PATCHed area in m², read in the unit the body names (m² when it names none)', async () => {
    const site = await apiSite('Patched in feet');
    const id = String(site.body._id);
    const inFeet = await asOwner('PATCH', `/assets/${id}`, { floorArea: 2 * FEET, floorAreaUnit: 'ft2' });
    expect(inFeet.status).toBe(200);
    expect(inFeet.body).toMatchObject({ floorArea: 2000, floorAreaUnit: 'ft2' });
    const noUnit = await asOwner('PATCH', `/assets/${id}`, { floorArea: 1500 });
    expect(noUnit.body).toMatchObject({ floorArea: 1500, floorAreaUnit: 'ft2' });
    const inMetres = await asOwner('PATCH', `/assets/${id}`, { floorArea: 750, floorAreaUnit: 'm2' });
    expect(inMetres.body).toMatchObject({ floorArea: 750, floorAreaUnit: 'm2' });
    // Changing only the unit it is shown in leaves the area alone.
    const shownInFeet = await asOwner('PATCH', `/assets/${id}`, { floorAreaUnit: 'ft2' });
    expect(shownInFeet.body).toMatchObject({ floorArea: 750, floorAreaUnit: 'ft2' });
  });

  it('converts sites written in ft² before, once, and leaves wizard and imported sites alone', async () => {
    const old = String((await apiSite('Old API site')).body._id);
    const wizard = String(
      (
        await asOwner(
          'POST',
          '/assets/wizard-submit',
          wizardBody(r.entityId, {
            siteName: 'Old wizard site',
            floorArea: String(FEET),
            floorAreaUnit: 'ft2',
          }),
        )
      ).body._id,
    );
    // As the old code left them: the API site's number in ft², neither marked.
    const unmark = (id: string, floorArea: number) =>
      changeAsset(r.demoId, id, (a) => {
        const { floorAreaStoredAs: _gone, ...rest } = a;
        return { ...rest, floorArea };
      });
    await unmark(old, FEET);
    await unmark(wizard, 1000);
    const first = await migrateCompanyFloorAreas(r.demoId);
    expect(first.converted).toBe(1);
    const second = await migrateCompanyFloorAreas(r.demoId);
    expect(second).toMatchObject({ converted: 0, marked: 0 });
    for (const id of [old, wizard]) {
      expect((await asOwner('GET', `/assets/${id}`)).body).toMatchObject({
        floorArea: 1000,
        floorAreaUnit: 'ft2',
        floorAreaStoredAs: 'm2',
      });
    }
  });
});

describe('placing sites made by POST /assets and by imports', () => {
  const header = ['siteName', 'entity', 'assetType', 'streetAddress', 'locality', 'postCode', 'floorArea'];
  const siteRow = (name: string, postCode: string) => [
    name,
    'Demo Estates Offices Ltd',
    'Office',
    '1 High Street',
    'Liverpool',
    postCode,
    '500',
  ];
  const importSites = (rows: string[][]) =>
    asOwner('POST', '/assets/import', { fileName: 'sites.csv', csv: toCsv([header, ...rows]) });

  it('places a site created by POST /assets from its postcode', async () => {
    const res = await apiSite('Dock Road by API', {
      address: { streetAddress: '4 Dock Road', locality: 'Liverpool', postCode: 'L3 4AF' },
    });
    expect(res.status).toBe(201);
    const at = res.body.geocoordinates as { lat: number; lng: number };
    expect(Math.abs(at.lat - 53.41)).toBeLessThan(0.09);
    expect(Math.abs(at.lng - -2.98)).toBeLessThan(0.15);
  });

  const bulkSite = (siteName: string, postCode: string) => ({
    siteName,
    entityId: r.entityId,
    assetType: 'Office',
    floorArea: 500,
    address: { streetAddress: '1 High Street', locality: 'Liverpool', postCode, country: 'United Kingdom' },
  });

  it('places sites created by POST /assets/bulk with one postcode lookup, and leaves an unknown one unplaced', async () => {
    const lookups = r.fakes.calls.postcodes;
    const res = await asOwner('POST', '/assets/bulk', [
      bulkSite('Bulk Dock', 'L3 4AF'),
      bulkSite('Bulk Dock Annexe', 'L3 4AF'),
      bulkSite('Bulk Nowhere', 'ZZ9 9ZZ'),
    ]);
    expect(res.status).toBe(201);
    const [dock, annexe, nowhere] = res.body.data as { _id: string; geocoordinates?: { lat: number } }[];
    for (const site of [dock, annexe]) {
      expect(Math.abs((site?.geocoordinates?.lat ?? 0) - 53.41)).toBeLessThan(0.09);
      const stored = (await asOwner('GET', `/assets/${site?._id}`)).body.geocoordinates as { lat: number };
      expect(stored.lat).toBe(site?.geocoordinates?.lat);
    }
    expect(nowhere?.geocoordinates).toBeUndefined();
    expect(r.fakes.calls.postcodes - lookups).toBe(1);
  });

  it('looks up to a hundred postcodes in one call, an unknown one answered as null', async () => {
    const lookups = r.fakes.calls.postcodes;
    const known = Array.from({ length: 99 }, (_, i) => `L${1 + (i % 20)} ${1 + Math.floor(i / 20)}AB`);
    const found = await lookupPostcodes([...known, 'ZZ9 9ZZ']);
    expect(r.fakes.calls.postcodes - lookups).toBe(1);
    expect(found.size).toBe(100);
    expect(found.get('ZZ9 9ZZ')).toBeNull();
    for (const postcode of known)
      expect(Math.abs((found.get(postcode)?.lat ?? 0) - 53.41)).toBeLessThan(0.09);
    await expect(lookupPostcodes([...known, 'ZZ9 9ZZ', 'EC3N 1DL'])).rejects.toThrow(/at most 100/);
  });

  it('does not hold POST /assets/bulk up for a slow postcode service', async () => {
    const budget = IMPORT_PLACING.budgetMs;
    IMPORT_PLACING.budgetMs = 300;
    r.fakes.slow('postcodes', 5_000);
    try {
      const started = Date.now();
      const res = await asOwner('POST', '/assets/bulk', [
        bulkSite('Bulk Slow One', 'L3 4AF'),
        bulkSite('Bulk Slow Two', 'BS1 6NP'),
        bulkSite('Bulk Slow Three', 'EC3N 1DL'),
      ]);
      expect(res.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect((res.body.data as { geocoordinates?: unknown }[]).map((s) => s.geocoordinates)).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
    } finally {
      IMPORT_PLACING.budgetMs = budget;
      r.fakes.slow('postcodes', 0);
    }
  });

  it('places imported sites, leaves a postcode nobody knows unplaced, and can still roll the import back', async () => {
    const res = await importSites([
      siteRow('Imported Dock', 'L3 4AF'),
      siteRow('Imported Nowhere', 'ZZ9 9ZZ'),
    ]);
    expect(res.status).toBe(201);
    const [dock, nowhere] = res.body.items as { _id: string }[];
    const placed = (await asOwner('GET', `/assets/${dock?._id}`)).body.geocoordinates as { lat: number };
    expect(Math.abs(placed.lat - 53.41)).toBeLessThan(0.09);
    expect((await asOwner('GET', `/assets/${nowhere?._id}`)).body.geocoordinates).toBeUndefined();
    const back = await asOwner('POST', '/assets/import-rollback', { batchId: res.body.batchId });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ removed: 2 });
  });

  it('does not hold an import up for a slow postcode service: the sites stay unplaced', async () => {
    const budget = IMPORT_PLACING.budgetMs;
    IMPORT_PLACING.budgetMs = 300;
    r.fakes.slow('postcodes', 5_000);
    try {
      const started = Date.now();
      const res = await importSites([siteRow('Slow One', 'L3 4AF'), siteRow('Slow Two', 'BS1 6NP')]);
      expect(res.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(4_000);
      for (const item of res.body.items as { _id: string }[]) {
        expect((await asOwner('GET', `/assets/${item._id}`)).body.geocoordinates).toBeUndefined();
      }
    } finally {
      IMPORT_PLACING.budgetMs = budget;
      r.fakes.slow('postcodes', 0);
    }
  });
});
