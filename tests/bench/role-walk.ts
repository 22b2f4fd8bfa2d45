/**
 * `node tests/bench/role-walk.ts`: visits every signed-in route of the shell (web/app/routes.ts) in
 * Chromium on the seeded local stack, as users who see only part of the demo company and as staff looking
 * into another company, and lists per page what a user would trip over:
 * - answers of 500 or more;
 * - 403s the page's own calls earn (the page asks for something it should know it may not have);
 * - uncaught errors and console errors;
 * - "not available yet" text;
 * - the change controls offered (buttons and links named like Create, Edit, Delete, Upload...), so that
 *   those offered to someone the API would refuse can be read off; for users who may change nothing there
 *   every one is listed as a finding.
 * Routes with ids are filled from links the user met on earlier pages; where the user met none, from the
 * links the company's owner meets, so the page is still opened (and should refuse or say it is not found).
 * WALK_USERS=validator,asset,site,staff picks users; WALK_ROUTES=regex limits the routes; WALK_JSON=file
 * writes every page's record.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { APP_ROUTES, type AppRoute } from '../../web/app/routes.ts';
import { launchBrowser, signIn } from '../e2e/support/browser.ts';
import { startLocalStack } from '../support/local-stack.ts';
import { apiClient, makeWalkObjects, type Thing } from './role-walk-seed.ts';

interface Walker {
  key: string;
  email: string;
  /** Staff looking into this company (by the name the switcher shows). */
  staffInto?: string;
  /** Whose links fill ids the walker met no link for. */
  idsFrom: string;
  /** Change controls are findings for this user on routes matching this (the user may change nothing there). */
  readOnly?: RegExp;
}

const STAFF = 'admin@voltfolio.test';

/**
 * Everything but what any reader may change: their profile, notifications and dashboard, reports on what
 * they read (generating one is a read), discussions on sites they read, their own calendar feed.
 */
function READERS_MAY_CHANGE_NOTHING_BUT(also?: RegExp): RegExp {
  const own =
    /^\/(profile|notifications|reports(\/(generate|templates|history|dynamic))?|targets\/calendar)?$/;
  const site = /^\/(assets|portfolios)\/[^/]+\/(discussion(\/[^/]+)?|reports)$/;
  return { test: (p: string) => !own.test(p) && !site.test(p) && !(also?.test(p) ?? false) } as RegExp;
}

const WALKERS: readonly Walker[] = [
  // Reads five sites and validates bills: changes only bills (invoice pages), their own profile and dashboard.
  {
    key: 'validator',
    email: 'validator@demo.test',
    idsFrom: 'owner@demo.test',
    readOnly: READERS_MAY_CHANGE_NOTHING_BUT(/^\/invoice/),
  },
  // Reads and changes two sites: nothing company-wide.
  {
    key: 'asset',
    email: 'asset@demo.test',
    idsFrom: 'owner@demo.test',
    readOnly:
      /^\/(entities|new-entity|suppliers|company|companies|imports|portfolios\/(create|manage)|admin|connectors|automation)/,
  },
  // Reads one site and changes nothing but their own profile, dashboard and notifications.
  {
    key: 'site',
    email: 'site@demo.test',
    idsFrom: 'owner@demo.test',
    readOnly: READERS_MAY_CHANGE_NOTHING_BUT(),
  },
  // Staff looking into Northwind: the company's data is read only to them.
  {
    key: 'staff',
    email: STAFF,
    staffInto: 'Northwind',
    idsFrom: 'owner@northwind.test',
    // Product-wide pages (staff tools, suppliers, new companies) are staff's own to change.
    readOnly: /^\/(?!profile$|notifications$|$|admin|suppliers|companies\/create$)/,
  },
];

/** Where the owner's links are gathered for ids: the list pages and one site's pages. */
const HARVEST_PATHS = [
  '/assets',
  '/entities',
  '/suppliers',
  '/imports',
  '/portfolios',
  '/reports',
  '/reports/history',
  '/marketplace/carbon',
  '/company/users',
  '/company/roles',
  '/company/permissions',
  '/invoice-validation/failed',
  '/invoice-validation/passed',
  '/invoice-validation/completed',
];
/** Sub-pages of the first site and meter found, whose links name discussions, projects and documents. */
const HARVEST_SITE_SUBS = ['discussion', 'projects', 'documents', 'reports', 'accounts'];

