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
  it('places a new site from its postcode as it is created, and looks again only when asked', async () => {
    const id = r.assets.mine;
    // The local postcode service places the demo site's postcode where the demo data has it.
    expect((await asOwner('GET', `/assets/${id}`)).body.geocoordinates).toEqual({
      lat: 51.5138,
      lng: -0.076,
    });
    const calls = r.fakes.calls.postcodes;
    const first = await asOwner('GET', `/assets/${id}/geocoordinates`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ lat: 51.5138, lng: -0.076, postcode: 'EC3N 1DL', source: 'stored' });
    expect(r.fakes.calls.postcodes).toBe(calls);
    expect((await asOwner('GET', `/assets/${id}/geocoordinates?refresh=true`)).body.source).toBe('postcode');
  });

  it('gives a site created in Liverpool coordinates in Liverpool, and moves them with its address', async () => {
    const created = await asOwner(
      'POST',
      '/assets/wizard-submit',
      wizardBody(r.entityId, {
        siteName: 'Dock Road Depot',
        address: { streetAddress: '4 Dock Road', locality: 'Liverpool', postCode: 'L3 4AF' },
      }),
    );
    expect(created.status).toBe(201);
    const at = created.body.geocoordinates as { lat: number; lng: number };
    // Within 10 km of Liverpool's centre.
    expect(Math.abs(at.lat - 53.41)).toBeLessThan(0.09);
    expect(Math.abs(at.lng - -2.98)).toBeLessThan(0.15);
    const moved = await asOwner('PATCH', `/assets/${created.body._id}/address`, {
      streetAddress: '1 Redcliff Street',
      locality: 'Bristol',
      postCode: 'BS1 6NP',
    });
    expect(moved.status).toBe(200);
    const now = moved.body.geocoordinates as { lat: number; lng: number };
    expect(Math.abs(now.lat - 51.45)).toBeLessThan(0.09);
    expect(Math.abs(now.lng - -2.59)).toBeLessThan(0.15);
  });

  it('creates the site without coordinates when the postcode service is down, and places it later', async () => {
    r.fakes.fail('postcodes');
    let id: string;
    try {
      const created = await asOwner(
        'POST',
        '/assets/wizard-submit',
        wizardBody(r.entityId, {
          siteName: 'Offline Yard',
          address: { streetAddress: '1 Wellington Street', locality: 'Leeds', postCode: 'LS1 4DL' },
        }),
      );
      expect(created.status).toBe(201);
      expect(created.body.geocoordinates).toBeUndefined();
      id = String(created.body._id);
    } finally {
      r.fakes.fail('postcodes', false);
    }
    const later = await asOwner('GET', `/assets/${id}/geocoordinates`);
    expect(later.body).toMatchObject({ postcode: 'LS1 4DL', source: 'postcode' });
    expect(Math.abs(Number(later.body.lat) - 53.8)).toBeLessThan(0.09);
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
      const res = await asOwner('GET', `/assets/${r.assets.second}/geocoordinates?refresh=true`);
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
    const tooFar = await asOwner('GET', `/assets/${r.assets.mine}/flood-risks?dist=500`);
    expect(tooFar.status).toBe(400);
    expect(tooFar.body.message).toBe('Invalid query parameter (dist: Must be a number from 0.1 to 50)');
  });

  it("gives a Liverpool site the flood warnings of the Mersey, and a Bristol site the Avon's", async () => {
    const site = async (siteName: string, streetAddress: string, postCode: string) =>
      String(
        (
          await asOwner(
            'POST',
            '/assets/wizard-submit',
            wizardBody(r.entityId, { siteName, address: { streetAddress, postCode } }),
          )
        ).body._id,
      );
    // The demo company's Liverpool site's postcode.
    const liverpool = await site('17 Bold Street', '17 Bold Street', 'L1 4DN');
    const floods = (await asOwner('GET', `/assets/${liverpool}/flood-risks`)).body as {
      data: { description: string; areaName: string }[];
    };
    expect(floods.data.length).toBeGreaterThan(0);
    for (const f of floods.data) {
      expect(f.areaName).toBe('Greater Manchester Merseyside and Cheshire');
      expect(f.description).not.toMatch(/Avon|Thames|Severn/);
    }
    expect(floods.data.map((f) => f.description)).toContain('Tidal Mersey at Liverpool Waterfront');
    const bristol = (await asOwner('GET', `/assets/${r.assets.second}/flood-risks`)).body as {
      data: { description: string }[];
    };
    expect(bristol.data.map((f) => f.description)).toEqual(['River Avon at Bristol (Netham to the Feeder)']);
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
    const wrongKind = await asOwner('GET', '/certificates?postcode=ec3n1dl&kind=castle');
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body.message).toBe(
      'Invalid query parameter (kind: Must be one of domestic, non-domestic, display)',
    );
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
