import type { CheerioAPI } from 'cheerio/slim';
import { type PortalResponse, type PortalSession, PortalUnavailable } from './portal-session.ts';

/** The portal refused the user name and password: trying again with them would only lock the account. */
export class WrongPassword extends Error {}

/** The portal answered something this adapter does not know how to read: its pages have changed. */
export class PortalChanged extends Error {}

export interface ListedBill {
  invoiceNumber: string;
  /** YYYY-MM-DD */
  issuedOn: string;
  accountNumber: string;
  downloadUrl: string;
}

/** One supplier's customer portal, read as its pages are laid out. */
export interface BillPortalAdapter {
  kind: 'bill-portal';
  label: string;
  signIn(session: PortalSession, baseUrl: string, username: string, password: string): Promise<void>;
  /** Pages of the bill list, newest bills first, until the portal has no more. */
  billPages(session: PortalSession, baseUrl: string): AsyncGenerator<ListedBill[]>;
  download(session: PortalSession, bill: ListedBill): Promise<Uint8Array>;
}

const PDF_MAGIC = '%PDF-';

async function page(res: PortalResponse): Promise<CheerioAPI> {
  if (!res.contentType.includes('html')) throw new PortalChanged(`Expected a page, got ${res.contentType}`);
  // The slim build parses with htmlparser2 alone; loaded on first use, so the API that starts runs never
  // carries the parser.
  const { load } = await import('cheerio/slim');
  return load(await res.text());
}

/**
 * The online account of the British Gas Business kind: a sign-in form with a hidden `_csrf` field, the
 * bill table `#bills` with one `tr.bill` per bill, and `a[rel=next]` to the next page.
 */
export const BILL_TABLE_PORTAL: BillPortalAdapter = {
  kind: 'bill-portal',
  label: 'Bill table portal',
  async signIn(session, baseUrl, username, password) {
    const form = await page(await session.request('GET', `${baseUrl}/login`));
    const csrf = form('form#sign-in input[name="_csrf"]').attr('value');
    const action = form('form#sign-in').attr('action');
    if (!csrf || !action) throw new PortalChanged('The sign-in page has no sign-in form');
    const res = await session.request('POST', new URL(action, `${baseUrl}/`).href, {
      _csrf: csrf,
      username,
      password,
    });
    if (res.status === 403) throw new PortalChanged('The portal refused the sign-in form (its token)');
    const after = await page(res);
    if (after('form#sign-in').length > 0) {
      const message = after('.error').first().text().trim();
      throw new WrongPassword(message || 'The portal refused the user name or password');
    }
    if (after('table#bills').length === 0) throw new PortalChanged('Signed in, but no bill list followed');
  },
  async *billPages(session, baseUrl) {
    let next: string | undefined = `${baseUrl}/bills`;
    const seen = new Set<string>();
    while (next && !seen.has(next)) {
      seen.add(next);
      const res = await session.request('GET', next);
      const $ = await page(res);
      if ($('form#sign-in').length > 0) throw new PortalChanged('The portal ended the session');
      const bills: ListedBill[] = [];
      $('table#bills tr.bill').each((_, row) => {
        const r = $(row);
        const link = r.find('a.download').attr('href');
        const invoiceNumber = r.find('.invoice-number').text().trim();
        const issuedOn = r.find('.issued time').attr('datetime') ?? '';
        if (!link || !invoiceNumber || !/^\d{4}-\d{2}-\d{2}$/.test(issuedOn)) return;
        bills.push({
          invoiceNumber,
          issuedOn,
          accountNumber: r.find('.account').text().trim(),
          downloadUrl: new URL(link, res.url).href,
        });
      });
      yield bills;
      const href = $('nav.pagination a[rel="next"]').attr('href');
      next = href ? new URL(href, res.url).href : undefined;
    }
  },
  download: downloadPdf,
};

async function downloadPdf(session: PortalSession, bill: ListedBill): Promise<Uint8Array> {
  const res = await session.request('GET', bill.downloadUrl);
  if (res.status !== 200)
    throw new PortalUnavailable(`The bill ${bill.invoiceNumber} answered ${res.status}`);
  const bytes = await res.bytes();
  if (Buffer.from(bytes.subarray(0, 5)).toString('latin1') !== PDF_MAGIC)
    throw new PortalChanged(`The bill ${bill.invoiceNumber} is not a PDF`);
  return bytes;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "1 October 2026" as YYYY-MM-DD, or undefined when it is not a date written out that way. */
export function longDate(text: string): string | undefined {
  const m = /^(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})$/.exec(text.trim());
  const month = m ? MONTHS.indexOf((m[2] ?? '').toLowerCase()) : -1;
  if (!m || month < 0) return undefined;
  const day = Number(m[1]);
  const iso = `${m[3]}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const time = Date.parse(`${iso}T00:00:00Z`);
  // 31 September parses as 1 October in some engines and as nothing in others: both are refused.
  return Number.isFinite(time) && new Date(time).toISOString().startsWith(iso) ? iso : undefined;
}

/**
 * The online account of the EDF Energy kind: a `form.login-form` with an `authenticity_token` and
 * `email`/`pass` fields, the account's documents as `li.document` cards (bills are `data-kind="invoice"`,
 * among statements and letters), dates written out ("1 October 2026") and `a.load-more` to the next ones.
 */
export const DOCUMENT_CARDS_PORTAL: BillPortalAdapter = {
  kind: 'bill-portal',
  label: 'Document cards portal',
  async signIn(session, baseUrl, username, password) {
    const form = await page(await session.request('GET', `${baseUrl}/login`));
    const token = form('form.login-form input[name="authenticity_token"]').attr('value');
    const action = form('form.login-form').attr('action');
    if (!token || !action) throw new PortalChanged('The log-in page has no log-in form');
    const res = await session.request('POST', new URL(action, `${baseUrl}/`).href, {
      authenticity_token: token,
      email: username,
      pass: password,
    });
    if (res.status === 403) throw new PortalChanged('The portal refused the log-in form (its token)');
    const after = await page(res);
    if (after('form.login-form').length > 0) {
      const message = after('.alert').first().text().trim();
      throw new WrongPassword(message || 'The portal refused the user name or password');
    }
    if (after('ul.documents').length === 0) throw new PortalChanged('Logged in, but no documents followed');
  },
  async *billPages(session, baseUrl) {
    let next: string | undefined = `${baseUrl}/account/documents`;
    const seen = new Set<string>();
    while (next && !seen.has(next)) {
      seen.add(next);
      const res = await session.request('GET', next);
      const $ = await page(res);
      if ($('form.login-form').length > 0) throw new PortalChanged('The portal ended the session');
      if ($('ul.documents').length === 0) throw new PortalChanged('The documents page has no document list');
      const bills: ListedBill[] = [];
      $('ul.documents li.document[data-kind="invoice"]').each((_, card) => {
        const c = $(card);
        const link = c.find('a.doc-download').attr('href');
        const invoiceNumber = c
          .find('.doc-ref')
          .text()
          .replace(/^\s*Invoice no\.?\s*/i, '')
          .trim();
        const issuedOn = longDate(c.find('.doc-date').text());
        if (!link || !invoiceNumber || !issuedOn) return;
        bills.push({
          invoiceNumber,
          issuedOn,
          accountNumber: c
            .find('.doc-account')
            .text()
            .replace(/^\s*Account\s*/i, '')
            .trim(),
          downloadUrl: new URL(link, res.url).href,
        });
      });
      yield bills;
      const href = $('a.load-more').attr('href');
      next = href ? new URL(href, res.url).href : undefined;
    }
  },
  download: downloadPdf,
};
