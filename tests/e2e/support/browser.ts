import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium; CI installs it (see .ci/run). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Without the background-networking flags Chromium keeps dialling out, which this network refuses.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

export const DEMO_PASSWORD = 'Voltfolio-demo-2026!';

/** Signs in through the provider's own page, as a person would, starting from `path`. */
export async function signIn(page: Page, origin: string, email: string, path = '/'): Promise<void> {
  await page.goto(`${origin}${path}`);
  await page.getByLabel(/e-?mail/i).fill(email, { timeout: 15_000 });
  await page.getByLabel(/password/i).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL(
    (url) => url.origin === origin && !url.pathname.startsWith('/oidc') && !url.pathname.startsWith('/auth'),
    {
      timeout: 20_000,
    },
  );
}
