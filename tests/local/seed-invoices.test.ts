import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Operations } from '../../functions/core/middleware/api-context.ts';
import { INVOICE_KEYS, type InvoiceKey } from '../../shared/capture/model.ts';
import { type Item, lastCompleteMonth, type SeededStack, startSeededStack } from './seed-fixture.ts';

/** The demo's bills as the invoice and bill validation pages show them. */

let stack: SeededStack;
let demoId: string;
type OperationSet = 'invoices' | 'validation' | 'generic';
let call: <T>(ops: OperationSet, op: string, input?: CallInput) => Promise<T>;

interface CallInput {
  /** The route's path, where several routes share the operation */
  path?: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
}

interface Check {
  key: string;
  status: string;
  reason: string;
}

beforeAll(async () => {
  stack = await startSeededStack();
  ({ demoId } = stack);
  const { INVOICE_OPERATIONS } = await import('../../functions/invoices/invoice-service.ts');
  const { VALIDATION_QUEUE_OPERATIONS } = await import(
    '../../functions/invoices/validation-queue-service.ts'
  );
  const { GENERIC_OPERATIONS } = await import('../../functions/core/resources/resource-service.ts');
  const { HTTP_ROUTES } = await import('../../shared/system/routes.ts');
  const { companyUser } = await import('../../infra/local/seed/service-calls.ts');
  const { createLogger } = await import('../../functions/core/lib/logger.ts');
  const log = createLogger({ component: 'test' }, 'warn');
  const ownerSub = String(
    stack.inPartition(`C#${demoId}#logs`).find((l) => l.userName === 'Olivia Bennett')?.userSub,
  );
  const owner = companyUser(
    demoId,
    { sub: ownerSub, email: 'owner@demo.test', name: 'Olivia Bennett' },
    { name: 'Owner', permissions: ['company_owner', 'company_admin'] },
  );
  const operations: Record<OperationSet, Operations> = {
    invoices: INVOICE_OPERATIONS,
    validation: VALIDATION_QUEUE_OPERATIONS,
    generic: GENERIC_OPERATIONS,
  };
  // The calls the pages make, with the query string the HTTP handler would pass (callOperation has none).
  call = async <T>(ops: OperationSet, op: string, input: CallInput = {}) => {
    const route = HTTP_ROUTES.find((r) => r.op === op && (!input.path || r.path === input.path));
    const operation = operations[ops][op];
    if (!route || !operation) throw new Error(`No operation ${op}`);
    const result = await operation({
      route,
      params: input.params ?? {},
      query: input.query ?? {},
      body: undefined,
      headers: {},
      caller: owner,
      log,
      correlationId: 'seed-invoices-test',
    });
    return result.body as T;
  };
}, 180_000);

afterAll(async () => {
  await stack?.stop();
});

/** The keys a bill of each utility prints: waste has no meter, and only energy bears the levy. */
function expectedKeys(utility: string): InvoiceKey[] {
  const noMeter: InvoiceKey[] = ['meterPointNumber', 'meterSerialNumber', 'openingRead', 'closingRead'];
  return INVOICE_KEYS.filter((k) => {
    if (k === 'climateChangeLevy') return utility === 'electricity' || utility === 'gas';
    // Printed on gas bills read by volume; the demo's gas meters are billed in kWh.
    if (k === 'calorificValue') return false;
    return utility !== 'waste' || !noMeter.includes(k);
  });
}

