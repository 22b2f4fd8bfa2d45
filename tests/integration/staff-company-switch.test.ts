import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_READ_ONLY } from '../../shared/access/route-rules.ts';
import { createUser } from '../support/api-fixture.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let api: Api;
let staff: string;
let northwindSite: string;

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  await createUser({ sub: 'staff', email: 'desk@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  staff = w.token('staff');
  const outsider = w.token('outsider');
  const entityId = await created(api, outsider, '/entities', { legalName: 'Northwind Holdings' });
  northwindSite = await created(api, outsider, '/assets', { siteName: 'Northwind House', entityId });
}, 90_000);
afterAll(async () => w?.stop());

const me = async (token: string) =>
  (await api({ method: 'GET', path: '/users/me', token })).body as { companyId: string; staffView: boolean };
const switchTo = (token: string, companyId: string) =>
  api({ method: 'PUT', path: '/users/me/company-id', token, body: { companyId } });
const staffViews = async (companyId: string) =>
  (
    (
      await api({
        method: 'GET',
        path: `/util/activity?companyId=${companyId}&type=staff-view`,
        token: staff,
      })
    ).body as { data: { message: string; userSub: string }[] }
  ).data;

describe('the staff company switcher', () => {
  it('refuses a non-staff caller another company, leaving their company as it was', async () => {
    const outsider = w.token('outsider');
    const before = await me(outsider);
    const res = await switchTo(outsider, w.demoId);
    expect(res.status).toBe(404);
    expect((await me(outsider)).companyId).toBe(before.companyId);
    const listed = await api({ method: 'GET', path: '/users/me/companies', token: outsider });
    expect((listed.body as { data: { _id: string }[] }).data.map((c) => c._id)).toEqual([w.otherId]);
  });

  it('offers staff every company and lets them look into one, logged in that company', async () => {
    const listed = await api({ method: 'GET', path: '/users/me/companies', token: staff });
    expect((listed.body as { data: { _id: string }[] }).data.map((c) => c._id).sort()).toEqual(
      [w.demoId, w.otherId].sort(),
    );
    expect(await me(staff)).toMatchObject({ companyId: w.demoId, staffView: false });
    const res = await switchTo(staff, w.otherId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ companyId: w.otherId, staffView: true });
    expect(await me(staff)).toMatchObject({ companyId: w.otherId, staffView: true });
    // The company's own data now answers to staff.
    const sites = await api({ method: 'GET', path: '/assets', token: staff });
    expect(sites.status).toBe(200);
    const views = await staffViews(w.otherId);
    expect(views).toEqual([
      expect.objectContaining({ userSub: 'staff', message: expect.stringContaining('desk@voltfolio.test') }),
    ]);
  });

  it("lets staff read the company's sites and change none of them", async () => {
    const site = `/assets/${northwindSite}`;
    const read = await api({ method: 'GET', path: site, token: staff });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ siteName: 'Northwind House' });
    const writes = [
      await api({ method: 'PATCH', path: site, token: staff, body: { siteName: 'Renamed by staff' } }),
      await api({ method: 'POST', path: '/assets', token: staff, body: { siteName: 'Added by staff' } }),
      await api({ method: 'DELETE', path: site, token: staff }),
    ];
    for (const res of writes) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(STAFF_READ_ONLY);
    }
    const after = await api({ method: 'GET', path: site, token: w.token('outsider') });
    expect(after.body).toMatchObject({ siteName: 'Northwind House' });
    expect(after.body.deleted).not.toBe(true);
    const sites = await api({ method: 'GET', path: '/assets', token: w.token('outsider') });
    expect((sites.body.data as { siteName: string }[]).map((s) => s.siteName)).toEqual(['Northwind House']);
  });

  it('keeps the staff-only calls and their own account working while they look', async () => {
    const kiosk = await api({
      method: 'POST',
      path: '/kiosks',
      token: staff,
      body: { name: 'Reception', assetId: northwindSite, slides: ['carbon'] },
    });
    expect(kiosk.status, JSON.stringify(kiosk.body)).toBe(201);
    const settings = {
      defaultFactorSet: 'desnz-2025',
      captureLimits: { maxFileMb: 15, maxPagesPerBill: 40, maxBillsPerDay: 900 },
      featureFlags: {},
      kioskFeeds: {},
    };
    const put = await api({ method: 'PUT', path: '/util/product-settings', token: staff, body: settings });
    expect(put.status).toBe(200);
    const profile = await api({ method: 'PATCH', path: '/users/me', token: staff, body: { name: 'Desk' } });
    expect(profile.status).toBe(200);
  });

  it('refuses staff a change to another company named in the path, from their own', async () => {
    await switchTo(staff, w.demoId);
    const res = await api({
      method: 'PATCH',
      path: `/companies/${w.otherId}`,
      token: staff,
      body: { name: 'Renamed by staff' },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(STAFF_READ_ONLY);
    const theirs = await api({ method: 'GET', path: '/users/me/company', token: w.token('outsider') });
    expect(theirs.body).toMatchObject({ name: 'Northwind Property Co' });
    await switchTo(staff, w.otherId);
  });

  it('takes staff back to their own company without logging a look', async () => {
    expect((await switchTo(staff, w.demoId)).body).toEqual({ companyId: w.demoId, staffView: false });
    expect(await me(staff)).toMatchObject({ companyId: w.demoId, staffView: false });
    expect(await staffViews(w.demoId)).toEqual([]);
  });
});
