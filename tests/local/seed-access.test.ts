import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccountStore } from '../../infra/local/oidc/account-store.ts';
import { DEMO_KIOSK, DEMO_MACHINE } from '../../infra/local/seed/demo-devices.ts';
import { DEMO_PASSWORD, DEMO_USERS } from '../../infra/local/seed/demo-users.ts';
import { type Item, lastCompleteMonth, type SeededStack, startSeededStack } from './seed-fixture.ts';

let stack: SeededStack;
let consumption: typeof import('../../functions/accounts/consumption-repository.ts');
let callers: typeof import('../../functions/core/access/caller-service.ts');
let profiles: typeof import('../../functions/core/access/user-repository.ts');
let all: Item[];
let demoId: string;
let northwindId: string;
let stateDir: string;
const inPartition = (pk: string) => stack.inPartition(pk);

beforeAll(async () => {
  stack = await startSeededStack();
  consumption = await import('../../functions/accounts/consumption-repository.ts');
  callers = await import('../../functions/core/access/caller-service.ts');
  profiles = await import('../../functions/core/access/user-repository.ts');
  ({ all, demoId, northwindId, stateDir } = stack);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('seeded demo users and companies', () => {
  it('adds a new month to the asset and company roll-ups atomically and refuses mixed units', async () => {
    const asset = inPartition(`C#${demoId}#assets`)[0] as Item;
    const month = lastCompleteMonth();
    const [before] = await consumption.listAssetRollups(
      demoId,
      asset._id as string,
      month,
      month,
      'electricity',
    );
    const [companyBefore] = await consumption.listCompanyRollups(demoId, month, month, 'electricity');
    const delta = { consumption: 100, unit: 'kWh', cost: 25.5, emissionsKg: 17.7 };
    await Promise.all(
      [1, 2, 3].map(() => consumption.addToRollups(demoId, asset._id as string, month, 'electricity', delta)),
    );
    const [after] = await consumption.listAssetRollups(
      demoId,
      asset._id as string,
      month,
      month,
      'electricity',
    );
    const [companyAfter] = await consumption.listCompanyRollups(demoId, month, month, 'electricity');
    expect(after?.consumption).toBeCloseTo((before?.consumption ?? 0) + 300, 3);
    expect(after?.cost).toBeCloseTo((before?.cost ?? 0) + 76.5, 2);
    expect(companyAfter?.emissionsKg).toBeCloseTo((companyBefore?.emissionsKg ?? 0) + 53.1, 2);
    await expect(
      consumption.addToRollups(demoId, asset._id as string, month, 'electricity', { ...delta, unit: 'MWh' }),
    ).rejects.toThrow();
  });

  it('lets every demo user sign in with the shared password and lands them in the right company', async () => {
    const store = openAccountStore(stateDir);
    const demoAccounts = inPartition(`C#${demoId}#accounts`);
    const demoAssets = inPartition(`C#${demoId}#assets`);
    for (const user of DEMO_USERS) {
      const account = await store.verifyPassword(user.email, DEMO_PASSWORD);
      expect(account, user.email).toBeDefined();
      expect(await store.verifyPassword(user.email, 'not-the-password')).toBeUndefined();
      const sub = account?.sub as string;
      const profile = await profiles.getProfile(sub);
      const companyIds = user.memberships.map((m) => (m.company === 'demo' ? demoId : northwindId));
      expect(profile).toMatchObject({ email: user.email, isAdmin: user.isAdmin === true, companyIds });
      expect(profile?.currentCompanyId).toBe(companyIds[0]);
      const caller = await callers.loadCaller(sub, account?.roles ?? []);
      expect(caller.companyId).toBe(companyIds[0]);
      for (const id of [...caller.grants.assets.read, ...caller.grants.assets.write]) {
        expect(demoAssets.some((a) => a._id === id)).toBe(true);
      }
      for (const id of caller.grants.accounts.read) expect(demoAccounts.some((a) => a._id === id)).toBe(true);
    }
    const callerOf = async (email: string) => {
      const account = await store.findByEmail(email);
      return callers.loadCaller(account?.sub as string, account?.roles ?? []);
    };
    expect((await callerOf('owner@demo.test')).permissions).toEqual(
      expect.arrayContaining(['company_owner', 'company_admin']),
    );
    expect((await callerOf('user@demo.test')).permissions).toContain('company_user');
    const entity = await callerOf('entity@demo.test');
    const retail = inPartition(`C#${demoId}#entities`).find((e) => e.legalName === 'Demo Estates Retail Ltd');
    expect(entity.grants.entities.read).toEqual([retail?._id]);
    expect(entity.roles.some((r) => r.startsWith('entity'))).toBe(true);
    const asset = await callerOf('asset@demo.test');
    expect(asset.grants.assets.read).toHaveLength(2);
    expect(asset.grants.assets.write).toEqual(asset.grants.assets.read);
    const site = await callerOf('site@demo.test');
    expect(site.grants.assets.read).toHaveLength(1);
    expect(site.grants.assets.write).toEqual([]);
    expect((await callerOf('account@demo.test')).grants.accounts.read).toHaveLength(3);
    const validator = await callerOf('validator@demo.test');
    expect(validator.permissions).toContain('bill_validation');
    expect(validator.grants.assets.read).toHaveLength(5);
    expect((await callerOf('api@demo.test')).permissions).toEqual(['api_access_only']);
    expect((await callerOf('admin@voltfolio.test')).isAdmin).toBe(true);
    expect((await callerOf('owner@northwind.test')).companyId).toBe(northwindId);
  });

  it('leaves unseen notifications for the owner and the company user', () => {
    const notifications = inPartition(`C#${demoId}#notifications`);
    const subsOf = async (email: string) => (await openAccountStore(stateDir).findByEmail(email))?.sub;
    return Promise.all(
      ['owner@demo.test', 'user@demo.test'].map(async (email) => {
        const sub = await subsOf(email);
        const unseen = notifications.filter((n) => n.userSub === sub && n.isSeen === false);
        expect(unseen.length).toBeGreaterThanOrEqual(3);
        for (const n of unseen)
          expect(n).toMatchObject({ route: expect.stringMatching(/^\//), icon: expect.any(String) });
      }),
    );
  });

  it('seeds a Demo Estates kiosk and machine whose known secrets are accepted and stored only as digests', async () => {
    expect(stack.result.devices).toEqual({
      kiosk: { id: DEMO_KIOSK.id, secret: DEMO_KIOSK.secret, name: DEMO_KIOSK.name },
      machine: { id: DEMO_MACHINE.id, key: DEMO_MACHINE.key, name: DEMO_MACHINE.name },
    });
    const site = inPartition(`C#${demoId}#assets`).find((a) => a.siteName === DEMO_KIOSK.site);
    const [kiosk] = inPartition(`C#${demoId}#kiosks`);
    expect(kiosk).toMatchObject({ _id: DEMO_KIOSK.id, name: DEMO_KIOSK.name, assetId: site?._id });
    const stored = JSON.stringify(all);
    expect(stored).not.toContain(DEMO_KIOSK.secret);
    expect(stored).not.toContain(DEMO_MACHINE.key);

    const { callerFromKioskKey, callerFromMachineKey } = await import(
      '../../functions/core/access/credential-service.ts'
    );
    await expect(callerFromKioskKey(`${DEMO_KIOSK.id}:${DEMO_KIOSK.secret}`, false)).resolves.toMatchObject({
      kind: 'kiosk',
      companyId: demoId,
      kioskId: DEMO_KIOSK.id,
      assetId: site?._id,
    });
    await expect(callerFromKioskKey(`${DEMO_KIOSK.id}:wrong-secret`, false)).rejects.toThrow();
    await expect(callerFromMachineKey(`${DEMO_MACHINE.id}:${DEMO_MACHINE.key}`)).resolves.toMatchObject({
      kind: 'machine',
      companyId: demoId,
    });
    await expect(callerFromMachineKey(`${DEMO_MACHINE.id}:wrong-key`)).rejects.toThrow();
  });

  it("keeps Northwind's data under Northwind's keys only", () => {
    const idsUnder = (companyId: string) =>
      new Set(
        all
          .filter(
            (i) => i.pk.startsWith(`C#${companyId}#`) && /#(entities|assets|accounts|invoices)$/.test(i.pk),
          )
          .map((i) => String(i._id)),
      );
    const northwindIds = [...idsUnder(northwindId), northwindId];
    const demoIds = [...idsUnder(demoId), demoId];
    expect(northwindIds.length).toBeGreaterThan(20);
    const idsIn = (item: Item) => JSON.stringify(item).match(/[0-9a-f]{24}/g) ?? [];
    const leaks = (companyId: string, foreign: string[]) => {
      const set = new Set(foreign);
      return all.filter((i) => i.pk.startsWith(`C#${companyId}#`) && idsIn(i).some((id) => set.has(id)));
    };
    expect(leaks(demoId, northwindIds)).toEqual([]);
    expect(leaks(northwindId, demoIds)).toEqual([]);
    // Outside the company partitions only profiles (which list a user's companies), the company list and the
    // capture-address lookup name them.
    const northwindSet = new Set(northwindIds);
    const elsewhere = all.filter(
      (i) => !i.pk.startsWith('C#') && idsIn(i).some((id) => northwindSet.has(id)),
    );
    expect(new Set(elsewhere.map((i) => (i.pk.startsWith('U#') ? 'profile' : i.pk)))).toEqual(
      new Set(['profile', 'G#companies', 'G#capture-addresses']),
    );
  });
});