describe('the demo invoices', () => {
  it('fill every value of the invoice form, consistent with their meter, site and company', () => {
    const accounts = stack.inPartition(`C#${demoId}#accounts`);
    const assets = stack.inPartition(`C#${demoId}#assets`);
    const readings = stack.inPartition(`C#${demoId}#readings`);
    const invoices = stack.inPartition(`C#${demoId}#invoices`);
    expect(invoices.length).toBeGreaterThan(1000);
    // Smart meters send half-hourly data, not bills.
    const billed = accounts.filter(
      (a) => !a.parentAccountId && !(Array.isArray(a.tags) && a.tags.includes('half-hourly')),
    );
    for (const account of billed) {
      const own = invoices
        .filter((i) => i.accountId === account._id)
        .sort((a, b) => String(a.invoiceStartDate).localeCompare(String(b.invoiceStartDate)));
      const asset = assets.find((a) => a._id === account.assetId) as Item;
      const address = asset.address as { streetAddress: string; postCode: string };
      const serials = new Set<unknown>();
      const numbers = new Set<unknown>();
      let previousClosing: number | undefined;
      let readingsMatched = 0;
      for (const invoice of own) {
        const v = invoice.values as Record<string, unknown>;
        const name = `${String(account.name)} ${String(invoice.invoiceStartDate)}`;
        for (const key of expectedKeys(String(account.type))) {
          expect(v[key], `${name}: ${key}`).not.toBeUndefined();
          expect(v[key], `${name}: ${key}`).not.toBe('');
        }
        expect(v).toMatchObject({
          invoiceNumber: invoice.invoiceNumber,
          startDate: invoice.invoiceStartDate,
          endDate: invoice.invoiceEndDate,
          recipient: 'Demo Estates Ltd',
          isEstimate: false,
        });
        expect(String(v.siteAddress)).toContain(address.streetAddress);
        expect(String(v.siteAddress)).toContain(address.postCode);
        expect(String(v.invoiceDate) >= String(v.endDate)).toBe(true);
        expect(String(v.dueDate) > String(v.invoiceDate)).toBe(true);
        serials.add(v.meterSerialNumber);
        numbers.add(v.accountNumber);
        if (account.type === 'waste') continue;
        expect(v.meterPointNumber).toBe(account.meterPointNumber);
        const opening = Number(v.openingRead);
        const closing = Number(v.closingRead);
        expect(closing - opening, name).toBeCloseTo(Number(v.consumption), 1);
        // A month without a bill (an estimate) moves the register too; otherwise each bill follows on.
        if (previousClosing !== undefined && opening !== previousClosing) {
          expect(opening, name).toBeGreaterThan(previousClosing);
        }
        previousClosing = closing;
        const reading = readings.find(
          (r) => r.accountId === account._id && r.date === invoice.invoiceEndDate,
        );
        if (reading) {
          expect(reading.value, name).toBe(closing);
          readingsMatched++;
        }
      }
      // The latest months' readings fall on bills' end dates, so every metered supply is compared.
      if (account.type !== 'waste') expect(readingsMatched, String(account.name)).toBeGreaterThan(0);
      expect(serials.size, String(account.name)).toBe(1);
      expect(numbers.size, String(account.name)).toBe(1);
    }
  });

  it('keep the latest bills awaiting review, each with its PDF, and mark older ones imported', async () => {
    const invoices = stack.inPartition(`C#${demoId}#invoices`);
    const latest = `${lastCompleteMonth()}-01`;
    const awaiting = invoices.filter((i) => i.status === 'captured');
    expect(awaiting.length).toBeGreaterThan(40);
    expect(awaiting.some((i) => i.invoiceStartDate === latest)).toBe(true);
    for (const invoice of awaiting) {
      expect(invoice).toMatchObject({ completed: false, captureId: invoice._id });
      expect(String(invoice.key)).toMatch(new RegExp(`^invoices/${demoId}/${invoice._id}/.+\\.pdf$`));
    }
    const recent = awaiting.find((i) => i.invoiceStartDate === latest) as Item;
    // The invoice page asks for the document only when the invoice names one.
    const shown = await call<Item>('generic', 'generic.get', {
      path: '/invoices/{id}',
      params: { id: recent._id as string },
    });
    expect(shown.key).toBe(recent.key);
    const download = await call<{ url: string; name: string }>('invoices', 'invoices.download', {
      params: { id: recent._id as string },
    });
    expect(download.name).toMatch(/\.pdf$/);
    const url = new URL(download.url);
    const res = await fetch(`${stack.awsEndpoint}${url.pathname.replace(/^\/s3/, '')}${url.search}`);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    // The document says what the invoice says.
    const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const pdf = await getDocument({ data: bytes, isEvalSupported: false, verbosity: 0 }).promise;
    const content = await (await pdf.getPage(1)).getTextContent();
    const text = content.items.map((i) => ('str' in i ? i.str : '')).join(' ');
    const v = recent.values as Record<string, unknown>;
    expect(text).toContain(String(recent.invoiceNumber));
    expect(text).toContain(String(v.meterPointNumber ?? v.accountNumber));
    expect(text).toContain('Demo Estates Ltd');

    const imported = invoices.find((i) => i.status === 'completed') as Item;
    expect(imported).toMatchObject({ source: 'import', completed: true });
    expect(imported.key).toBeUndefined();
    await expect(
      call('invoices', 'invoices.download', { params: { id: imported._id as string } }),
    ).rejects.toMatchObject({ message: 'This invoice has no document' });
  });

  it('passes most of the latest bills and fails the three EDF Energy bills charged above contract', async () => {
    type Queue = { data: Item[]; total: number };
    const failed = await call<Queue>('validation', 'validation.queue', { query: { group: 'failed' } });
    const passed = await call<Queue>('validation', 'validation.queue', { query: { group: 'passed' } });
    expect(passed.total).toBeGreaterThan(40);
    expect(failed.total).toBe(3);
    const edf = stack.inPartition('G#suppliers').find((s) => s.name === 'EDF Energy')?._id;
    for (const item of failed.data) {
      expect(item).toMatchObject({ status: 'failed', supplierId: edf, completed: false });
      const checks = item.results as Check[];
      expect(checks.filter((c) => c.status === 'failed').map((c) => c.key)).toEqual(['contract-rates']);
      expect(checks.find((c) => c.key === 'contract-rates')?.reason).toMatch(
        /is charged at £0\.\d+\/kWh but the contract rate "Unit rate" is £0\.\d+\/kWh \(6\.5% higher; allowed 1%\)/,
      );
      // The rest of the bill holds together: only the rate is wrong.
      for (const key of ['lines-sum-to-net', 'net-plus-vat-is-total', 'units-times-rate', 'vat-amount']) {
        expect(checks.find((c) => c.key === key)?.status, key).toBe('passed');
      }
      const summary = await call<{ validation: Item; invoice: Item; account: Item }>(
        'validation',
        'validation.summary',
        { params: { id: item._id as string } },
      );
      expect(summary.invoice).toMatchObject({ _id: item.invoiceId, validationStatus: 'failed' });
      expect(summary.account).toMatchObject({ _id: item.accountId, supplierId: edf });
    }
    const notification = stack
      .inPartition(`C#${demoId}#notifications`)
      .find((n) => String(n.content).includes('failed validation'));
    expect(notification?.content).toBe('3 invoices from EDF Energy failed validation and need review.');
  });

  it('confirms a bill awaiting review without counting its month twice', async () => {
    const { listAccountMonths, listAssetRollups } = await import(
      '../../functions/accounts/consumption-repository.ts'
    );
    const { confirmInvoice } = await import('../../functions/invoices/invoice-confirm.ts');
    const { getInvoice } = await import('../../functions/invoices/invoice-repository.ts');
    const month = lastCompleteMonth();
    const invoice = stack
      .inPartition(`C#${demoId}#invoices`)
      .find((i) => i.status === 'captured' && i.invoiceStartDate === `${month}-01`) as Item;
    const accountId = String(invoice.accountId);
    const assetId = String(
      stack.inPartition(`C#${demoId}#accounts`).find((a) => a._id === accountId)?.assetId,
    );
    const before = await listAccountMonths(demoId, accountId, month, month);
    const rollupsBefore = await listAssetRollups(demoId, assetId, month, month);
    expect(before).toHaveLength(1);
    expect(rollupsBefore.length).toBeGreaterThan(0);
    const stored = await getInvoice(demoId, invoice._id as string);
    if (!stored) throw new Error('The invoice is not stored');
    await confirmInvoice(demoId, stored, 'tester');
    const after = await listAccountMonths(demoId, accountId, month, month);
    expect(after[0]?.consumption).toBe(before[0]?.consumption);
    expect(after[0]?.cost).toBe(before[0]?.cost);
    const rollupsAfter = await listAssetRollups(demoId, assetId, month, month);
    expect(rollupsAfter.map((r) => r.consumption)).toEqual(rollupsBefore.map((r) => r.consumption));
    expect(rollupsAfter.map((r) => r.cost)).toEqual(rollupsBefore.map((r) => r.cost));
    expect(await getInvoice(demoId, invoice._id as string)).toMatchObject({
      status: 'completed',
      completed: true,
    });
  });
});
