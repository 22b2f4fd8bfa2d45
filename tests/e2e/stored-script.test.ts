import { describe, expect, it } from 'vitest';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { signIn } from './support/browser.ts';
import { openPagePerTest, startBrowserStack } from './support/browser-stack.ts';

/**
 * Script and markup people type into the app come back as text: a site's name, a meter's tags and a
 * discussion's title, message and reply, on the pages that show the most of them, run nothing and add
 * no element to the page.
 */

const env = startBrowserStack();
const tab = openPagePerTest(env);

const PAYLOADS = [
  '<script>window.__xss=1</script>',
  '"><img src=x onerror="window.__xss=1">',
  '<svg onload="window.__xss=1"><circle r="1"/></svg>',
  'javascript:window.__xss=1',
];

interface Listed {
  _id: string;
  siteName?: string;
  assetId?: string;
}

describe('what people type, shown again', () => {
  it('is shown as text on the sites, meters and discussion pages, and nothing of it runs', async () => {
    const { accessToken } = await signInForToken({
      baseUrl: env.stack.origin,
      email: 'owner@demo.test',
      password: 'Voltfolio-demo-2026!',
    });
    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${env.stack.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const assets = (await api('GET', '/assets?limit=100')).body.data as Listed[];
    const hardman = assets.find((a) => a.siteName === 'Hardman Court') as Listed;
    const renamed = assets.find((a) => a.siteName !== 'Hardman Court') as Listed;
    expect((await api('PATCH', `/assets/${renamed._id}`, { siteName: PAYLOADS[1] })).status).toBe(200);
    const accounts = (await api('GET', `/accounts?limit=100`)).body.data as Listed[];
    const meter = accounts[0] as Listed;
    const tagged = await api('PATCH', `/accounts/${meter._id}`, {
      tags: PAYLOADS.map((p) => p.slice(0, 50)),
    });
    expect(tagged.status).toBe(200);
    const thread = await api('POST', '/messages', {
      subject: PAYLOADS[0],
      body: PAYLOADS.join('\n'),
      assetId: hardman._id,
    });
    expect(thread.status).toBe(201);
    const reply = await api('POST', `/messages/${thread.body._id}/replies`, { body: PAYLOADS.join(' ') });
    expect(reply.status).toBe(201);

    const page = tab.page;
    const dialogs: string[] = [];
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    await signIn(page, env.stack.origin, 'owner@demo.test', '/assets');
    const ran = () => page.evaluate(() => (window as unknown as { __xss?: number }).__xss ?? 0);
    const injected = () =>
      page
        .locator('img[src="x"], img[onerror], svg[onload], body script:not([src])')
        .evaluateAll((els) => els.length);

    await page
      .getByText(PAYLOADS[1] as string)
      .first()
      .waitFor({ timeout: 20_000 });
    expect(await ran()).toBe(0);
    expect(await injected()).toBe(0);

    await page.goto(`${env.stack.origin}/accounts/${meter._id}`);
    await page
      .getByText(PAYLOADS[0] as string)
      .first()
      .waitFor({ timeout: 20_000 });
    expect(await ran()).toBe(0);
    expect(await injected()).toBe(0);

    await page.goto(`${env.stack.origin}/assets/${hardman._id}/discussion/${thread.body._id}`);
    await page.getByRole('heading', { name: PAYLOADS[0] }).waitFor({ timeout: 20_000 });
    await page
      .getByRole('article')
      .getByText(PAYLOADS[3] as string, { exact: false })
      .first()
      .waitFor();
    expect(await ran()).toBe(0);
    expect(await injected()).toBe(0);
    // A link written in a message is not made into one that runs script.
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });
});
