import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_PRODUCT_SETTINGS,
  type FeatureFlag,
  featureOffMessage,
  type ProductSettings,
} from '../../shared/schemas/staff-admin.ts';
import { createUser } from '../support/api-fixture.ts';
import type { TestResponse } from '../support/http-events.ts';
import { type Api, type RegisterWorld, startRegisterWorld } from './register-support.ts';

let w: RegisterWorld;
let api: Api;
let owner: string;
let staff: string;

beforeAll(async () => {
  w = await startRegisterWorld({ s3: true });
  api = w.api;
  owner = w.token('owner');
  await createUser({ sub: 'staff', email: 'staff@voltfolio.test', companyIds: [w.otherId], isAdmin: true });
  staff = w.token('staff');
}, 90_000);
afterAll(async () => w?.stop());

async function settle(change: Partial<ProductSettings>): Promise<void> {
  const res = await api({
    method: 'PUT',
    path: '/util/product-settings',
    token: staff,
    body: { ...DEFAULT_PRODUCT_SETTINGS, ...change },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const upload = (size: number, fileName = 'bill.pdf') =>
  api({
    method: 'POST',
    path: '/invoice-capture/upload',
    token: owner,
    body: { fileName, contentType: 'application/pdf', size },
  });

const formMessages = (res: TestResponse) =>
  (res.body as { formMessages?: Record<string, string> }).formMessages ?? {};

describe('feature flags gate their feature on the server', () => {
  const off = (flag: FeatureFlag) => settle({ featureFlags: { [flag]: false } });

  it('refuses an unknown flag rather than storing one nothing reads', async () => {
    const res = await api({
      method: 'PUT',
      path: '/util/product-settings',
      token: staff,
      body: { ...DEFAULT_PRODUCT_SETTINGS, featureFlags: { 'kiosk-news': true } },
    });
    expect(res.status).toBe(400);
  });

  it('closes the marketplace while its flag is off, and opens it again', async () => {
    expect((await api({ method: 'GET', path: '/marketplace/carbon', token: owner })).status).toBe(200);
    await off('marketplace');
    for (const path of ['/marketplace/carbon', '/marketplace/carbon/project-types']) {
      const res = await api({ method: 'GET', path, token: owner });
      expect(res.status, path).toBe(404);
      expect(res.body.message).toBe(featureOffMessage('marketplace'));
    }
    // Other features stay as they were.
    expect((await api({ method: 'GET', path: '/messages', token: owner })).status).toBe(200);
    await settle({ featureFlags: { marketplace: true } });
    expect((await api({ method: 'GET', path: '/marketplace/carbon', token: owner })).status).toBe(200);
  });

  it('closes discussions, their list and their own calls, while the flag is off', async () => {
    await off('discussions');
    const list = await api({ method: 'GET', path: '/messages', token: owner });
    expect(list.status).toBe(404);
    expect(list.body.message).toBe(featureOffMessage('discussions'));
    const create = await api({ method: 'POST', path: '/messages', token: owner, body: {} });
    expect(create.status).toBe(404);
    await settle({});
    expect((await api({ method: 'GET', path: '/messages', token: owner })).status).toBe(200);
    // On again, the same empty body is judged on its fields.
    expect((await api({ method: 'POST', path: '/messages', token: owner, body: {} })).status).toBe(400);
  });
});

describe('the e-mail capture flag', () => {
  it("tells the company's pages it is off, so they hide the capture address", async () => {
    const offNow = async () => {
      const res = await api({ method: 'GET', path: '/users/me/company', token: owner });
      expect(res.status).toBe(200);
      return (res.body as { featuresOff?: string[] }).featuresOff;
    };
    expect(await offNow()).toEqual([]);
    await settle({ featureFlags: { 'email-capture': false } });
    expect(await offNow()).toEqual(['email-capture']);
    await settle({});
    expect(await offNow()).toEqual([]);
  });
});

describe('capture limits apply to uploads', () => {
  const MB = 1024 * 1024;

  it('refuses a bill larger than the limit staff set, naming the limit', async () => {
    await settle({ captureLimits: { maxFileMb: 5, maxPagesPerBill: 50, maxBillsPerDay: 5000 } });
    const big = await upload(6 * MB);
    expect(big.status).toBe(400);
    expect(formMessages(big).size).toBe('The file is larger than 5 MB');
    expect((await upload(4 * MB)).status).toBe(201);
  });

  it('stops a company at the most bills a day, counting what it already sent', async () => {
    // One bill went through above; the next fills the day's allowance of two.
    await settle({ captureLimits: { maxFileMb: 20, maxPagesPerBill: 50, maxBillsPerDay: 2 } });
    expect((await upload(MB, 'second.pdf')).status).toBe(201);
    const third = await upload(MB, 'third.pdf');
    expect(third.status).toBe(400);
    expect(formMessages(third).file).toMatch(/sent 2 bills to capture today.*\(2\)/);
  });
});
