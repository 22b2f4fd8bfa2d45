import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adapterFor } from '../../functions/automation/connector-adapters.ts';
import {
  BILL_TABLE_PORTAL,
  DOCUMENT_CARDS_PORTAL,
  type ListedBill,
  longDate,
  PortalChanged,
  WrongPassword,
} from '../../functions/automation/portal-adapters.ts';
import { PortalSession } from '../../functions/automation/portal-session.ts';
import {
  type ConnectorFakes,
  PORTAL_PAGE_SIZE,
  type PortalBill,
  startConnectorFakes,
} from '../../infra/local/fakes/supplier-portal-server.ts';

/** The second portal layout (EDF Energy's kind): document cards, written-out dates, "Show more" paging. */
let fakes: ConnectorFakes;
const SLUG = 'edf-energy';
const PDF = new TextEncoder().encode('%PDF-1.7\n%cards\n');

const bill = (n: number): PortalBill => ({
  id: `edf-${n}`,
  invoiceNumber: `EDF-${5000 + n}`,
  issuedOn: new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10),
  accountNumber: '671234',
  amount: 50 + n,
  pdf: async () => PDF,
});

beforeAll(async () => {
  fakes = await startConnectorFakes();
  fakes.addPortalAccount(SLUG, {
    username: 'facilities@demo.test',
    password: 'Cards-password-2',
    bills: Array.from({ length: 23 }, (_, n) => bill(n)),
  });
});
afterAll(() => fakes.stop());

const base = () => fakes.portalUrl(SLUG);

describe('the document-cards portal adapter against the local portal', () => {
  it('is the adapter of EDF Energy', () => {
    expect(adapterFor('EDF Energy')).toBe(DOCUMENT_CARDS_PORTAL);
  });

  it('logs in, and lists every bill across "Show more", leaving out the statement among them', async () => {
    const session = new PortalSession();
    await DOCUMENT_CARDS_PORTAL.signIn(session, base(), 'facilities@demo.test', 'Cards-password-2');
    const pages: ListedBill[][] = [];
    for await (const page of DOCUMENT_CARDS_PORTAL.billPages(session, base())) pages.push(page);
    expect(pages.map((p) => p.length)).toEqual([PORTAL_PAGE_SIZE, PORTAL_PAGE_SIZE, 3]);
    const all = pages.flat();
    expect(all[0]).toMatchObject({
      invoiceNumber: 'EDF-5022',
      issuedOn: '2026-01-23',
      accountNumber: '671234',
    });
    expect(all.at(-1)).toMatchObject({ invoiceNumber: 'EDF-5000', issuedOn: '2026-01-01' });
    expect(all.some((b) => b.downloadUrl.includes('statement'))).toBe(false);
    const bytes = await DOCUMENT_CARDS_PORTAL.download(session, all[0] as ListedBill);
    expect(new TextDecoder().decode(bytes)).toContain('%cards');
  });

  it("passes on the portal's own words when it refuses the password", async () => {
    const refused = DOCUMENT_CARDS_PORTAL.signIn(
      new PortalSession(),
      base(),
      'facilities@demo.test',
      'wrong',
    );
    await expect(refused).rejects.toBeInstanceOf(WrongPassword);
    await expect(refused).rejects.toThrow('Sorry, those details do not match our records.');
  });

  it('is not read by the bill-table adapter, which says the pages are not what it knows', async () => {
    await expect(
      BILL_TABLE_PORTAL.signIn(new PortalSession(), base(), 'facilities@demo.test', 'Cards-password-2'),
    ).rejects.toBeInstanceOf(PortalChanged);
  });

  it('reads written-out dates, and refuses what is not one', () => {
    expect(longDate('1 October 2026')).toBe('2026-10-01');
    expect(longDate(' 29 February 2028 ')).toBe('2028-02-29');
    expect(longDate('31 September 2026')).toBeUndefined();
    expect(longDate('2026-10-01')).toBeUndefined();
  });
});