const CHANGE_CONTROL =
  /^(create|new|add|edit|delete|remove|upload|save|send|regenerate|rebuild|import|roll ?back|generate|schedule|assign|resolve|reopen|reply|start a discussion|invite|rotate|restore|archive|link|unlink|replace|recalculate|merge|move|set as|mark|approve|reject|register interest|enhance|look up|run now|try again|duplicate|copy to|apply)\b/i;

interface PageRecord {
  user: string;
  route: string;
  url: string;
  landed: string;
  idsFrom: 'own' | 'owner' | 'none';
  serverErrors: string[];
  forbidden: string[];
  errors: string[];
  notAvailable: boolean;
  controls: string[];
  findings: string[];
}

const ORIGIN_PARAM = /:(\w+)\??/g;

function patternOf(path: string): RegExp {
  const body = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/?#]+' : seg))
    .join('/');
  return new RegExp(`^${body}$`);
}

/** How many literal parts a route's path has: of the routes a link matches, it belongs to the most literal. */
const literalParts = (path: string) => path.split('/').filter((seg) => seg && !seg.startsWith(':')).length;

/** Whether `href` is better read as another route (`/projects/create` is not the project "create"). */
function belongsElsewhere(route: AppRoute, href: string): boolean {
  const mine = literalParts(route.path);
  return APP_ROUTES.some(
    (other) =>
      other !== route &&
      literalParts(other.path) > mine &&
      patternOf(other.path.replace(/\?$/, '')).test(href),
  );
}

/**
 * A concrete path for a route: the first link met that matches it, or that leads below it (a meter's
 * overview names the meter's own path); an optional last id filled where met.
 */
function fill(route: AppRoute, links: ReadonlySet<string>): string | undefined {
  if (!route.path.includes(':')) return route.path;
  const optional = /\/:\w+\?$/.test(route.path);
  const full = patternOf(route.path.replace(/\?$/, ''));
  const bare = optional ? patternOf(route.path.replace(/\/:\w+\?$/, '')) : undefined;
  const depth = route.path.split('/').length;
  let fallback: string | undefined;
  for (const href of links) {
    if (full.test(href) && !belongsElsewhere(route, href)) return href;
    if (bare?.test(href)) fallback ??= href;
    const above = href.split('/').slice(0, depth).join('/');
    if (above !== href && full.test(above) && !belongsElsewhere(route, above)) fallback ??= above;
  }
  return fallback;
}

/** Paths no page links to but that name what a link names: a meter's own page by its id. */
function derived(links: Iterable<string>): string[] {
  const out: string[] = [];
  for (const l of links) {
    const meter = /^\/assets\/[^/]+\/accounts\/([^/]+)\//.exec(l);
    if (meter) out.push(`/accounts/${meter[1]}`);
  }
  return out;
}

