import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { settlementPeriodStarts } from '../../../shared/analytics/half-hourly.ts';

/**
 * Local servers of what the connectors talk to, with the behaviour of the real ones:
 *
 * - a supplier's customer portal (`/portal/{slug}/…`): a sign-in form with a CSRF token bound to a
 *   pre-session cookie, a session cookie after sign-in, the bill list as paginated HTML, newest first, and
 *   each bill as a PDF; a wrong password answers the sign-in page again with its error; the portal can be
 *   put down for maintenance (503) or made slow;
 * - a smart-meter data API in the shape of the Octopus Energy consumption API (`/octopus/v1/…`): HTTP Basic
 *   with the API key as user name, pages of half-hourly intervals linked by `next`, 429 with `Retry-After`
 *   when asked to throttle.
 */

export interface PortalBill {
  /** The portal's own id of the bill, in its download link. */
  id: string;
  invoiceNumber: string;
  /** YYYY-MM-DD */
  issuedOn: string;
  accountNumber: string;
  amount: number;
  pdf: () => Promise<Uint8Array>;
}

export interface PortalAccount {
  username: string;
  password: string;
  bills: PortalBill[];
}

export interface ConsumptionMeter {
  mpan: string;
  serial: string;
  /** Readings from this local day up to `to` (exclusive), YYYY-MM-DD. */
  from: string;
  to: string;
  /** kWh of each settlement period of a day. */
  profile: (date: string) => number[];
}

export type PortalMode = 'up' | 'down' | 'slow';

export interface ConnectorFakes {
  url: string;
  /** Environment variables that point the functions at these servers. */
  env: Record<string, string>;
  portalUrl(slug: string): string;
  addPortalAccount(slug: string, account: PortalAccount): void;
  portalAccount(slug: string, username: string): PortalAccount | undefined;
  setPortalMode(slug: string, mode: PortalMode, slowMs?: number): void;
  /** How many bill PDFs each portal has served. */
  downloads: Map<string, number>;
  addMeter(apiKey: string, meter: ConsumptionMeter): void;
  /** The next `count` consumption requests answer 429. */
  throttle(count: number, retryAfterSeconds?: number): void;
  consumptionCalls: { total: number; throttled: number };
  stop(): Promise<void>;
}

export const PORTAL_PAGE_SIZE = 10;
const MAX_API_PAGE = 25_000;
const SESSION_COOKIE = 'portal_session';
const PRE_COOKIE = 'portal_pre';

