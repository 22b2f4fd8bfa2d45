import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { publishToCompany } from '../../functions/core/adapters/live.ts';
import { putItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { createLogger } from '../../functions/core/lib/logger.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { findResource } from '../../shared/system/resources.ts';
import { DEMO_PASSWORD, signIn } from './support/browser.ts';
import { startBrowserStack } from './support/browser-stack.ts';

const env = startBrowserStack();
let page: Page;
/** While set, the browser's new live connections are closed at once, as if the server refused them. */
let refuse = false;

beforeAll(async () => {
  page = await env.browser.newPage();
  await page.routeWebSocket(/\/ws(\?|$)/, (ws) => {
    if (refuse) ws.close();
    else ws.connectToServer();
  });
  await signIn(page, env.stack.origin, 'owner@demo.test');
}, 120_000);

const status = (name: string) => page.getByRole('status', { name });

describe('the live connection', () => {
  it('is shown connected in the header', async () => {
    await expect.poll(() => status('Live updates: connected').isVisible(), { timeout: 15_000 }).toBe(true);
    expect(env.stack.stack.ws.connectionCount()).toBe(1);
  });

  it('reconnects by itself after the server drops it', async () => {
    expect(env.stack.stack.ws.dropAll()).toBe(1);
    await expect.poll(() => status('Live updates: reconnecting').isVisible(), { timeout: 5_000 }).toBe(true);
    await expect.poll(() => status('Live updates: connected').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(env.stack.stack.ws.connectionCount()).toBe(1);
  });

  it('fetches again what a change message names', async () => {
    const { accessToken } = await signInForToken({
      baseUrl: env.stack.origin,
      email: 'owner@demo.test',
      password: DEMO_PASSWORD,
    });
    const me = (await (
      await fetch(`${env.stack.apiUrl}/users/me`, { headers: { authorization: `Bearer ${accessToken}` } })
    ).json()) as { sub: string; companyId: string };
    const bell = page.getByRole('button', { name: /^Notifications \(\d+ unseen\)$/ });
    await expect.poll(() => bell.isVisible(), { timeout: 10_000 }).toBe(true);
    const before = Number(/\((\d+) unseen\)/.exec((await bell.getAttribute('aria-label')) ?? '')?.[1]);

    const decl = findResource('notifications');
    const now = new Date().toISOString();
    await putItem(
      {
        pk: keys.collection({ companyId: me.companyId }, 'notifications'),
        indexes: decl?.indexes ?? [],
        searchFields: decl?.searchFields ?? [],
      },
      {
        _id: newId(),
        companyId: me.companyId,
        userSub: me.sub,
        content: 'A live test notification',
        isSeen: false,
        createdAt: now,
        updatedAt: now,
      },
    );
    const sent = await publishToCompany(
      me.companyId,
      { type: 'notification.created', keys: ['/users/me/notifications'] },
      createLogger({ service: 'e2e' }),
    );
    expect(sent).toBe(1);
    await expect
      .poll(() => bell.getAttribute('aria-label'), { timeout: 10_000 })
      .toBe(`Notifications (${before + 1} unseen)`);
  });

  it('gives up after 5 attempts 3 s apart, shows it, and reconnects when asked', async () => {
    refuse = true;
    env.stack.stack.ws.dropAll();
    const started = Date.now();
    await expect
      .poll(() => status('Live updates: disconnected').isVisible(), { timeout: 25_000, interval: 500 })
      .toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
    await page.getByText('Live updates lost').waitFor({ state: 'visible', timeout: 10_000 });

    refuse = false;
    await page.getByRole('button', { name: 'Reconnect' }).click();
    await expect.poll(() => status('Live updates: connected').isVisible(), { timeout: 10_000 }).toBe(true);
  });
});
