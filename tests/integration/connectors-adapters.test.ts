import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dayStartUtc,
  type FetchStats,
  fetchConsumption,
  intervalsToDays,
} from '../../functions/automation/meter-data-client.ts';
import {
  BILL_TABLE_PORTAL,
  type ListedBill,
  WrongPassword,
} from '../../functions/automation/portal-adapters.ts';
import { fileKeySealer } from '../../functions/automation/portal-secrets.ts';
import { PortalSession, PortalUnavailable } from '../../functions/automation/portal-session.ts';
import {
  type ConnectorFakes,
  PORTAL_PAGE_SIZE,
  type PortalBill,
  startConnectorFakes,
} from '../../infra/local/fakes/supplier-portal-server.ts';

let fakes: ConnectorFakes;
const SLUG = 'test-energy';
const PDF = new TextEncoder().encode('%PDF-1.7\n%test\n');

const bill = (n: number): PortalBill => ({
  id: `b${n}`,
  invoiceNumber: `TE-${1000 + n}`,
  issuedOn: new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10),
  accountNumber: '850012345',
  amount: 100 + n,
  pdf: async () => PDF,
});

beforeAll(async () => {
  fakes = await startConnectorFakes();
  fakes.addPortalAccount(SLUG, {
    username: 'estates',
    password: 'Right-password-1',
    bills: Array.from({ length: 23 }, (_, n) => bill(n)),
  });
});
afterAll(() => fakes.stop());

const base = () => fakes.portalUrl(SLUG);

async function listAll(session: PortalSession): Promise<ListedBill[][]> {
  const pages: ListedBill[][] = [];
  for await (const page of BILL_TABLE_PORTAL.billPages(session, base())) pages.push(page);
  return pages;
}

describe('the bill-table portal adapter against the local portal', () => {
  it('signs in through the form with its CSRF token and session cookie, and pages through every bill, newest first', async () => {
    const session = new PortalSession();
    await BILL_TABLE_PORTAL.signIn(session, base(), 'estates', 'Right-password-1');
    const pages = await listAll(session);
    expect(pages.map((p) => p.length)).toEqual([PORTAL_PAGE_SIZE, PORTAL_PAGE_SIZE, 3]);
    const all = pages.flat();
    expect(all[0]).toMatchObject({
      invoiceNumber: 'TE-1022',
      issuedOn: '2026-01-23',
      accountNumber: '850012345',
    });
    expect(all.at(-1)?.invoiceNumber).toBe('TE-1000');
    expect(new Set(all.map((b) => b.invoiceNumber)).size).toBe(23);
    const bytes = await BILL_TABLE_PORTAL.download(session, all[0] as ListedBill);
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
  });

  it('is refused the bill list without a session', async () => {
    const session = new PortalSession();
    await expect(listAll(session)).rejects.toThrow(/ended the session/);
  });

  it('tells a wrong password from the portal being down', async () => {
    await expect(
      BILL_TABLE_PORTAL.signIn(new PortalSession(), base(), 'estates', 'wrong'),
    ).rejects.toBeInstanceOf(WrongPassword);
    fakes.setPortalMode(SLUG, 'down');
    const down = BILL_TABLE_PORTAL.signIn(new PortalSession(), base(), 'estates', 'Right-password-1');
    await expect(down).rejects.toBeInstanceOf(PortalUnavailable);
    await expect(down).rejects.not.toBeInstanceOf(WrongPassword);
    fakes.setPortalMode(SLUG, 'up');
  });

  it('gives up on a portal slower than its deadline, and waits for one within it', async () => {
    fakes.setPortalMode(SLUG, 'slow', 400);
    await expect(
      BILL_TABLE_PORTAL.signIn(new PortalSession(100), base(), 'estates', 'Right-password-1'),
    ).rejects.toThrow(/did not answer in time/);
    await BILL_TABLE_PORTAL.signIn(new PortalSession(5_000), base(), 'estates', 'Right-password-1');
    fakes.setPortalMode(SLUG, 'up');
  });
});

describe('the smart-meter data client against the local consumption API', () => {
  const meter = { mpan: '1200012345678', serial: '21E5000001' };
  const KEY = 'sk_test_key';

  beforeAll(() => {
    fakes.addMeter(KEY, {
      ...meter,
      from: '2026-03-01',
      to: '2026-04-30',
      profile: (date) => Array.from({ length: date === '2026-03-29' ? 46 : 48 }, (_, i) => i / 10),
    });
  });

  it('follows `next` through the pages and makes local days of the intervals, the clock-change day short', async () => {
    const stats: FetchStats = { requests: 0, throttled: 0 };
    const from = new Date(dayStartUtc('2026-03-27'));
    const to = new Date(dayStartUtc('2026-04-01'));
    const intervals = await fetchConsumption(fakes.url.concat('/octopus'), KEY, meter, from, to, stats, 100);
    expect(intervals.length).toBe(48 * 4 + 46);
    expect(stats.requests).toBe(Math.ceil(intervals.length / 100));
    const days = intervalsToDays(intervals);
    expect(days.map((d) => [d.date, d.values.length])).toEqual([
      ['2026-03-27', 48],
      ['2026-03-28', 48],
      ['2026-03-29', 46],
      ['2026-03-30', 48],
      ['2026-03-31', 48],
    ]);
    expect(days[2]?.values.every((v) => v !== null)).toBe(true);
    expect(days[0]?.values[47]).toBeCloseTo(4.7);
  });

  it('waits out 429 answers and carries on', async () => {
    fakes.throttle(2, 1);
    const stats: FetchStats = { requests: 0, throttled: 0 };
    const startedAt = Date.now();
    const intervals = await fetchConsumption(
      `${fakes.url}/octopus`,
      KEY,
      meter,
      new Date(dayStartUtc('2026-04-01')),
      new Date(dayStartUtc('2026-04-02')),
      stats,
    );
    expect(intervals.length).toBe(48);
    expect(stats.throttled).toBe(2);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1900);
  });

  it('is refused with another key, and told of a meter it does not hold', async () => {
    const stats: FetchStats = { requests: 0, throttled: 0 };
    await expect(
      fetchConsumption(`${fakes.url}/octopus`, 'other', meter, new Date(0), new Date(), stats),
    ).rejects.toBeInstanceOf(WrongPassword);
    await expect(
      fetchConsumption(
        `${fakes.url}/octopus`,
        KEY,
        { ...meter, serial: 'X' },
        new Date(0),
        new Date(),
        stats,
      ),
    ).rejects.toThrow(/does not know meter/);
  });
});

describe('sealed portal passwords', () => {
  it('open only with their own key and login', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-key-'));
    const sealer = fileKeySealer(join(dir, 'key'));
    const sealed = await sealer.seal('Secret-1', 'company-a:supplier-b');
    expect(sealed).not.toContain('Secret-1');
    expect(await sealer.open(sealed, 'company-a:supplier-b')).toBe('Secret-1');
    await expect(sealer.open(sealed, 'company-x:supplier-b')).rejects.toThrow();
    await expect(
      fileKeySealer(join(dir, 'other-key')).open(sealed, 'company-a:supplier-b'),
    ).rejects.toThrow();
  });
});
