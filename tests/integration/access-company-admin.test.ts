import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccountStore } from '../../infra/local/oidc/account-store.ts';
import { pngBomb } from '../support/picture-bombs.ts';
import {
  type AccessFixture,
  type DemoWorld,
  png,
  seedDemoWorld,
  startAccessFixture,
} from './access-support.ts';

let fx: AccessFixture;
let world: DemoWorld;

beforeAll(async () => {
  fx = await startAccessFixture({ aws: true });
  world = await seedDemoWorld(fx);
});
afterAll(async () => fx?.stop());

const call = (method: string, path: string, token: string, body?: unknown) =>
  fx.api({ method, path, token, body });
const owner = () => world.user('owner@demo.test');
const companyPath = () => `/companies/${world.demo.companyId}`;
const passwordHashOf = async (sub: string) => {
  const accounts = JSON.parse(await readFile(join(fx.accountsDir, 'accounts.json'), 'utf8')) as {
    sub: string;
    passwordHash: string;
  }[];
  return accounts.find((a) => a.sub === sub)?.passwordHash;
};

describe('company users', () => {
  let sub: string;

  it('creates a user: identity, profile and membership, and logs it', async () => {
    const created = await call('POST', `${companyPath()}/users`, owner().token, {
      email: 'New.Person@Demo.test',
      name: 'New Person',
      permissions: ['bill_validation'],
    });
    expect(created.status).toBe(201);
    sub = String(created.body.userSub);
    expect(created.body).toMatchObject({ email: 'new.person@demo.test', permissions: ['bill_validation'] });
    const account = await openAccountStore(join(fx.accountsDir, '..')).findByEmail('new.person@demo.test');
    expect(account?.sub).toBe(sub);
    const me = await call('GET', '/users/me', fx.fx.issuer.accessToken(sub));
    expect(me.body).toMatchObject({ companyId: world.demo.companyId, permissions: ['bill_validation'] });
    const listed = await call('GET', `${companyPath()}/users`, world.user('user@demo.test').token);
    expect((listed.body.data as { email: string }[]).map((u) => u.email)).toContain('new.person@demo.test');
    const log = await call('GET', '/logs?type=create', owner().token);
    expect(
      (log.body.data as { model: string; modelId: string }[]).some(
        (l) => l.model === 'users' && l.modelId === sub,
      ),
    ).toBe(true);
    const again = await call('POST', `${companyPath()}/users`, owner().token, {
      email: 'new.person@demo.test',
      name: 'Again',
    });
    expect(again.status).toBe(409);
  });

  it('sends a welcome e-mail whose temporary password signs in at the local provider', async () => {
    const res = await call('POST', `${companyPath()}/users/${sub}/welcome-email`, owner().token);
    expect(res).toMatchObject({ status: 200, body: { sent: true, to: 'new.person@demo.test' } });
    const files = (await readdir(fx.outboxDir)).filter((f) => f.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const mail = await simpleParser(await readFile(join(fx.outboxDir, files[0] as string)));
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('new.person@demo.test');
    expect(mail.text).toContain('Demo Estates Ltd');
    const password = /Temporary password: (\S+)/.exec(mail.text ?? '')?.[1] as string;
    const store = openAccountStore(join(fx.accountsDir, '..'));
    expect(await store.verifyPassword('new.person@demo.test', password)).toMatchObject({ sub });
  });

  it('welcomes someone another company or staff also has without resetting their password', async () => {
    const hashOf = async (sub: string) => {
      const accounts = JSON.parse(await readFile(join(fx.accountsDir, 'accounts.json'), 'utf8')) as {
        sub: string;
        passwordHash: string;
      }[];
      return accounts.find((a) => a.sub === sub)?.passwordHash;
    };
    const multi = world.user('multi@demo.test');
    const hashBefore = await hashOf(multi.sub);
    const before = new Set(await readdir(fx.outboxDir));
    const northwind = world.user('owner@northwind.test');
    const res = await call(
      'POST',
      `/companies/${world.northwind.companyId}/users/${multi.sub}/welcome-email`,
      northwind.token,
    );
    expect(res).toMatchObject({
      status: 200,
      body: { sent: true, to: 'multi@demo.test', temporaryPassword: false },
    });
    expect(await hashOf(multi.sub)).toBe(hashBefore);
    const added = (await readdir(fx.outboxDir)).filter((f) => f.endsWith('.eml') && !before.has(f));
    expect(added).toHaveLength(1);
    const mail = await simpleParser(await readFile(join(fx.outboxDir, added[0] as string)));
    expect(mail.text).toContain('the password you already use');
    expect(mail.text).not.toContain('Temporary password');

    // Staff are members of a company too; no company's administrator resets their password.
    const staff = world.user('admin@voltfolio.test');
    const staffHash = await hashOf(staff.sub);
    const toStaff = await call('POST', `${companyPath()}/users/${staff.sub}/welcome-email`, owner().token);
    expect(toStaff.body).toMatchObject({ sent: true, temporaryPassword: false });
    expect(await hashOf(staff.sub)).toBe(staffHash);

    // Staff may still give anyone a fresh temporary password.
    const byStaff = await call(
      'POST',
      `/companies/${world.northwind.companyId}/users/${multi.sub}/welcome-email`,
      staff.token,
    );
    expect(byStaff.body).toMatchObject({ sent: true, temporaryPassword: true });
    expect(await hashOf(multi.sub)).not.toBe(hashBefore);

    // A GET changes nothing: it welcomes without touching the password, even from staff.
    const hashNow = await hashOf(multi.sub);
    const byGet = await call(
      'GET',
      `/companies/${world.northwind.companyId}/users/${multi.sub}/welcome-email`,
      staff.token,
    );
    expect(byGet.body).toMatchObject({ sent: true, temporaryPassword: false });
    expect(await hashOf(multi.sub)).toBe(hashNow);
  });

  it('changes a user, and the change shows on their next call', async () => {
    const patched = await call('PATCH', `${companyPath()}/users/${sub}`, owner().token, {
      permissions: ['company_user'],
    });
    expect(patched.status).toBe(200);
    const perms = await call('GET', '/users/me/permissions', fx.fx.issuer.accessToken(sub));
    expect(perms.body.permissions).toContain('company_user');
    const email = await call('PATCH', `${companyPath()}/users/${sub}`, owner().token, { email: 'x@y.z' });
    expect(email.status).toBe(400);
  });

  it('gives a user a role, takes it away again, and keeps a role in use from being deleted', async () => {
    const role = await call('POST', '/roles', owner().token, {
      name: 'Energy analyst',
      permissions: ['company_log'],
    });
    expect(role.status).toBe(201);
    const roleId = String(role.body._id);
    const given = await call('PATCH', `${companyPath()}/users/${sub}`, owner().token, { roleId });
    expect(given.body.roleId).toBe(roleId);
    const refused = await call('DELETE', `/roles/${roleId}`, owner().token);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This role is still given to 1 user. Give them another role first.');
    const cleared = await call('PATCH', `${companyPath()}/users/${sub}`, owner().token, { roleId: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.roleId).toBeNull();
    expect((await call('DELETE', `/roles/${roleId}`, owner().token)).status).toBe(200);
  });

  it('lets nobody hand out more than they may', async () => {
    const admin = world.user('admin@voltfolio.test');
    // A company administrator who is not an owner.
    const made = await call('POST', `${companyPath()}/users`, owner().token, {
      email: 'deputy@demo.test',
      name: 'Deputy',
      permissions: ['company_admin'],
    });
    expect(made.status).toBe(201);
    const deputy = fx.fx.issuer.accessToken(String(made.body.userSub));
    const ownerRole = (await call('GET', '/companies/roles', deputy)).body.data as {
      _id: string;
      name: string;
    }[];
    const ownerRoleId = ownerRole.find((r) => r.name === 'Owner')?._id;
    for (const body of [
      { permissions: ['company_admin'] },
      { roleId: ownerRoleId },
      { permissions: ['admin'] },
    ]) {
      const res = await call('PATCH', `${companyPath()}/users/${sub}`, deputy, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
    }
    expect(
      (await call('PATCH', `${companyPath()}/users/${sub}`, deputy, { permissions: ['company_log'] })).status,
    ).toBe(200);
    expect(
      (await call('PATCH', `${companyPath()}/users/${owner().sub}`, deputy, { name: 'Renamed' })).status,
    ).toBe(403);
    expect((await call('DELETE', `${companyPath()}/users/${owner().sub}`, deputy)).status).toBe(403);
    // Nor may they reset the owner's password with a welcome e-mail, by either method.
    const ownerHash = await passwordHashOf(owner().sub);
    const mailsBefore = (await readdir(fx.outboxDir)).length;
    for (const method of ['POST', 'GET']) {
      const welcome = await call(method, `${companyPath()}/users/${owner().sub}/welcome-email`, deputy);
      expect(welcome.status, method).toBe(403);
    }
    expect(await passwordHashOf(owner().sub)).toBe(ownerHash);
    expect((await readdir(fx.outboxDir)).length).toBe(mailsBefore);
    expect(
      (await call('POST', `${companyPath()}/users/${owner().sub}/welcome-email`, owner().token)).status,
    ).toBe(200);

    // Roles carry permissions to everyone who holds them, so the same rule applies to them.
    for (const permissions of [['company_owner'], ['company_admin'], ['admin']]) {
      const single = await call('POST', '/roles', deputy, { name: 'Sneaky', permissions });
      expect(single.status, permissions.join()).toBe(403);
      const many = await call('POST', '/roles/bulk', deputy, [
        { name: 'Harmless', permissions: ['company_log'] },
        { name: 'Sneaky', permissions },
      ]);
      expect(many.status, permissions.join()).toBe(403);
    }
    expect((await call('PATCH', `/roles/${ownerRoleId}`, deputy, { name: 'Owner (old)' })).status).toBe(403);
    const helpers = await call('POST', '/roles', deputy, { name: 'Helpers', permissions: ['company_log'] });
    expect(helpers.status).toBe(201);
    const helpersId = String(helpers.body._id);
    const deputySub = String(made.body.userSub);
    expect(
      (await call('PATCH', `${companyPath()}/users/${deputySub}`, owner().token, { roleId: helpersId }))
        .status,
    ).toBe(200);
    // The deputy holds the role now: raising it would raise themselves.
    expect(
      (await call('PATCH', `/roles/${helpersId}`, deputy, { permissions: ['company_log', 'company_owner'] }))
        .status,
    ).toBe(403);
    expect((await call('GET', '/users/me/permissions', deputy)).body.permissions).not.toContain(
      'company_owner',
    );
    const widened = await call('PATCH', `/roles/${helpersId}`, deputy, {
      permissions: ['company_log', 'bill_validation'],
    });
    expect(widened.status).toBe(200);
    // Holders see a changed role on their next call.
    expect((await call('GET', '/users/me/permissions', deputy)).body.permissions).toContain(
      'bill_validation',
    );
    expect(
      (await call('PATCH', `/roles/${helpersId}`, owner().token, { permissions: ['company_admin'] })).status,
    ).toBe(200);
    expect(
      (await call('PATCH', `/roles/${helpersId}`, owner().token, { permissions: ['admin'] })).status,
    ).toBe(403);

    expect(
      (await call('PATCH', `${companyPath()}/users/${sub}`, owner().token, { permissions: ['admin'] }))
        .status,
    ).toBe(403);
    expect(
      (await call('PATCH', `${companyPath()}/users/${sub}`, admin.token, { permissions: ['admin'] })).status,
    ).toBe(200);
    // A stray 'admin' on a membership does not make anyone staff.
    const me = await call('GET', '/users/me/permissions', fx.fx.issuer.accessToken(sub));
    expect(me.body.permissions).not.toContain('admin');
    expect((await call('GET', '/companies/global', fx.fx.issuer.accessToken(sub))).status).toBe(403);
  });

  it("keeps each company's users to itself", async () => {
    const northwind = world.user('owner@northwind.test');
    expect((await call('GET', `${companyPath()}/users`, northwind.token)).status).toBe(404);
    expect((await call('GET', `${companyPath()}/users/${sub}`, northwind.token)).status).toBe(404);
    expect(
      (await call('DELETE', `/companies/${world.northwind.companyId}/users/${sub}`, northwind.token)).status,
    ).toBe(404);
    expect((await call('GET', `${companyPath()}/users`, world.user('asset@demo.test').token)).status).toBe(
      403,
    );
  });

  it('removes a user: membership, company on the profile, and access', async () => {
    expect((await call('DELETE', `${companyPath()}/users/${owner().sub}`, owner().token)).status).toBe(400);
    expect((await call('DELETE', `${companyPath()}/users/${sub}`, owner().token)).status).toBe(204);
    const after = await call('GET', '/users/me', fx.fx.issuer.accessToken(sub));
    expect(after.status).toBe(401);
    expect(after.body.message).toBe('Your account is not verified.');
    expect((await call('GET', `${companyPath()}/users/${sub}`, owner().token)).status).toBe(404);
  });
});

describe('company settings', () => {
  it('lets the company admin change settings and logs it; the name is for staff', async () => {
    const res = await call('PATCH', companyPath(), owner().token, {
      settings: { calendarPeriod: 'Rail Calendar', hideCostData: true, invoiceCategories: ['Utilities'] },
    });
    expect(res.status).toBe(200);
    const company = await call('GET', '/users/me/company', world.user('user@demo.test').token);
    expect(company.body.settings).toMatchObject({
      calendarPeriod: 'Rail Calendar',
      hideCostData: true,
      invoiceCategories: ['Utilities'],
    });
    expect(
      (await call('PATCH', companyPath(), owner().token, { settings: { calendarPeriod: 'Lunar' } })).status,
    ).toBe(400);
    expect((await call('PATCH', companyPath(), owner().token, { name: 'Renamed Ltd' })).status).toBe(400);
    expect(
      (await call('PATCH', companyPath(), owner().token, { settings: { logoUrl: 'http://x' } })).status,
    ).toBe(400);
    expect(
      (await call('PATCH', companyPath(), world.user('user@demo.test').token, { settings: {} })).status,
    ).toBe(403);
    expect(
      (await call('PATCH', companyPath(), world.user('owner@northwind.test').token, { settings: {} })).status,
    ).toBe(404);
    const log = await call('GET', '/logs?type=update', owner().token);
    expect((log.body.data as { model: string }[]).some((l) => l.model === 'companies')).toBe(true);
  });

  it('moves the invoice capture address, and refuses one another company uses', async () => {
    const { companyIdForCaptureAddress } = await import('../../functions/company/company-repository.ts');
    const set = (token: string, id: string, address: string | null) =>
      call('PATCH', `/companies/${id}`, token, { settings: { invoiceCaptureEmail: address } });
    expect((await set(owner().token, world.demo.companyId, 'Invoices+Demo@capture.test')).status).toBe(200);
    expect(await companyIdForCaptureAddress('invoices+demo@capture.test')).toBe(world.demo.companyId);
    const taken = await set(
      world.user('owner@northwind.test').token,
      world.northwind.companyId,
      'invoices+demo@capture.test',
    );
    expect(taken.status).toBe(400);
    expect(taken.body.formMessages).toMatchObject({
      'settings.invoiceCaptureEmail': 'This address is already used by another company',
    });
    expect((await set(owner().token, world.demo.companyId, 'billing+demo@capture.test')).status).toBe(200);
    expect(await companyIdForCaptureAddress('invoices+demo@capture.test')).toBeUndefined();
    expect(await companyIdForCaptureAddress('billing+demo@capture.test')).toBe(world.demo.companyId);
  });

  it('keeps supplier portals per supplier', async () => {
    const { putItem } = await import('../../functions/core/data/item-repository.ts');
    const supplierId = '0123456789abcdef01234567';
    await putItem(
      { pk: 'G#suppliers', indexes: [], searchFields: [] },
      { _id: supplierId, name: 'EDF Energy' },
    );
    const path = `${companyPath()}/supplier-portals/${supplierId}`;
    process.env.PORTAL_SECRET_KEY_FILE ??= join(tmpdir(), `voltfolio-portal-key-${process.pid}`);
    expect((await call('PATCH', path, owner().token, { username: 'demo-estates' })).status).toBe(400);
    const set = await call('PATCH', path, owner().token, {
      username: 'demo-estates',
      password: 'Portal-pw-1',
    });
    expect(set.body).toMatchObject({
      settings: { supplierPortals: { [supplierId]: { username: 'demo-estates', enabled: true } } },
    });
    expect(JSON.stringify(set.body)).not.toContain('Portal-pw-1');
    // The password is kept: the user name alone may change afterwards.
    expect((await call('PATCH', path, owner().token, { username: 'demo-estates-2' })).status).toBe(200);
    expect(
      (
        await call('PATCH', `${companyPath()}/supplier-portals/fedcba9876543210fedcba98`, owner().token, {
          username: 'x',
        })
      ).status,
    ).toBe(404);
    expect((await call('PATCH', path, owner().token, { username: 'x', token: 'secret' })).status).toBe(400);
    expect((await call('DELETE', path, owner().token)).status).toBe(200);
    expect((await call('DELETE', path, owner().token)).status).toBe(404);
  });

  it('serves the bill validation rules with defaults and keeps changes', async () => {
    const validator = world.user('validator@demo.test');
    const rules = await call('GET', `${companyPath()}/invoice-validation-rules`, validator.token);
    expect(rules.status).toBe(200);
    expect((rules.body.data as { key: string }[]).length).toBeGreaterThan(10);
    const changed = await call('PATCH', `${companyPath()}/invoice-validation-rules`, owner().token, {
      rules: { 'consumption-vs-last-year': { threshold: 20 } },
    });
    expect(
      (changed.body.data as { key: string; threshold?: { value: number } }[]).find(
        (r) => r.key === 'consumption-vs-last-year',
      )?.threshold?.value,
    ).toBe(20);
    const again = await call('GET', `${companyPath()}/invoice-validation-rules`, validator.token);
    expect(
      (again.body.data as { key: string; threshold?: { value: number } }[]).find(
        (r) => r.key === 'consumption-vs-last-year',
      )?.threshold?.value,
    ).toBe(20);
    expect(
      (await call('PATCH', `${companyPath()}/invoice-validation-rules`, validator.token, { rules: {} }))
        .status,
    ).toBe(403);
    expect(
      (
        await call('PATCH', `${companyPath()}/invoice-validation-rules`, owner().token, {
          rules: { nope: {} },
        })
      ).status,
    ).toBe(400);
  });
});

describe('company logo', () => {
  async function upload(body: Buffer): Promise<string> {
    const res = await call('POST', '/companies/upload-logo', owner().token, { size: body.length });
    expect(res.status).toBe(200);
    expect(String(res.body.previewUrl)).toContain(String(res.body.key));
    // Shown in the page as the PNG its name says, whatever type its upload declares.
    expect(new URL(String(res.body.previewUrl)).searchParams.get('response-content-type')).toBe('image/png');
    const put = await fetch(String(res.body.uploadUrl), {
      method: 'PUT',
      body: new Uint8Array(body),
      headers: { 'content-type': 'image/png' },
    });
    expect(put.ok).toBe(true);
    return String(res.body.key);
  }
  const confirm = (body: unknown) => call('PUT', `${companyPath()}/logo`, owner().token, body);

  it('refuses a missing logo, a narrow one, and a file that is not a PNG', async () => {
    expect((await confirm({})).body.formMessages).toEqual({ logo: 'Please submit a logo.' });
    expect(
      (await confirm({ key: `logos/${world.demo.companyId}/never-uploaded.png` })).body.formMessages,
    ).toEqual({
      logo: 'Please submit a logo.',
    });
    expect((await confirm({ key: `logos/${world.northwind.companyId}/x.png` })).body.formMessages).toEqual({
      logo: 'Please submit a logo.',
    });
    const narrow = await upload(png(199, 50));
    expect((await confirm({ key: narrow })).body.formMessages).toEqual({
      logo: 'Must be at least 200px wide and .png format',
    });
    // A header declaring 20000 × 20000 pixels: reports would decode it onto their cover.
    const huge = await upload(Buffer.from(pngBomb()));
    expect((await confirm({ key: huge })).body.formMessages).toEqual({
      logo: 'Must be at most 16 megapixels (4000 × 4000 pixels)',
    });
    const gif = await upload(
      Buffer.from('GIF89a\u0001\u0000\u0001\u0000\u0000\u0000\u0000;'.padEnd(64, ' ')),
    );
    expect((await confirm({ key: gif })).body.formMessages).toEqual({
      logo: 'Must be at least 200px wide and .png format',
    });
  });

  it('takes a PNG of 200 px or more, and the company answer links to it', async () => {
    const key = await upload(png(240, 60));
    const res = await confirm({ key });
    expect(res.status).toBe(200);
    expect(res.body.settings).toMatchObject({ logoKey: key, showLogo: true });
    const company = await call('GET', '/users/me/company', world.user('user@demo.test').token);
    const url = String((company.body.settings as { logoUrl: string }).logoUrl);
    const image = await fetch(url);
    expect(image.ok).toBe(true);
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString('ascii'),
    ).toBe('PNG');
  });
});

describe('staff administration', () => {
  it('lists every company and creates one with its roles and first owner', async () => {
    const admin = world.user('admin@voltfolio.test');
    const all = await call('GET', '/companies/global', admin.token);
    expect((all.body.data as { name: string }[]).map((c) => c.name)).toEqual(
      expect.arrayContaining(['Demo Estates Ltd', 'Northwind Property Co']),
    );
    expect((await call('GET', '/companies/global', owner().token)).status).toBe(403);
    const created = await call('POST', '/companies', admin.token, {
      name: 'Harbour Estates',
      owner: { email: 'owner@harbour.test', name: 'Harriet Owner' },
    });
    expect(created.status).toBe(201);
    const store = openAccountStore(join(fx.accountsDir, '..'));
    const account = await store.findByEmail('owner@harbour.test');
    const token = fx.fx.issuer.accessToken(account?.sub as string);
    const me = await call('GET', '/users/me', token);
    expect(me.body).toMatchObject({ companyId: created.body._id, role: { name: 'Owner' } });
    const roles = await call('GET', '/companies/roles', token);
    expect((roles.body.data as { name: string }[]).map((r) => r.name)).toContain('Bill validator');
    expect((await call('POST', '/companies', owner().token, { name: 'Sneaky Ltd' })).status).toBe(403);
  });
});

describe('entity-group users', () => {
  const isEntityGroup = async (bearer: string) =>
    (await call('GET', '/users/me', bearer)).body.isEntityGroupUser;

  it('are told so by /users/me, from their role or a role named in their token', async () => {
    // The demo role 'entity viewer' starts with 'entity'.
    expect(await isEntityGroup(world.user('entity@demo.test').token)).toBe(true);
    for (const email of ['owner@demo.test', 'user@demo.test', 'asset@demo.test', 'admin@voltfolio.test']) {
      expect(await isEntityGroup(world.user(email).token), email).toBe(false);
    }
    const asset = world.user('asset@demo.test');
    const claimed = fx.fx.issuer.accessToken(asset.sub, { claims: { roles: ['entity managers'] } });
    expect(await isEntityGroup(claimed)).toBe(true);
    // Only a name that starts with it counts.
    const inside = fx.fx.issuer.accessToken(asset.sub, { claims: { roles: ['Reentity'] } });
    expect(await isEntityGroup(inside)).toBe(false);
  });
});
