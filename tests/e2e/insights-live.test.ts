import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { putItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { defaultAnalyticsWindow } from '../../shared/analytics/index.ts';
import type { AnalyticsAnswer } from '../../web/features/analytics/analytics-answer.ts';
import { DEMO_PASSWORD, signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
const tab = openPagePerTest(env);

const emissionsAnswer = (page: Page) =>
  page
    .waitForResponse(
      (r: Response) =>
        r.url().includes('/api/analytics/v2/consumption?') &&
        r.url().includes('dataType=emissions') &&
        r.url().includes('estimateBreakdown=false') &&
        r.ok(),
      { timeout: 20_000 },
    )
    .then((r) => r.json() as Promise<AnalyticsAnswer>);

describe('the emissions page, live', () => {
  it('shows a bill confirmed elsewhere without a reload', async () => {
    const { page } = tab;
    const first = emissionsAnswer(page);
    await signIn(page, env.stack.origin, 'owner@demo.test', '/analytics/emissions');
    const before = await first;
    const card = page.getByLabel('Total emissions', { exact: true });
    await card.waitFor({ timeout: 15_000 });
    const shown = await card.textContent();

    const { accessToken } = await signInForToken({
      baseUrl: env.stack.origin,
      email: 'owner@demo.test',
      password: DEMO_PASSWORD,
    });
    const call = async (method: string, path: string) =>
      (
        await fetch(`${env.stack.apiUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${accessToken}` },
        })
      ).json();
    const me = (await call('GET', '/users/me')) as { companyId: string };
    const meters = (await call('GET', '/accounts?limit=100')) as {
      data: { _id: string; type?: string; parentAccountId?: string | null }[];
    };
    // A main meter: a sub-meter's figures are inside its parent's, not added to the company's again.
    const accountId = meters.data.find((m) => m.type === 'electricity' && !m.parentAccountId)?._id ?? '';
    expect(accountId).not.toBe('');
    // A bill as capture leaves it, for last month, large enough to move the company's total.
    const window = defaultAnalyticsWindow(new Date().toISOString().slice(0, 10));
    const lastMonth = window.end.slice(0, 7);
    const id = newId();
    const now = new Date().toISOString();
    const common = { _id: id, companyId: me.companyId, createdAt: now, updatedAt: now };
    await putItem(
      {
        pk: keys.collection({ companyId: me.companyId }, 'invoices'),
        indexes: ['accountId', 'batchId'],
        searchFields: [],
      },
      {
        ...common,
        accountId,
        batchId: id,
        status: 'captured',
        completed: false,
        rates: [],
        values: { startDate: `${lastMonth}-01`, endDate: window.end, consumption: 100_000, netTotal: 25_000 },
      },
    );
    await putItem(
      {
        pk: keys.collection({ companyId: me.companyId }, 'invoice-validation'),
        indexes: ['status'],
        searchFields: [],
      },
      { ...common, invoiceId: id, status: 'pending', completed: false, hold: false, tags: [] },
    );

    const refetched = emissionsAnswer(page);
    const confirmed = (await call('POST', `/invoices/${id}/confirm`)) as { status?: string };
    expect(confirmed.status).toBe('completed');
    const after = await refetched;
    // 100,000 kWh of electricity more: location-based generation alone adds thousands of kg.
    expect(after.totals.emissionsKg - before.totals.emissionsKg).toBeGreaterThan(1000);
    // The page was not reloaded: its card moved on by itself.
    await expect.poll(() => card.textContent(), { timeout: 10_000 }).not.toBe(shown);
  });
});
