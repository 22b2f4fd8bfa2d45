import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type LocalStackHandle, startLocalStack } from '../../support/local-stack.ts';
import { launchBrowser } from './browser.ts';

/** The seeded local stack serving the built SPA, and the browser that visits it. */
export interface BrowserStack {
  readonly stack: LocalStackHandle;
  readonly browser: Browser;
}

/** A fresh browser context and its page, for one test. */
export interface TestPage {
  readonly context: BrowserContext;
  readonly page: Page;
}

/** Building the SPA and seeding the demo data take a while on a busy machine. */
const START_TIMEOUT_MS = 180_000;

/** Reading before the hook ran would otherwise surface as a confusing `undefined` further down. */
function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is not started: read it inside a test or a later hook`);
  return value;
}

/**
 * Starts the seeded stack (with the SPA built) and Chromium before the file's tests, and stops both
 * after them. Call at the top of a test file; hooks the file registers later run once both are up.
 */
export function startBrowserStack(): BrowserStack {
  let stack: LocalStackHandle | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    stack = await startLocalStack({ seed: true, web: 'build' });
    browser = await launchBrowser();
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  return {
    get stack() {
      return started(stack, 'The local stack');
    },
    get browser() {
      return started(browser, 'The browser');
    },
  };
}

/** Opens a new browser context and page before each test and closes them after it. */
export function openPagePerTest(env: BrowserStack, options: BrowserContextOptions = {}): TestPage {
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  beforeEach(async () => {
    context = await env.browser.newContext(options);
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
    page = undefined;
  });
  return {
    get context() {
      return started(context, 'The browser context');
    },
    get page() {
      return started(page, 'The page');
    },
  };
}
