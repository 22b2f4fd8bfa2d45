import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRequest } from '../support/http-events.ts';
import { type RegisterFixture, startRegisterFixture, wizardBody } from './register-assets-support.ts';

let r: RegisterFixture;
const call = (req: TestRequest) => r.api(req);
const asOwner = (method: string, path: string, body?: unknown) =>
  call({ method, path, token: r.tokens.owner, body });

beforeAll(async () => {
  r = await startRegisterFixture();
}, 60_000);
afterAll(async () => r?.stop());

describe('geocoordinates', () => {
  it("looks the site's postcode up once, keeps the answer, and looks again when asked", async () => {
    const id = r.assets.mine;
    const first = await asOwner('GET', `/assets/${id}/geocoordinates`);
    expect(first.status).toBe(200);
    // The local postcode service places the demo site's postcode where the demo data has it.
    expect(first.body).toMatchObject({ lat: 51.5138, lng: -0.076, postcode: 'EC3N 1DL', source: 'postcode' });
    const calls = r.fakes.calls.postcodes;
    expect((await asOwner('GET', `/assets/${id}`)).body.geocoordinates).toEqual({
      lat: 51.5138,
      lng: -0.076,
    });
    expect((await asOwner('GET', `/assets/${id}/geocoordinates`)).body.source).toBe('stored');
    expect(r.fakes.calls.postcodes).toBe(calls);
    expect((await asOwner('GET', `/assets/${id}/geocoordinates?refresh=true`)).body.source).toBe('postcode');
  });

  it("answers 422 with the page's message for a postcode nobody knows", async () => {
    const site = await asOwner(
      'POST',
      '/assets/wizard-submit',
      wizardBody(r.entityId, {
        siteName: 'Unknown Place',
        address: { streetAddress: '1 Nowhere Lane', postCode: 'ZZ9 9ZZ' },
      }),
    );
    const res = await asOwner('GET', `/assets/${site.body._id}/geocoordinates`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      message: 'There was a problem getting geocoordinates.',
      formMessages: { 'address.postCode': 'The postcode was not found' },
    });
  });

  it('answers 424, not a 5xx, with the message when the postcode service is down', async () => {
    r.fakes.fail('postcodes');
    try {
      const res = await asOwner('GET', `/assets/${r.assets.second}/geocoordinates`);
      expect(res.status).toBe(424);
      expect(res.body.message).toBe('There was a problem getting geocoordinates.');
    } finally {
      r.fakes.fail('postcodes', false);
    }
  });
});

describe('crime, flood risks and air quality', () => {
  it('summarises street crime near the site by category and keeps the summary', async () => {
    const res = await asOwner('GET', `/assets/${r.assets.mine}/crime`);
    expect(res.status).toBe(200);
    const body = res.body as {
      total: number;
      byCategory: { count: number }[];
      crimes: unknown[];
      month: string;
    };
    expect(body.total).toBeGreaterThan(0);
    expect(body.byCategory.reduce((n, c) => n + c.count, 0)).toBe(body.total);
    expect(body.crimes).toHaveLength(body.total);
    expect(body.month).toMatch(/^\d{4}-\d{2}$/);
    const asset = await asOwner('GET', `/assets/${r.assets.mine}`);
    expect(asset.body.recentCrimes).toMatchObject({ total: body.total, month: body.month });
    expect((await asOwner('GET', `/assets/${r.assets.mine}/crime?date=2026-13`)).status).toBe(400);
  });

  it('lists flood warnings within the distance asked, most severe first', async () => {
    const near = await asOwner('GET', `/assets/${r.assets.mine}/flood-risks?dist=1`);
    const wide = await asOwner('GET', `/assets/${r.assets.mine}/flood-risks?dist=40`);
    expect(near.status).toBe(200);
    expect(Number(wide.body.total)).toBeGreaterThan(Number(near.body.total));
    const levels = (wide.body.data as { severityLevel: number }[]).map((f) => f.severityLevel);
    expect(levels).toEqual([...levels].sort((a, b) => a - b));
    expect((await asOwner('GET', `/assets/${r.assets.mine}/flood-risks?dist=500`)).status).toBe(400);
  });

  it('gives the latest readings of the nearest monitoring station', async () => {
    const res = await asOwner('GET', `/assets/${r.assets.mine}/air-quality`);
    expect(res.status).toBe(200);
    const body = res.body as {
      location: { distanceMetres: number };
      measurements: { parameter: string; units: string }[];
    };
    expect(body.location.distanceMetres).toBeGreaterThan(0);
    expect(body.measurements.map((m) => m.parameter)).toEqual(['pm25', 'pm10', 'no2', 'o3']);
    expect(body.measurements[0]?.units).toBe('µg/m³');
  });

  it('answers 424 with each page message when a service fails, and 404 to another company', async () => {
    const cases = [
      ['police', 'crime', 'There was a problem getting crime data.'],
      ['flood', 'flood-risks', 'There was a problem getting flood risks.'],
      ['openaq', 'air-quality', 'There was a problem getting air quality data.'],
    ] as const;
    for (const [service, path, message] of cases) {
      r.fakes.fail(service);
      const res = await asOwner('GET', `/assets/${r.assets.mine}/${path}`);
      r.fakes.fail(service, false);
      expect(res.status, path).toBe(424);
      expect(res.body.message).toBe(message);
      const foreign = await call({
        method: 'GET',
        path: `/assets/${r.assets.mine}/${path}`,
        token: r.tokens.outsider,
      });
      expect(foreign.status).toBe(404);
    }
  });
});

