import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putRollups } from '../../functions/accounts/consumption-repository.ts';
import {
  putIntervalDays,
  recordIntervalMeter,
} from '../../functions/analytics/analytics-half-hourly-repository.ts';
import { putItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { saveConnection } from '../../functions/core/live/live-connection-repository.ts';
import { type PublicDataFakes, startPublicDataFakes } from '../../infra/local/fakes/public-data-server.ts';
import type { AdminOverview } from '../../shared/schemas/staff-admin.ts';
import { STAFF_TOOLS_AREA } from '../../shared/system/areas/staff-tools.ts';
import { QUEUES } from '../../shared/system/functions.ts';
import { createUser } from '../support/api-fixture.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let fakes: PublicDataFakes;
let api: Api;
let owner: string;
let outsider: string;
let staff: string;
const id: Record<string, string> = {};
let kiosk: { _id: string; kioskKey: string; kioskAuth: string };

const pad = (n: number) => String(n).padStart(2, '0');
const now = new Date();
const monthsAgo = (n: number) => {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
};
const latest = monthsAgo(1);
const yearBefore = monthsAgo(13);
const today = now.toISOString().slice(0, 10);

const rollup = (assetId: string, month: string, consumption: number) => ({
  assetId,
  month,
  utilityType: 'electricity' as const,
  consumption,
  unit: 'kWh',
  cost: 0,
  emissionsKg: consumption * 0.2,
});

const asKiosk = (path: string, key = kiosk.kioskKey) =>
  api({ method: 'GET', path, headers: { 'x-kiosk-key': key } });

beforeAll(async () => {
  w = await startRegisterWorld({ s3: true });
  fakes = await startPublicDataFakes();
  Object.assign(process.env, fakes.env, { APP_URL: 'https://app.voltfolio.test' });
  api = w.api;
  owner = w.token('owner');
  outsider = w.token('outsider');
  await createUser({ sub: 'staff', email: 'staff@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  staff = w.token('staff');

  id.entity = await created(api, owner, '/entities', { legalName: 'Demo Estates Group plc' });
  const site = (siteName: string, postCode: string) =>
    created(api, owner, '/assets', {
      siteName,
      entityId: id.entity,
      address: { streetAddress: `1 ${siteName} Street`, locality: 'London', postCode },
    });
  id.lobby = await site('Aldgate House', 'EC3N 1DL');
  id.tower = await site('Bishopsgate Tower', 'EC2M 4QH');
  id.wharf = await site('Canary Wharf One', 'E14 5AB');
  id.northwind = await created(api, outsider, '/entities', { legalName: 'Northwind Holdings' });
  id.northwindSite = await created(api, outsider, '/assets', {
    siteName: 'Aldgate Yard',
    entityId: id.northwind,
    address: { streetAddress: '9 Aldgate High Street', locality: 'London', postCode: 'EC3N 1AH' },
  });
  // Aldgate House fell 10%, Bishopsgate Tower 30%, Canary Wharf rose 5%.
  await putRollups(w.demoId, [
    rollup(id.lobby, latest, 9000),
    rollup(id.lobby, yearBefore, 10_000),
    rollup(id.tower, latest, 7000),
    rollup(id.tower, yearBefore, 10_000),
    rollup(id.wharf, latest, 10_500),
    rollup(id.wharf, yearBefore, 10_000),
  ]);
  id.meter = newId();
  await recordIntervalMeter(w.demoId, {
    accountId: id.meter,
    assetId: id.lobby,
    utilityType: 'electricity',
    unit: 'kWh',
  });
  await putIntervalDays(w.demoId, [
    {
      accountId: id.meter,
      date: today,
      values: Array.from({ length: 48 }, (_, i) => (i === 20 ? null : 10 + i)),
      total: 1000,
      missing: 1,
      unit: 'kWh',
    },
  ]);
  const made = await api({
    method: 'POST',
    path: '/kiosks',
    token: owner,
    body: { name: 'Lobby screen', assetId: id.lobby, slides: ['carbon', 'leaderboard'] },
  });
  kiosk = made.body as typeof kiosk;
}, 120_000);

afterAll(async () => {
  await fakes?.stop();
  await w?.stop();
});

describe('kiosk slides', () => {
  it('ranks the sites by their change in energy, the largest fall first, marking this building', async () => {
    const res = await asKiosk('/kiosks/live/consumption');
    expect(res.status).toBe(200);
    const body = res.body as {
      month: string;
      leaderboard: { siteName: string; change: number | null; thisBuilding: boolean }[];
    };
    expect(body.month).toBe(latest);
    expect(body.leaderboard.map((r) => [r.siteName, r.change, r.thisBuilding])).toEqual([
      ['Bishopsgate Tower', -30, false],
      ['Aldgate House', -10, true],
      ['Canary Wharf One', 5, false],
    ]);
  });

  it('gives the latest day of half-hourly electricity, gaps kept as gaps', async () => {
    const res = await asKiosk('/kiosks/live/consumption');
    const half = (res.body as { halfHourly: { date: string; unit: string; values: (number | null)[] } })
      .halfHourly;
    expect(half.date).toBe(today);
    expect(half.unit).toBe('kWh');
    expect(half.values).toHaveLength(48);
    expect(half.values[0]).toBe(10);
    expect(half.values[20]).toBeNull();
  });

  it('keeps the slides in the order the admin chose', async () => {
    const res = await asKiosk('/kiosks/live');
    expect((res.body as { kiosk: { slides: string[] } }).kiosk.slides).toEqual(['carbon', 'leaderboard']);
  });

  it('reads news, weather and travel for the building from the configured feeds', async () => {
    const res = await asKiosk('/kiosks/live/news');
    expect(res.status).toBe(200);
    const body = res.body as {
      place: string;
      news: { configured: boolean; data: { title: string }[] };
      weather: { data: { temperatureC: number; summary: string; daily: unknown[] } };
      travel: { data: { title: string }[] };
    };
    expect(body.place).toBe('London');
    expect(body.news.data[0]?.title).toBe('Council backs heat network extension in EC3N');
    expect(body.weather.data).toMatchObject({ temperatureC: 11.4, summary: 'Partly cloudy' });
    expect(body.weather.data.daily).toHaveLength(3);
    expect(body.travel.data.map((t) => t.title)).toContain('Central line: minor delays');
  });

  it('says which feed failed and still answers', async () => {
    fakes.fail('kiosk-feeds');
    try {
      const res = await asKiosk('/kiosks/live/news');
      expect(res.status).toBe(200);
      const body = res.body as { news: { configured: boolean; data: unknown[]; error?: string } };
      expect(body.news).toMatchObject({ configured: true, data: [] });
      expect(body.news.error).toContain('503');
    } finally {
      fakes.fail('kiosk-feeds', false);
    }
  });
});

describe('signage screens', () => {
  it('pairs a screen showing a code, pointing it at the kiosk with a new key; the old key stops', async () => {
    const old = kiosk.kioskKey;
    const res = await api({
      method: 'POST',
      path: '/kiosks/optisigns/screens',
      token: owner,
      body: { kioskId: kiosk._id, pairingCode: 'ab12cd' },
    });
    expect(res.status).toBe(201);
    const device = fakes.signageDevices().find((d) => d.pairingCode === 'AB12CD');
    if (!device) throw new Error('The signage service was not asked to pair');
    const url = new URL(device.url);
    expect(url.origin).toBe('https://app.voltfolio.test');
    expect(url.pathname).toBe(`/kiosk/${kiosk._id}`);
    const auth = url.searchParams.get('kioskAuth') ?? '';
    expect((await asKiosk('/kiosks/live', auth.replace('|', ':'))).status).toBe(200);
    expect((await asKiosk('/kiosks/live', old)).status).toBe(401);
    kiosk = { ...kiosk, kioskKey: auth.replace('|', ':'), kioskAuth: auth };

    const listed = await api({
      method: 'GET',
      path: `/kiosks/optisigns/screens?kioskId=${kiosk._id}`,
      token: owner,
    });
    expect(listed.status).toBe(200);
    expect((listed.body as { data: { deviceId: string; kioskName: string }[] }).data).toEqual([
      expect.objectContaining({ deviceId: device.deviceId, kioskName: 'Lobby screen' }),
    ]);
  });

  it('re-points paired screens when the secret is rotated', async () => {
    const res = await api({ method: 'POST', path: `/kiosks/${kiosk._id}/rotate-secret`, token: owner });
    expect(res.status).toBe(200);
    const fresh = (res.body as { kioskAuth: string }).kioskAuth;
    const device = fakes.signageDevices().find((d) => d.pairingCode === 'AB12CD');
    expect(new URL(device?.url ?? 'http://x').searchParams.get('kioskAuth')).toBe(fresh);
    kiosk = { ...kiosk, kioskKey: fresh.replace('|', ':'), kioskAuth: fresh };
  });

  it('says so when no screen shows the code, and keeps the key', async () => {
    const res = await api({
      method: 'POST',
      path: '/kiosks/optisigns/screens',
      token: owner,
      body: { kioskId: kiosk._id, pairingCode: 'XZZZ99' },
    });
    expect(res.status).toBe(400);
    expect((res.body as { formMessages: Record<string, string> }).formMessages.pairingCode).toBe(
      'The signage service did not accept this pairing code',
    );
    expect((await asKiosk('/kiosks/live')).status).toBe(200);
  });

  it('never pairs or lists another company’s kiosk', async () => {
    const pair = await api({
      method: 'POST',
      path: '/kiosks/optisigns/screens',
      token: outsider,
      body: { kioskId: kiosk._id, pairingCode: 'QQ1234' },
    });
    expect(pair.status).toBe(400);
    expect((pair.body as { formMessages: Record<string, string> }).formMessages.kioskId).toBe(
      'No such kiosk',
    );
    const list = await api({
      method: 'GET',
      path: `/kiosks/optisigns/screens?kioskId=${kiosk._id}`,
      token: outsider,
    });
    expect(list.status).toBe(404);
    const all = await api({ method: 'GET', path: '/kiosks/optisigns/screens', token: outsider });
    expect((all.body as { data: unknown[] }).data).toEqual([]);
    expect(fakes.signageDevices().some((d) => d.pairingCode === 'QQ1234')).toBe(false);
  });

  it('unpairs a screen: the signage service forgets it and it leaves the list; never another company’s', async () => {
    const paired = await api({
      method: 'POST',
      path: '/kiosks/optisigns/screens',
      token: owner,
      body: { kioskId: kiosk._id, pairingCode: 'UN1234' },
    });
    expect(paired.status).toBe(201);
    const device = fakes.signageDevices().find((d) => d.pairingCode === 'UN1234');
    if (!device) throw new Error('The signage service was not asked to pair');
    const auth = new URL(device.url).searchParams.get('kioskAuth') ?? '';
    kiosk = { ...kiosk, kioskKey: auth.replace('|', ':'), kioskAuth: auth };
    const path = `/kiosks/optisigns/screens/${device.deviceId}`;

    const foreign = await api({ method: 'DELETE', path, token: outsider });
    expect(foreign.status).toBe(404);
    expect(fakes.signageDevices().some((d) => d.deviceId === device.deviceId)).toBe(true);

    expect((await api({ method: 'DELETE', path, token: owner })).status).toBe(204);
    expect(fakes.signageDevices().some((d) => d.deviceId === device.deviceId)).toBe(false);
    const listed = await api({ method: 'GET', path: '/kiosks/optisigns/screens', token: owner });
    const ids = (listed.body as { data: { deviceId: string }[] }).data.map((d) => d.deviceId);
    expect(ids).not.toContain(device.deviceId);
    // The first screen is still paired, and the kiosk still shows.
    expect(ids).toHaveLength(1);
    expect((await asKiosk('/kiosks/live')).status).toBe(200);
    expect((await api({ method: 'DELETE', path, token: owner })).status).toBe(404);
  });
});

describe('staff admin', () => {
  it('counts across companies and lists every queue with its dead letters', async () => {
    const res = await api({ method: 'GET', path: '/util/admin-overview', token: staff });
    expect(res.status).toBe(200);
    const body = res.body as unknown as AdminOverview;
    expect(body.totals.companies).toBe(2);
    expect(body.totals.sites).toBe(4);
    expect(body.queues.map((q) => q.queue)).toEqual([...QUEUES]);
  });

  it('keeps product settings, refuses bad ones, and kiosks read the feeds they name', async () => {
    const bad = await api({
      method: 'PUT',
      path: '/util/product-settings',
      token: staff,
      body: {
        captureLimits: { maxFileMb: 0, maxPagesPerBill: 1, maxBillsPerDay: 1 },
        featureFlags: {},
        kioskFeeds: {},
      },
    });
    expect(bad.status).toBe(400);
    const travel = fakes.env.KIOSK_TRAVEL_FEED_URL ?? '';
    const settings = {
      defaultFactorSet: 'desnz-2025',
      captureLimits: { maxFileMb: 15, maxPagesPerBill: 40, maxBillsPerDay: 900 },
      featureFlags: { marketplace: true },
      kioskFeeds: { newsUrl: travel },
    };
    const put = await api({ method: 'PUT', path: '/util/product-settings', token: staff, body: settings });
    expect(put.status).toBe(200);
    const got = await api({ method: 'GET', path: '/util/product-settings', token: staff });
    expect(got.body).toMatchObject({ ...settings, updatedBy: 'staff' });
    const news = await asKiosk('/kiosks/live/news');
    expect((news.body as { news: { data: { title: string }[] } }).news.data[0]?.title).toBe(
      'Elizabeth line: good service',
    );
  });

  it('reads the activity log of every company, filtered', async () => {
    const res = await api({ method: 'GET', path: '/util/activity?model=kiosks', token: staff });
    expect(res.status).toBe(200);
    const rows = (res.body as { data: { type: string; companyName: string }[] }).data;
    expect(rows.map((r) => r.type)).toEqual([
      'unpair-screen',
      'pair-screen',
      'rotate-secret',
      'pair-screen',
      'create',
    ]);
    expect(new Set(rows.map((r) => r.companyName))).toEqual(new Set(['Demo Estates Ltd']));
    const sites = await api({
      method: 'GET',
      path: `/util/activity?model=assets&companyId=${w.otherId}`,
      token: staff,
    });
    const names = (sites.body as { data: { companyName: string }[] }).data.map((r) => r.companyName);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names)).toEqual(new Set(['Northwind Property Co']));
    const bad = await api({
      method: 'GET',
      path: '/util/activity?from=2026-02-01&to=2026-01-01',
      token: staff,
    });
    expect(bad.status).toBe(400);
  });

  it('lists every e-mail with its company and status, and downloads any attachment', async () => {
    const mail = async (companyId: string | undefined, subject: string, status: string) => {
      const _id = newId();
      await putItem(
        { pk: keys.collection(companyId ? { companyId } : {}, 'emails'), indexes: [], searchFields: [] },
        {
          _id,
          from: 'bills@supplier.test',
          to: ['inbox@voltfolio.test'],
          subject,
          status,
          attachments: [{ _id: 'a1', fileName: 'bill.pdf', key: `inbox/${_id}/bill.pdf` }],
          createdAt: new Date().toISOString(),
        },
      );
      return _id;
    };
    const demoMail = await mail(w.demoId, 'Demo bill', 'accepted');
    await mail(w.otherId, 'Northwind bill', 'refused');
    await mail(undefined, 'Who is this for', 'refused');
    const res = await api({ method: 'GET', path: '/util/emails', token: staff });
    expect(res.status).toBe(200);
    const rows = (res.body as { data: { subject: string; companyName: string | null; status: string }[] })
      .data;
    expect(rows.map((r) => [r.subject, r.companyName, r.status]).sort()).toEqual([
      ['Demo bill', 'Demo Estates Ltd', 'accepted'],
      ['Northwind bill', 'Northwind Property Co', 'refused'],
      ['Who is this for', null, 'refused'],
    ]);
    const refused = await api({ method: 'GET', path: '/util/emails?status=refused', token: staff });
    expect((refused.body as { data: unknown[] }).data).toHaveLength(2);
    const download = await api({
      method: 'GET',
      path: `/util/emails/${demoMail}/attachments/a1/download?companyId=${w.demoId}`,
      token: staff,
    });
    expect(download.status).toBe(200);
    expect((download.body as { url: string; name: string }).name).toBe('bill.pdf');
    const wrong = await api({
      method: 'GET',
      path: `/util/emails/${demoMail}/attachments/a1/download?companyId=${w.otherId}`,
      token: staff,
    });
    expect(wrong.status).toBe(404);
  });

  it('shows live connections by company and user, and sends a test broadcast', async () => {
    await saveConnection({
      connectionId: 'conn-1',
      sub: 'owner',
      companyId: w.demoId,
      connectedAt: new Date().toISOString(),
    });
    await saveConnection({
      connectionId: 'conn-2',
      sub: 'owner',
      companyId: w.demoId,
      connectedAt: new Date().toISOString(),
    });
    const res = await api({ method: 'GET', path: '/util/live-connections', token: staff });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      total: 2,
      data: [{ companyName: 'Demo Estates Ltd', connections: 2, users: [{ sub: 'owner', connections: 2 }] }],
    });
    const sent = await api({
      method: 'POST',
      path: '/util/live-connections/broadcast',
      token: staff,
      body: { companyId: w.demoId, message: 'Test from staff' },
    });
    expect(sent.status).toBe(200);
    const none = await api({
      method: 'POST',
      path: '/util/live-connections/broadcast',
      token: staff,
      body: { companyId: newId(), message: 'Anyone?' },
    });
    expect(none.status).toBe(404);
  });

  it('finds a site in any company and opens it to read', async () => {
    const res = await api({ method: 'GET', path: '/util/asset-finder?q=aldgate', token: staff });
    expect(res.status).toBe(200);
    const found = (res.body as { data: { _id: string; siteName: string; companyName: string }[] }).data;
    expect(found.map((s) => [s.siteName, s.companyName]).sort()).toEqual([
      ['Aldgate House', 'Demo Estates Ltd'],
      ['Aldgate Yard', 'Northwind Property Co'],
    ]);
    const view = await api({
      method: 'GET',
      path: `/util/asset-finder/${id.northwindSite}?companyId=${w.otherId}`,
      token: staff,
    });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      site: { siteName: 'Aldgate Yard' },
      company: { name: 'Northwind Property Co' },
    });
    const elsewhere = await api({
      method: 'GET',
      path: `/util/asset-finder/${id.northwindSite}?companyId=${w.demoId}`,
      token: staff,
    });
    expect(elsewhere.status).toBe(404);
    const short = await api({ method: 'GET', path: '/util/asset-finder?q=a', token: staff });
    expect(short.status).toBe(400);
  });

  it('refuses every staff call to a company owner with 403', async () => {
    for (const route of STAFF_TOOLS_AREA.routes ?? []) {
      const path = route.path.replace(/\{(\w+)\}/g, () => newId());
      const res = await api({ method: route.method, path, token: owner, body: {} });
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
    }
  });
});
