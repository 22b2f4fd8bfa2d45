import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../support/api-fixture.ts';
import { type Api, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let api: Api;
let staff: string;

beforeAll(async () => {
  w = await startRegisterWorld();
  api = w.api;
  await createUser({ sub: 'staff', email: 'desk@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  staff = w.token('staff');
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

  it('takes staff back to their own company without logging a look', async () => {
    expect((await switchTo(staff, w.demoId)).body).toEqual({ companyId: w.demoId, staffView: false });
    expect(await me(staff)).toMatchObject({ companyId: w.demoId, staffView: false });
    expect(await staffViews(w.demoId)).toEqual([]);
  });
});
