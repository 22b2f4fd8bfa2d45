import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/api-fixture.ts';
import { png } from './access-support.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let api: Api;
let owner: string;
let staff: string;

interface Listed {
  version: string;
  data: Record<string, unknown>[];
}

const get = (path: string, token = owner, headers: Record<string, string> = {}) =>
  api({ method: 'GET', path, token, headers });

beforeAll(async () => {
  w = await startRegisterWorld({ s3: true });
  api = w.api;
  owner = w.token('owner');
  await createUser({ sub: 'staff', email: 'admin@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  staff = w.token('staff');
});

afterAll(async () => w?.stop());

describe('lookups', () => {
  it('lists the units of the specification, in its order, with a version', async () => {
    const res = await get('/util/units');
    const body = res.body as unknown as Listed;
    expect(body.version).toMatch(/\S/);
    expect(body.data.map((u) => u.value)).toEqual([
      'Wh',
      'kWh',
      'MWh',
      'kg',
      'm³',
      'm²',
      'lbs',
      'tonnes',
      'ft³',
      'hcf',
      'm³/h',
      'qty',
      'l',
      '°C',
      'mcuf',
      'hcuf',
      'tcuf',
      'ocuf',
      'hm³',
      'tm³',
      'nm³',
      'kg CO₂e',
      't CO₂e',
    ]);
  });

  it('gives each utility type its value, name, icon and colour', async () => {
    const body = (await get('/util/utility-types')).body as unknown as Listed;
    expect(body.data.map((u) => u.value)).toEqual([
      'electricity',
      'gas',
      'water',
      'waste',
      'heating',
      'cooling',
      'solar',
    ]);
    for (const u of body.data) {
      expect(Object.keys(u).sort()).toEqual(['color', 'icon', 'name', 'value']);
      expect(u.color).toMatch(/^#[0-9a-f]{6}$/);
    }
  });

  it('answers the other lists, each named and versioned, and says monthly is the default granularity', async () => {
    for (const path of [
      '/util/asset-types',
      '/util/granularities',
      '/util/energy-suppliers',
      '/util/integrations',
    ]) {
      const body = (await get(path)).body as unknown as Listed;
      expect(body.version, path).toMatch(/\S/);
      expect(body.data.length, path).toBeGreaterThan(3);
      for (const item of body.data)
        expect(typeof item.value === 'string' && typeof item.name === 'string', path).toBe(true);
    }
    const granularities = (await get('/util/granularities')).body as unknown as Listed;
    expect(granularities.data.filter((g) => g.isDefault).map((g) => g.value)).toEqual(['monthly']);
    const assetTypes = (await get('/util/asset-types')).body as unknown as Listed;
    expect(assetTypes.data.map((t) => t.value)).toEqual(
      expect.arrayContaining(['Office', 'Retail', 'Warehouse']),
    );
  });

  it('describes template values, types and formats, with ten price formats', async () => {
    const body = (await get('/util/template-value-format')).body as {
      values: { value: string; type: string }[];
      types: string[];
      formats: { price: { value: string }[]; date: { value: string }[] };
    };
    expect(body.formats.price).toHaveLength(10);
    expect(body.formats.price.map((f) => f.value)).toEqual(
      expect.arrayContaining(['£0,000.00', '0.000,00 £', '0,000.00']),
    );
    expect(body.formats.date.map((f) => f.value)).toEqual(
      expect.arrayContaining(['DD/MM/YYYY', 'YYYY-MM-DD']),
    );
    for (const v of body.values) expect(body.types).toContain(v.type);
  });

  it('lets a browser revalidate a list by its version', async () => {
    const first = await get('/util/units');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/util/units', owner, { 'if-none-match': etag });
    expect(again.status).toBe(304);
  });

  it("shows staff every company's sites for the map, and nobody else", async () => {
    const entityId = await created(api, owner, '/entities', { legalName: 'Demo Estates Group plc' });
    await created(api, owner, '/assets', {
      siteName: 'Aldgate House',
      entityId,
      geocoordinates: { lat: 51.5, lng: -0.07 },
    });
    const other = await created(api, w.token('outsider'), '/entities', { legalName: 'Northwind Holdings' });
    await created(api, w.token('outsider'), '/assets', { siteName: 'Northwind House', entityId: other });
    const res = await get('/util/global-assets', staff);
    const rows = res.body.data as { siteName: string; company: { name: string }; geocoordinates?: unknown }[];
    expect(rows.map((a) => `${a.company.name}/${a.siteName}`).sort()).toEqual([
      'Demo Estates Ltd/Aldgate House',
      'Northwind Property Co/Northwind House',
    ]);
    expect(rows.find((a) => a.siteName === 'Aldgate House')?.geocoordinates).toEqual({
      lat: 51.5,
      lng: -0.07,
    });
    expect((await get('/util/global-assets', owner)).status).toBe(403);
  });

  it('answers 401 without a token', async () => {
    expect((await api({ method: 'GET', path: '/util/units' })).status).toBe(401);
  });
});

describe('countries', () => {
  beforeAll(async () => {
    const rows = [
      ['GB', 'United Kingdom', 'United Kingdom of Great Britain and Northern Ireland', false],
      ['AL', 'Albania', 'Republic of Albania', false],
      ['JE', 'Jersey', 'Bailiwick of Jersey', true],
      ['FR', 'France', 'French Republic', false],
      ['BM', 'Bermuda', 'Bermuda', true],
    ] as const;
    for (const [code, name, fullName, isJurisdiction] of rows) {
      await created(api, staff, '/countries', { code, name, fullName, isJurisdiction });
    }
  });

  it('lists countries sorted by their full name, a thousand to a page', async () => {
    const res = await get('/countries?limit=1000');
    expect(res.body).toMatchObject({ total: 5, limit: 1000, skip: 0 });
    expect((res.body.data as { fullName: string }[]).map((c) => c.fullName)).toEqual([
      'Bailiwick of Jersey',
      'Bermuda',
      'French Republic',
      'Republic of Albania',
      'United Kingdom of Great Britain and Northern Ireland',
    ]);
    const byDefault = await get('/countries');
    expect(byDefault.body.limit).toBe(1000);
  });

  it('sorts the other way, by another field, filters and pages', async () => {
    const desc = await get('/countries?$sort[fullName]=-1&limit=2');
    expect((desc.body.data as { code: string }[]).map((c) => c.code)).toEqual(['GB', 'AL']);
    const byName = await get('/countries?$sort=name');
    expect((byName.body.data as { name: string }[]).map((c) => c.name)[0]).toBe('Albania');
    const jurisdictions = await get('/countries?isJurisdiction=true');
    expect((jurisdictions.body.data as { code: string }[]).map((c) => c.code)).toEqual(['JE', 'BM']);
    const second = await get('/countries?limit=2&skip=2');
    expect((second.body.data as { code: string }[]).map((c) => c.code)).toEqual(['FR', 'AL']);
  });
});

describe('countries asked for in an order they do not offer', () => {
  it('are refused with 400 naming the value and the orders they offer', async () => {
    for (const path of ['/countries?$sort=population', '/countries?$sort[capital]=1']) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.message, path).toMatch(
        /^Invalid query parameter \(\$sort(\[capital\])?: Must be one of fullName, name, code/,
      );
    }
    expect((await get('/countries?limit=x')).body.message).toBe(
      'Invalid query parameter (limit: Must be a whole number of 0 or more)',
    );
  });
});

describe('suppliers', () => {
  let edf: string;
  let ukpn: string;

  it('are made by staff only, with their input checked field by field', async () => {
    const bad = await api({ method: 'POST', path: '/suppliers', token: staff, body: { type: 'retailer' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.formMessages as object).sort()).toEqual(['name', 'type']);
    const notStaff = await api({
      method: 'POST',
      path: '/suppliers',
      token: owner,
      body: { name: 'Rogue Power' },
    });
    expect(notStaff.status).toBe(403);
    edf = await created(api, staff, '/suppliers', {
      name: 'EDF Energy',
      utilityTypes: ['electricity', 'gas'],
    });
    ukpn = await created(api, staff, '/suppliers', { name: 'UK Power Networks', type: 'distributor' });
    const list = await get('/suppliers');
    expect(list.body.total).toBe(2);
  });

  it('lists distributors apart, and shows and edits one supplier', async () => {
    const distributors = await get('/suppliers?type=distributor');
    expect((distributors.body.data as { _id: string }[]).map((s) => s._id)).toEqual([ukpn]);
    const edit = await api({
      method: 'PATCH',
      path: `/suppliers/${edf}`,
      token: staff,
      body: { portal: 'https://edf.example' },
    });
    expect(edit.body).toMatchObject({ name: 'EDF Energy', portal: 'https://edf.example', type: 'supplier' });
    const overview = await get(`/suppliers/${edf}`);
    expect(overview.body).toMatchObject({ name: 'EDF Energy', utilityTypes: ['electricity', 'gas'] });
  });

  it('take a logo through a presigned upload, refuse one that breaks the logo rule, and drop it', async () => {
    const upload = async (bytes: Buffer) => {
      const start = await api({
        method: 'PUT',
        path: `/suppliers/${edf}/logo`,
        token: staff,
        body: { size: bytes.length },
      });
      expect(start.body).toMatchObject({ method: 'PUT', contentType: 'image/png' });
      const put = await fetch(String(start.body.uploadUrl), {
        method: 'PUT',
        headers: { 'content-type': 'image/png' },
        body: new Uint8Array(bytes),
      });
      expect(put.ok).toBe(true);
      return String(start.body.key);
    };
    const narrow = await upload(png(120, 40));
    const refused = await api({
      method: 'PUT',
      path: `/suppliers/${edf}/logo`,
      token: staff,
      body: { key: narrow },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.formMessages).toEqual({ logo: 'Must be at least 200px wide and .png format' });
    const foreign = await api({
      method: 'PUT',
      path: `/suppliers/${ukpn}/logo`,
      token: staff,
      body: { key: narrow },
    });
    expect(foreign.body.formMessages).toEqual({ logo: 'Please submit a logo.' });

    const wide = await upload(png(320, 80));
    const ok = await api({
      method: 'PUT',
      path: `/suppliers/${edf}/logo`,
      token: staff,
      body: { key: wide },
    });
    expect(ok.status).toBe(200);
    const shown = await get(`/suppliers/${edf}`);
    const image = await fetch(String(shown.body.logoUrl));
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    const listed = await get('/suppliers?type=supplier');
    expect((listed.body.data as { logoUrl?: string }[])[0]?.logoUrl).toBeTruthy();
    // A search answers the same supplier as the list does, logo link included.
    const found = await get('/suppliers/search?query=edf');
    expect((found.body.data as { _id: string; logoUrl?: string }[]).map((s) => [s._id, !!s.logoUrl])).toEqual(
      [[edf, true]],
    );

    expect(
      (await api({ method: 'PUT', path: `/suppliers/${edf}/logo`, token: owner, body: { size: 1024 } }))
        .status,
    ).toBe(403);
    const dropped = await api({ method: 'DELETE', path: `/suppliers/${edf}/logo`, token: staff });
    expect(dropped.status).toBe(200);
    expect((await get(`/suppliers/${edf}`)).body.logoUrl).toBeUndefined();
  });
});