async function linksOn(page: Page, origin: string): Promise<string[]> {
  return page.evaluate(
    (o) =>
      [...document.querySelectorAll('a[href]')]
        .map((a) => (a as HTMLAnchorElement).href)
        .filter((h) => h.startsWith(o))
        .map((h) => h.slice(o.length).split(/[?#]/)[0] ?? '')
        .filter((h) => h.length > 0),
    origin,
  );
}

/** Lets the page's calls settle: network idle, or 5 s at most (live updates never settle). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await page.waitForTimeout(400);
}

async function controlsOn(page: Page): Promise<string[]> {
  const names = await page.evaluate(() => {
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
    };
    const main = document.querySelector('main') ?? document.body;
    return (
      [...main.querySelectorAll('button, a[href], [role="button"], input[type="submit"]')]
        .filter(visible)
        .filter((el) => !(el as HTMLButtonElement).disabled)
        // A wizard's step that cannot be clicked (out of the tab order) is a label of where the user is.
        .filter((el) => !(el.closest('.mantine-Stepper-steps') && el.getAttribute('tabindex') === '-1'))
        .map((el) => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' '))
        .filter((n) => n.length > 0 && n.length < 80)
    );
  });
  return [...new Set(names)];
}

async function enterStaffView(page: Page, company: string): Promise<void> {
  await page
    .getByRole('button', { name: /account|user/i })
    .first()
    .click();
  await page.getByText(company, { exact: false }).first().click();
  await page
    .getByRole('status', { name: 'Staff view' })
    .getByText(/read only: you are looking into/)
    .waitFor({ timeout: 30_000 });
}

/** The owner's links, gathered from the list pages and one site's and one meter's pages. */
async function harvest(browser: Browser, origin: string, email: string): Promise<Set<string>> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const links = new Set<string>();
  try {
    await signIn(page, origin, email, '/');
    const visit = async (path: string) => {
      await page.goto(`${origin}${path}`);
      await settle(page);
      for (const l of await linksOn(page, origin)) links.add(l);
    };
    for (const path of HARVEST_PATHS) await visit(path);
    const site = [...links].find((l) => /^\/assets\/[^/]+\/overview$/.test(l));
    if (site) {
      const base = site.replace(/\/overview$/, '');
      await visit(site);
      for (const sub of HARVEST_SITE_SUBS) await visit(`${base}/${sub}`);
    }
    const meter = [...links].find((l) => /^\/assets\/[^/]+\/accounts\/[^/]+\/overview$/.test(l));
    if (meter) await visit(meter);
    const supplier = [...links].find((l) => /^\/suppliers\/[^/]+\/overview$/.test(l));
    if (supplier) await visit(supplier);
    const portfolio = [...links].find((l) => /^\/portfolios\/[^/]+\/assets$/.test(l));
    if (portfolio) await visit(portfolio);
    for (const l of derived([...links])) links.add(l);
  } finally {
    await context.close();
  }
  return links;
}

/**
 * Controls the API accepts from the user although the page's area is read only to them: the report
 * builder's draft (only saving writes, and that is offered to company users alone), the link to the bill
 * upload page (open to bill validators), and the welcome e-mail staff may send to let a member in.
 */
const ACCEPTED: readonly { path: RegExp; control: RegExp }[] = [
  { path: /^\/reports\/builder$/, control: /^(New template|Remove)$/ },
  { path: /\/(invoices|credit-notes)$/, control: /^Upload invoices$/ },
  { path: /^\/company\/users$/, control: /^Send welcome e-mail to / },
];

/** What a user would trip over on a page, from what was seen there. */
function findingsOf(walker: Walker, record: PageRecord): string[] {
  const out: string[] = [];
  if (record.serverErrors.length) out.push(`5xx: ${record.serverErrors.join(', ')}`);
  // A 403 that sends the user to /forbidden is the route guard asking, not the page.
  if (record.forbidden.length && record.landed !== '/forbidden')
    out.push(`403: ${[...new Set(record.forbidden)].join(', ')}`);
  const uncaught = record.errors.filter((e) => !/status of 40[34]|Failed to load resource/.test(e));
  if (uncaught.length) out.push(`errors: ${[...new Set(uncaught)].join(' | ')}`);
  if (record.notAvailable) out.push('not available yet');
  const offered = record.controls.filter(
    (c) => !ACCEPTED.some((a) => a.path.test(record.landed) && a.control.test(c)),
  );
  if (walker.readOnly?.test(record.landed) && offered.length) out.push(`offers: ${offered.join(', ')}`);
  return out;
}

async function walk(
  browser: Browser,
  origin: string,
  walker: Walker,
  fallbackLinks: ReadonlySet<string>,
  routes: readonly AppRoute[],
  others: readonly Thing[],
): Promise<PageRecord[]> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.on('dialog', (d) => void d.dismiss());
  let current: PageRecord | undefined;
  page.on('response', (res) => {
    if (!current) return;
    const req = res.request();
    const where = `${req.method()} ${res.url().replace(origin, '').split('?')[0]}`;
    if (res.status() >= 500) current.serverErrors.push(`${res.status()} ${where}`);
    else if (res.status() === 403) current.forbidden.push(where);
  });
  page.on('pageerror', (e) => current?.errors.push(`uncaught: ${e.message.slice(0, 200)}`));
  page.on('console', (m) => {
    if (m.type() === 'error') current?.errors.push(`console: ${m.text().slice(0, 200)}`);
  });
  const own = new Set<string>();
  const records: PageRecord[] = [];
  try {
    // On a loaded machine the provider's redirect can outlast signIn's wait: one more try.
    await signIn(page, origin, walker.email, '/').catch(() => signIn(page, origin, walker.email, '/'));
    if (walker.staffInto) await enterStaffView(page, walker.staffInto);
    // Concrete routes first, then those with ids, fewest parameters first, so ids come from earlier links.
    const order = [...routes].sort(
      (a, b) => (a.path.match(ORIGIN_PARAM)?.length ?? 0) - (b.path.match(ORIGIN_PARAM)?.length ?? 0),
    );
    const later: AppRoute[] = [];
    const queue = [...order];
    for (let i = 0; i < queue.length; i++) {
      const route = queue[i] as AppRoute;
      const firstPass = i < order.length;
      for (const l of derived(own)) own.add(l);
      const ownPath = fill(route, own);
      // A route no link has led to yet is tried again once every other page has been seen.
      if (firstPass && !ownPath && route.path.includes(':')) {
        later.push(route);
        if (i === order.length - 1) queue.push(...later);
        continue;
      }
      if (i === order.length - 1 && firstPass) queue.push(...later);
      const path = ownPath ?? fill(route, fallbackLinks);
      const record: PageRecord = {
        user: walker.key,
        route: route.path,
        url: path ?? '',
        landed: '',
        idsFrom: !route.path.includes(':') || ownPath ? 'own' : path ? 'owner' : 'none',
        serverErrors: [],
        forbidden: [],
        errors: [],
        notAvailable: false,
        controls: [],
        findings: [],
      };
      records.push(record);
      if (!path) continue;
      if (process.env.WALK_PROGRESS) console.log(`   ${walker.key} ${path}`);
      current = record;
      await page.goto(`${origin}${path}`).catch((e: Error) => record.errors.push(`navigation: ${e.message}`));
      await settle(page);
      current = undefined;
      record.landed = new URL(page.url()).pathname;
      const text = await page.evaluate(() => document.body.textContent ?? '').catch(() => '');
      record.notAvailable = /not available yet/i.test(text);
      for (const l of await linksOn(page, origin).catch(() => [])) own.add(l);
      // A page that says the user may not go there offers nothing, whatever its layout still shows.
      const refused =
        record.landed === '/forbidden' || /not found|can read this .* but not change/i.test(text);
      record.controls = refused
        ? []
        : (await controlsOn(page).catch(() => [])).filter((n) => CHANGE_CONTROL.test(n));
      record.findings = findingsOf(walker, record);
    }
    // What the user may not see, opened by its id: refused or not found, and never shown.
    for (const thing of others) {
      const record: PageRecord = {
        user: walker.key,
        route: `by id: ${thing.what}`,
        url: thing.path,
        landed: '',
        idsFrom: 'owner',
        serverErrors: [],
        forbidden: [],
        errors: [],
        notAvailable: false,
        controls: [],
        findings: [],
      };
      records.push(record);
      current = record;
      await page
        .goto(`${origin}${thing.path}`)
        .catch((e: Error) => record.errors.push(`navigation: ${e.message}`));
      await settle(page);
      current = undefined;
      record.landed = new URL(page.url()).pathname;
      const text = await page.evaluate(() => document.body.textContent ?? '').catch(() => '');
      const refused =
        record.landed === '/forbidden' || /not found|no such|not allowed|may not|permission/i.test(text);
      // The 403 or 404 the page earns is the point here.
      record.forbidden = [];
      record.findings = findingsOf(walker, { ...record, controls: [] });
      if (text.includes(thing.secret)) record.findings.push(`shows ${thing.what} ("${thing.secret}")`);
      if (!refused) record.findings.push(`${thing.what} neither refused nor said not found`);
    }
  } finally {
    await context.close();
  }
  return records;
}

// WALK_FROM=file: judge the pages of an earlier walk (its WALK_JSON) again by the rules above, without a browser.
if (process.env.WALK_FROM) {
  const records = JSON.parse(readFileSync(process.env.WALK_FROM, 'utf8')) as PageRecord[];
  for (const w of WALKERS) {
    const mine = records.filter((r) => r.user === w.key);
    for (const r of mine) if (r.url) r.findings = findingsOf(w, r);
    report(w, mine);
  }
  console.log(`\n${records.filter((r) => r.findings.length).length} pages with findings`);
  process.exit(0);
}

function report(w: Walker, all: readonly PageRecord[]): void {
  const byId = all.filter((r) => r.route.startsWith('by id: '));
  const records = all.filter((r) => !r.route.startsWith('by id: '));
  const visited = records.filter((r) => r.url);
  const own = visited.filter((r) => r.idsFrom === 'own').length;
  const findings = records.filter((r) => r.findings.length);
  console.log(
    `\n== ${w.key} (${w.email}${w.staffInto ? `, staff view of ${w.staffInto}` : ''}): ${visited.length}/${records.length} routes visited (${own} by own links, ${visited.length - own} by the owner's ids), ${records.filter((r) => r.landed === '/forbidden').length} refused by the route guard, ${findings.length} with findings`,
  );
  console.log(
    `   opened by id what they may not see: ${byId.length}, ${byId.filter((r) => r.findings.length).length} with findings`,
  );
  for (const r of records.filter((x) => !x.url)) console.log(`   not reached: ${r.route}`);
  for (const r of [...findings, ...byId.filter((x) => x.findings.length)])
    console.log(
      `   ${r.url}${r.landed !== r.url ? ` → ${r.landed}` : ''}\n      ${r.findings.join('\n      ')}`,
    );
}

const picked = process.env.WALK_USERS?.split(',');
const only = process.env.WALK_ROUTES ? new RegExp(process.env.WALK_ROUTES) : undefined;
const walkers = WALKERS.filter((w) => !picked || picked.includes(w.key));
const routes = APP_ROUTES.filter((r) => !only || only.test(r.path));

console.log(`node ${process.version}, ${new Date().toISOString()}, ${routes.length} routes`);
const started = performance.now();
const stack = await startLocalStack({ seed: true, web: 'build' });
const browser = await launchBrowser();
console.log(`stack up with the SPA built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
const all: PageRecord[] = [];
try {
  const call = apiClient(stack.apiUrl, stack.origin);
  const made = new Map([
    [
      'owner@demo.test',
      await makeWalkObjects(
        call,
        'owner@demo.test',
        ['validator@demo.test', 'asset@demo.test', 'site@demo.test'],
        STAFF,
        'Demo',
      ),
    ],
    ['owner@northwind.test', await makeWalkObjects(call, 'owner@northwind.test', [], STAFF, 'Northwind')],
  ]);
  console.log(`walk objects made at ${((performance.now() - started) / 1000).toFixed(0)} s`);
  // What each walker may not see: the API says so (staff in another company's view sees nothing of Demo's).
  const othersOf = async (w: Walker): Promise<Thing[]> => {
    const out: Thing[] = [];
    for (const [owner, m] of made)
      for (const t of m.things) {
        if (w.staffInto) {
          if (owner !== w.idsFrom) out.push(t);
          continue;
        }
        if ((await call(w.email, 'GET', t.api)).status !== 200) out.push(t);
      }
    return out;
  };
  const owners = new Map<string, Set<string>>();
  for (const w of walkers)
    if (!owners.has(w.idsFrom)) {
      const links = await harvest(browser, stack.origin, w.idsFrom);
      for (const l of made.get(w.idsFrom)?.links ?? []) links.add(l);
      owners.set(w.idsFrom, links);
    }
  // The staff pages (suppliers) are linked for staff only.
  const staffLinks = await harvest(browser, stack.origin, STAFF);
  for (const links of owners.values())
    for (const l of staffLinks) if (/^\/(suppliers|admin)/.test(l)) links.add(l);
  console.log(`owners' links gathered at ${((performance.now() - started) / 1000).toFixed(0)} s`);
  // The users walk side by side: most of a page's time is spent waiting for its calls to settle.
  const others = await Promise.all(walkers.map((w) => othersOf(w)));
  const walked = await Promise.all(
    walkers.map((w, i) =>
      walk(browser, stack.origin, w, owners.get(w.idsFrom) ?? new Set(), routes, others[i] ?? []),
    ),
  );
  walkers.forEach((w, i) => {
    const records = walked[i] ?? [];
    all.push(...records);
    report(w, records);
  });
} finally {
  await browser.close();
  await stack.stop();
}
if (process.env.WALK_JSON) writeFileSync(process.env.WALK_JSON, JSON.stringify(all, null, 1));
const total = all.filter((r) => r.findings.length).length;
console.log(`\n${total} pages with findings; ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exitCode = total === 0 ? 0 : 1;