export function connectorEnvironment(url: string): Record<string, string> {
  return { SUPPLIER_PORTAL_BASE_URL: `${url}/portal`, METER_DATA_API_URL: `${url}/octopus` };
}

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function cookiesOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k) out[k] = v.join('=');
  }
  return out;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head><body><header><h1>${esc(title)}</h1></header><main>${body}</main></body></html>`;

function html(
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string | string[]> = {},
) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
  res.end(text);
}

const signInForm = (base: string, csrf: string, error?: string) =>
  page(
    'Sign in to your business account',
    `${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}<form method="post" action="${base}/login" id="sign-in"><input type="hidden" name="_csrf" value="${csrf}"><label>E-mail or username <input name="username" autocomplete="username"></label><label>Password <input type="password" name="password"></label><button type="submit">Sign in</button></form>`,
  );

const moneyText = (n: number) =>
  `£${n.toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

function billList(base: string, bills: readonly PortalBill[], pageNo: number): string {
  const pages = Math.max(1, Math.ceil(bills.length / PORTAL_PAGE_SIZE));
  const shown = bills.slice((pageNo - 1) * PORTAL_PAGE_SIZE, pageNo * PORTAL_PAGE_SIZE);
  const rows = shown
    .map(
      (b) =>
        `<tr class="bill" data-bill-id="${esc(b.id)}"><td class="invoice-number">${esc(b.invoiceNumber)}</td><td class="account">${esc(b.accountNumber)}</td><td class="issued"><time datetime="${b.issuedOn}">${esc(b.issuedOn)}</time></td><td class="amount">${moneyText(b.amount)}</td><td><a class="download" href="${base}/bills/${encodeURIComponent(b.id)}/pdf">Download PDF</a></td></tr>`,
    )
    .join('');
  const nav = [
    pageNo > 1 ? `<a rel="prev" href="${base}/bills?page=${pageNo - 1}">Previous</a>` : '',
    `<span class="page">Page ${pageNo} of ${pages}</span>`,
    pageNo < pages ? `<a rel="next" href="${base}/bills?page=${pageNo + 1}">Next</a>` : '',
  ].join(' ');
  return page(
    'Your bills',
    `<form method="post" action="${base}/logout"><button>Sign out</button></form><table id="bills"><thead><tr><th>Invoice number</th><th>Account</th><th>Issued</th><th>Amount</th><th></th></tr></thead><tbody>${rows}</tbody></table><nav class="pagination">${nav}</nav>`,
  );
}

/**
 * Portals laid out as the EDF Energy kind: a sign-in form with other field names, the documents of the
 * account as cards (bills among statements and letters), dates written out, and "Show more" paging.
 */
const DOCUMENT_CARD_PORTALS = new Set(['edf-energy']);

const cardSignIn = (base: string, token: string, error?: string) =>
  page(
    'Log in to My Account',
    `${error ? `<div class="alert alert-danger">${esc(error)}</div>` : ''}<form class="login-form" method="post" action="${base}/session"><input type="hidden" name="authenticity_token" value="${token}"><label>Email <input name="email" type="email"></label><label>Password <input type="password" name="pass"></label><button type="submit">Log in</button></form>`,
  );

const LONG_DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

function documentCards(base: string, bills: readonly PortalBill[], offset: number): string {
  const shown = bills.slice(offset, offset + PORTAL_PAGE_SIZE);
  // A statement among the bills, as real accounts hold: it is not a bill and has no invoice number.
  const statement =
    offset === 0
      ? `<li class="document" data-kind="statement"><h3>Annual statement</h3><span class="doc-date">${LONG_DATE.format(new Date())}</span><a class="doc-download" href="${base}/documents/statement/file">Download</a></li>`
      : '';
  const cards = shown
    .map(
      (b) =>
        `<li class="document" data-kind="invoice"><h3>Bill</h3><span class="doc-ref">Invoice no. ${esc(b.invoiceNumber)}</span><span class="doc-account">Account ${esc(b.accountNumber)}</span><span class="doc-date">${LONG_DATE.format(new Date(`${b.issuedOn}T00:00:00Z`))}</span><span class="doc-amount">${moneyText(b.amount)}</span><a class="doc-download" href="${base}/documents/${encodeURIComponent(b.id)}/file">Download</a></li>`,
    )
    .join('');
  const more =
    offset + PORTAL_PAGE_SIZE < bills.length
      ? `<a class="load-more" href="${base}/account/documents?offset=${offset + PORTAL_PAGE_SIZE}">Show more</a>`
      : '';
  return page(
    'Your documents',
    `<a class="logout" href="${base}/logout">Log out</a><ul class="documents">${statement}${cards}</ul>${more}`,
  );
}

/** The local day (Europe/London) an instant falls on. */
const LONDON_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

interface Interval {
  start: number;
  startText: string;
  endText: string;
  consumption: number;
}

interface PeriodStart {
  at: number;
  startText: string;
  endText: string;
}

const periodStarts = new Map<string, PeriodStart[]>();
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/**
 * The UTC instants a local day's periods start at, with their times as the API writes them, kept:
 * every meter of a year asks for the same days, and formatting the times took most of an answer.
 */
function startsOf(day: string): PeriodStart[] {
  let starts = periodStarts.get(day);
  if (!starts) {
    starts = settlementPeriodStarts(day).map((s) => {
      const at = Date.parse(s.utcStart);
      return { at, startText: isoSeconds(at), endText: isoSeconds(at + 1_800_000) };
    });
    periodStarts.set(day, starts);
  }
  return starts;
}

function intervalsOf(meter: ConsumptionMeter, fromMs: number, toMs: number): Interval[] {
  const out: Interval[] = [];
  const firstDay = LONDON_DAY.format(
    new Date(Math.max(fromMs, Date.parse(`${meter.from}T00:00:00Z`) - 86_400_000)),
  );
  let day = firstDay;
  if (day < meter.from) day = meter.from;
  while (day < meter.to) {
    const starts = startsOf(day);
    if ((starts[0]?.at ?? 0) >= toMs) break;
    const values = meter.profile(day);
    starts.forEach(({ at, startText, endText }, i) => {
      if (at >= fromMs && at < toMs) out.push({ start: at, startText, endText, consumption: values[i] ?? 0 });
    });
    day = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  }
  return out;
}

export async function startConnectorFakes(
  opts: { port?: number; host?: string } = {},
): Promise<ConnectorFakes> {
  const portals = new Map<string, Map<string, PortalAccount>>();
  const modes = new Map<string, { mode: PortalMode; slowMs: number }>();
  const sessions = new Map<string, { slug: string; username: string }>();
  const preSessions = new Map<string, string>();
  const downloads = new Map<string, number>();
  const meters = new Map<string, { apiKey: string; meter: ConsumptionMeter }>();
  const throttling = { left: 0, retryAfter: 1 };
  const consumptionCalls = { total: 0, throttled: 0 };

  async function portal(req: IncomingMessage, res: ServerResponse, url: URL) {
    const m = /^\/portal\/([a-z0-9-]+)(\/.*)?$/.exec(url.pathname);
    const slug = m?.[1];
    const accounts = slug ? portals.get(slug) : undefined;
    if (!slug || !accounts) return html(res, 404, page('Not found', '<p>There is no such page.</p>'));
    const base = `/portal/${slug}`;
    const path = m?.[2] ?? '/';
    const mode = modes.get(slug) ?? { mode: 'up', slowMs: 0 };
    if (mode.mode === 'down')
      return html(
        res,
        503,
        page(
          'Service unavailable',
          '<p class="maintenance">Our online account is down for planned maintenance. Please try again later.</p>',
        ),
        { 'retry-after': '3600' },
      );
    if (mode.mode === 'slow') await new Promise((r) => setTimeout(r, mode.slowMs));
    const cookies = cookiesOf(req);
    const session = sessions.get(cookies[SESSION_COOKIE] ?? '');
    const user = session?.slug === slug ? accounts.get(session.username) : undefined;
    const cards = DOCUMENT_CARD_PORTALS.has(slug);
    const signInPage = (csrf: string, error?: string) =>
      cards ? cardSignIn(base, csrf, error) : signInForm(base, csrf, error);

    if (path === '/' || (path === '/login' && req.method === 'GET')) {
      const pre = randomBytes(12).toString('hex');
      const csrf = randomBytes(16).toString('hex');
      preSessions.set(pre, csrf);
      return html(res, 200, signInPage(csrf), {
        'set-cookie': `${PRE_COOKIE}=${pre}; Path=${base}; HttpOnly; SameSite=Lax`,
      });
    }
    if (path === (cards ? '/session' : '/login') && req.method === 'POST') {
      const form = new URLSearchParams(await bodyOf(req));
      const expected = preSessions.get(cookies[PRE_COOKIE] ?? '');
      if (!expected || form.get(cards ? 'authenticity_token' : '_csrf') !== expected)
        return html(
          res,
          403,
          page('Session expired', '<p class="error">Your session has expired. Please sign in again.</p>'),
        );
      preSessions.delete(cookies[PRE_COOKIE] ?? '');
      const account = accounts.get(form.get(cards ? 'email' : 'username') ?? '');
      if (!account || account.password !== form.get(cards ? 'pass' : 'password')) {
        const pre = randomBytes(12).toString('hex');
        const csrf = randomBytes(16).toString('hex');
        preSessions.set(pre, csrf);
        const refused = cards
          ? 'Sorry, those details do not match our records.'
          : 'The e-mail or password you entered is incorrect.';
        return html(res, 200, signInPage(csrf, refused), {
          'set-cookie': `${PRE_COOKIE}=${pre}; Path=${base}; HttpOnly; SameSite=Lax`,
        });
      }
      const id = randomBytes(16).toString('hex');
      sessions.set(id, { slug, username: account.username });
      res.writeHead(302, {
        location: cards ? `${base}/account/documents` : `${base}/bills`,
        'set-cookie': `${SESSION_COOKIE}=${id}; Path=${base}; HttpOnly; SameSite=Lax`,
      });
      return res.end();
    }
    if (!user) {
      res.writeHead(302, { location: `${base}/login` });
      return res.end();
    }
    if (path === '/logout' && req.method === (cards ? 'GET' : 'POST')) {
      sessions.delete(cookies[SESSION_COOKIE] ?? '');
      res.writeHead(302, { location: `${base}/login` });
      return res.end();
    }
    const newestFirst = () =>
      [...user.bills].sort((a, b) => b.issuedOn.localeCompare(a.issuedOn) || b.id.localeCompare(a.id));
    if (!cards && path === '/bills' && req.method === 'GET') {
      const n = Math.max(1, Math.floor(Number(url.searchParams.get('page') ?? '1')) || 1);
      return html(res, 200, billList(base, newestFirst(), n));
    }
    if (cards && path === '/account/documents' && req.method === 'GET') {
      const offset = Math.max(0, Math.floor(Number(url.searchParams.get('offset') ?? '0')) || 0);
      return html(res, 200, documentCards(base, newestFirst(), offset));
    }
    const pdf = (cards ? /^\/documents\/([^/]+)\/file$/ : /^\/bills\/([^/]+)\/pdf$/).exec(path);
    const bill = pdf ? user.bills.find((b) => b.id === decodeURIComponent(pdf[1] as string)) : undefined;
    if (bill && req.method === 'GET') {
      const bytes = await bill.pdf();
      downloads.set(slug, (downloads.get(slug) ?? 0) + 1);
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-length': bytes.byteLength,
        'content-disposition': `attachment; filename="${bill.invoiceNumber}.pdf"`,
      });
      return res.end(bytes);
    }
    return html(res, 404, page('Not found', '<p>There is no such page.</p>'));
  }

  function octopus(req: IncomingMessage, res: ServerResponse, url: URL) {
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(text);
    };
    consumptionCalls.total++;
    if (throttling.left > 0) {
      throttling.left--;
      consumptionCalls.throttled++;
      return send(
        429,
        { detail: 'Request was throttled.' },
        { 'retry-after': String(throttling.retryAfter) },
      );
    }
    const m = /^\/octopus\/v1\/electricity-meter-points\/(\d{13})\/meters\/([^/]+)\/consumption\/$/.exec(
      url.pathname,
    );
    const auth = req.headers.authorization ?? '';
    const key = auth.startsWith('Basic ')
      ? Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':')[0]
      : '';
    if (!key) return send(401, { detail: 'Authentication credentials were not provided.' });
    if (![...meters.values()].some((m) => m.apiKey === key)) return send(401, { detail: 'Invalid API key.' });
    if (!m) return send(404, { detail: 'Not found.' });
    const held = meters.get(`${m[1]}/${decodeURIComponent(m[2] as string)}`);
    if (!held || held.apiKey !== key) return send(404, { detail: 'Not found.' });
    const q = url.searchParams;
    const from = q.get('period_from') ? Date.parse(q.get('period_from') as string) : 0;
    const to = q.get('period_to') ? Date.parse(q.get('period_to') as string) : Date.now();
    if (!Number.isFinite(from) || !Number.isFinite(to))
      return send(400, { period_from: ['Enter a valid date/time.'] });
    const size = Math.min(MAX_API_PAGE, Math.max(1, Number(q.get('page_size') ?? '100') || 100));
    const pageNo = Math.max(1, Number(q.get('page') ?? '1') || 1);
    const ascending = q.get('order_by') === 'period';
    const all = intervalsOf(held.meter, from, to);
    if (!ascending) all.reverse();
    const results = all.slice((pageNo - 1) * size, pageNo * size).map((i) => ({
      consumption: i.consumption,
      interval_start: i.startText,
      interval_end: i.endText,
    }));
    const link = (n: number) => {
      const next = new URL(url.href);
      next.searchParams.set('page', String(n));
      return `http://${req.headers.host}${next.pathname}${next.search}`;
    };
    send(200, {
      count: all.length,
      next: pageNo * size < all.length ? link(pageNo + 1) : null,
      previous: pageNo > 1 ? link(pageNo - 1) : null,
      results,
    });
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const handle = url.pathname.startsWith('/portal/')
      ? portal(req, res, url)
      : url.pathname.startsWith('/octopus/')
        ? Promise.resolve(octopus(req, res, url))
        : Promise.resolve(html(res, 404, page('Not found', '')));
    handle.catch((err: unknown) => {
      if (!res.headersSent) html(res, 500, page('Error', esc(String(err))));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  return {
    url,
    env: connectorEnvironment(url),
    portalUrl: (slug) => `${url}/portal/${slug}`,
    addPortalAccount: (slug, account) => {
      const accounts = portals.get(slug) ?? new Map<string, PortalAccount>();
      accounts.set(account.username, account);
      portals.set(slug, accounts);
    },
    portalAccount: (slug, username) => portals.get(slug)?.get(username),
    setPortalMode: (slug, mode, slowMs = 1500) => modes.set(slug, { mode, slowMs }),
    downloads,
    addMeter: (apiKey, meter) => meters.set(`${meter.mpan}/${meter.serial}`, { apiKey, meter }),
    throttle: (count, retryAfter = 1) => {
      throttling.left = count;
      throttling.retryAfter = retryAfter;
    },
    consumptionCalls,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A stable portal id for a bill, as portals use opaque ids rather than invoice numbers in links. */
export const portalBillId = (invoiceNumber: string) =>
  createHash('sha256').update(invoiceNumber).digest('hex').slice(0, 16);
