import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { storePortalPassword } from '../../../functions/automation/index.ts';
import { changeStoredCompany } from '../../../functions/company/index.ts';
import { listAllCompanies } from '../../../functions/core/access/membership-repository.ts';
import { changeItem } from '../../../functions/core/data/conditional-writes.ts';
import { declaredRef, queryAll, type StoredItem } from '../../../functions/core/data/item-repository.ts';
import { allInvoices } from '../../../functions/invoices/index.ts';
import { invoiceDocument } from '../seed/invoice-documents.ts';
import { type ConnectorFakes, type PortalBill, portalBillId } from './supplier-portal-server.ts';

/** The demo company's login at its British Gas Business online account. */
export const DEMO_PORTAL = {
  supplierName: 'British Gas Business',
  slug: 'british-gas-business',
  username: 'demo-estates',
  password: 'Portal-demo-2026!',
} as const;

/** New bills waiting on the demo portal: the next month's bill of this many of the company's supply accounts. */
const NEW_DEMO_BILLS = 3;
const MARKER = 'connectors-seeded.json';

const addMonths = (iso: string, months: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
};

/**
 * A bill as the supplier's portal would offer it: a stored invoice's values moved `months` on, with a new
 * invoice number, printed as the demo prints bills.
 */
export function portalBillFrom(
  invoice: StoredItem,
  supplierName: string,
  months: number,
  invoiceNumber: string,
): PortalBill {
  const v = (invoice.values ?? {}) as Record<string, unknown>;
  const shift = (x: unknown) =>
    typeof x === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(x) ? addMonths(x, months) : x;
  const values = {
    ...v,
    invoiceNumber,
    invoiceDate: shift(v.invoiceDate),
    dueDate: shift(v.dueDate),
    startDate: shift(v.startDate),
    endDate: shift(v.endDate),
  };
  const moved: StoredItem = { ...invoice, values };
  let bytes: Promise<Uint8Array> | undefined;
  return {
    id: portalBillId(invoiceNumber),
    invoiceNumber,
    issuedOn: String(values.invoiceDate ?? values.endDate ?? '2026-01-01'),
    accountNumber: String(v.accountNumber ?? ''),
    amount: typeof v.grossTotal === 'number' ? v.grossTotal : 0,
    pdf: () => {
      bytes ??= invoiceDocument(moved, supplierName);
      return bytes;
    },
  };
}

async function findByName(pk: string, name: string): Promise<StoredItem | undefined> {
  return (await queryAll(pk)).find((i) => i.name === name && i.deleted !== true);
}

/**
 * Puts the demo company's next bills on the local British Gas Business portal: the next month's bill of a
 * few of its accounts, which a run fetches. The
 * first time, also gives the company its login there (user name, sealed password) and turns the
 * supplier's connector on.
 */
export async function setUpDemoPortals(fakes: ConnectorFakes, stateDir: string): Promise<{ bills: number }> {
  const companies = (await listAllCompanies(1000, 0)).data;
  const demo = companies.find((c) => c.name === 'Demo Estates Ltd');
  const supplier = await findByName(declaredRef('suppliers', {}).pk, DEMO_PORTAL.supplierName);
  if (!demo || !supplier) return { bills: 0 };
  const invoices = (await allInvoices(demo._id)).filter(
    (i) => i.deleted !== true && typeof i.accountId === 'string',
  ) as StoredItem[];
  const accounts = await queryAll(declaredRef('accounts', { companyId: demo._id }).pk);
  const ofSupplier = new Set(accounts.filter((a) => a.supplierId === supplier._id).map((a) => a._id));
  const theirs = invoices.filter((i) => ofSupplier.has(String(i.accountId)));
  const latest = new Map<string, StoredItem>();
  for (const i of theirs) {
    const at = String((i.values as Record<string, unknown> | undefined)?.invoiceDate ?? '');
    const before = latest.get(String(i.accountId));
    const beforeAt = String((before?.values as Record<string, unknown> | undefined)?.invoiceDate ?? '');
    if (!before || at > beforeAt) latest.set(String(i.accountId), i);
  }
  const fresh = [...latest.values()]
    .slice(0, NEW_DEMO_BILLS)
    .map((i, n) => portalBillFrom(i, supplier.name as string, 1, `BGB-P${String(900001 + n)}`));
  fakes.addPortalAccount(DEMO_PORTAL.slug, {
    username: DEMO_PORTAL.username,
    password: DEMO_PORTAL.password,
    bills: fresh,
  });

  const marker = join(stateDir, MARKER);
  const done = await access(marker).then(
    () => true,
    () => false,
  );
  if (!done) {
    await changeItem(declaredRef('suppliers', {}), supplier._id, (s) => ({ ...s, scraperEnabled: true }));
    await storePortalPassword(demo._id, supplier._id, DEMO_PORTAL.password);
    await changeStoredCompany(demo._id, (c) => {
      const settings = c.settings ?? {};
      const portals = settings.supplierPortals ?? {};
      return {
        ...c,
        settings: {
          ...settings,
          supplierPortals: { ...portals, [supplier._id]: { username: DEMO_PORTAL.username, enabled: true } },
        },
      };
    });
    await writeFile(marker, `${JSON.stringify({ at: new Date().toISOString() })}\n`);
  }
  return { bills: fresh.length };
}