describe('EPC certificates', () => {
  type Certificate = { id: string; band: string; rating: number; kind: string };

  it('finds non-domestic certificates by postcode, banded from their rating', async () => {
    const res = await asOwner('GET', '/certificates?postcode=ec3n1dl');
    expect(res.status).toBe(200);
    const data = res.body.data as Certificate[];
    expect(data.length).toBeGreaterThan(0);
    // The demo Aldgate House has asset rating 38: band B (26 to 50).
    expect(data).toContainEqual(expect.objectContaining({ rating: 38, band: 'B', kind: 'non-domestic' }));
    const domestic = await asOwner('GET', '/certificates?postcode=EC3N%201DL&kind=domestic');
    for (const c of domestic.body.data as Certificate[]) expect(c.kind).toBe('domestic');
    expect((await asOwner('GET', '/certificates')).status).toBe(400);
    expect((await asOwner('GET', '/certificates?postcode=ZZ9%209ZZ')).body).toMatchObject({
      data: [],
      total: 0,
    });
  });

  it("searches by a site's own postcode only for a site the caller may see", async () => {
    expect((await asOwner('GET', `/certificates?assetId=${r.assets.mine}`)).body.total).toBeGreaterThan(0);
    expect((await asOwner('GET', `/certificates?assetId=${r.assets.foreign}`)).status).toBe(404);
  });

  it('gets one certificate and links it to a site, which takes its rating and band', async () => {
    const found = (await asOwner('GET', '/certificates?postcode=EC3N 1DL')).body.data as Certificate[];
    const chosen = found.find((c) => c.rating === 38) as Certificate;
    const one = await asOwner('GET', `/certificates/${chosen.id}`);
    expect(one.body).toMatchObject({ id: chosen.id, band: 'B', register: { 'asset-rating': '38' } });
    expect((await asOwner('GET', '/certificates/n0000x0')).status).toBe(404);
    const linked = await asOwner('PUT', `/assets/${r.assets.mine}/epc-certificate`, {
      certificateId: chosen.id,
      kind: 'non-domestic',
    });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({
      epcRating: 'B',
      epc: { certificateId: chosen.id, rating: 38, band: 'B' },
    });
    const foreign = await call({
      method: 'PUT',
      path: `/assets/${r.assets.mine}/epc-certificate`,
      token: r.tokens.outsider,
      body: { certificateId: chosen.id },
    });
    expect(foreign.status).toBe(404);
  });

  it('answers 424 with the message when the register refuses or fails', async () => {
    r.fakes.fail('epc');
    try {
      const res = await asOwner('GET', '/certificates?postcode=EC3N 1DL');
      expect(res.status).toBe(424);
      expect(res.body.message).toBe('There was a problem getting EPC certificates.');
    } finally {
      r.fakes.fail('epc', false);
    }
    const key = process.env.EPC_API_KEY;
    process.env.EPC_API_KEY = 'wrong';
    try {
      expect((await asOwner('GET', '/certificates?postcode=EC3N 1DL')).status).toBe(424);
    } finally {
      process.env.EPC_API_KEY = key;
    }
  });
});
