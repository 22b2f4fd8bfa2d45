import { readFileSync } from 'node:fs';
import { startFauxqs } from 'fauxqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEnvironment, localBucketName, localEnvironment } from '../../infra/local/environment.ts';
import type { SupplierRef } from '../../infra/local/seed/plan-accounts.ts';
import type { Template } from '../../shared/capture/model.ts';
import { BUCKETS } from '../../shared/system/functions.ts';
import { analyseBytes } from '../bench/capture-accuracy-lib.ts';
import { fixturePath, fixtureTruth } from '../fixtures/invoices/truth.ts';
import { startTestTable, type TestTable } from '../support/dynamo.ts';
import { present } from '../support/present.ts';

/** The supplier templates of the demo data, as the seed stores them and capture loads them. */

let table: TestTable;
let s3: Awaited<ReturnType<typeof startFauxqs>>;
let suppliers: SupplierRef[];
let seeded: number;
let stored: (Template & { createdBy?: string })[];
let repo: typeof import('../../functions/suppliers/template-repository.ts');
let seedTemplates: typeof import('../../infra/local/seed/invoice-templates.ts').seedInvoiceTemplates;

const STAFF = 'staff-sub';

beforeAll(async () => {
  table = await startTestTable('voltfolio');
  s3 = await startFauxqs({ port: 0, logger: false });
  for (const bucket of BUCKETS) s3.createBucket(localBucketName(bucket));
  const awsEndpoint = `http://127.0.0.1:${s3.port}`;
  // Configuration is read once per process, so the environment must be in place before the seed loads.
  applyEnvironment(
    localEnvironment(
      { origin: 'http://localhost:3999', dynamoEndpoint: table.endpoint, awsEndpoint },
      'warn',
    ),
  );
  const { seedSuppliers } = await import('../../infra/local/seed/reference-data.ts');
  const { staffUser } = await import('../../infra/local/seed/service-calls.ts');
  ({ seedInvoiceTemplates: seedTemplates } = await import('../../infra/local/seed/invoice-templates.ts'));
  repo = await import('../../functions/suppliers/template-repository.ts');
  const { queryAll } = await import('../../functions/core/data/item-repository.ts');
  suppliers = await seedSuppliers(
    staffUser('', { sub: STAFF, email: 'admin@voltfolio.test', name: 'Staff' }),
  );
  seeded = await seedTemplates(suppliers, STAFF);
  stored = (await queryAll(repo.templatesRef().pk)) as unknown as typeof stored;
}, 60_000);

afterAll(async () => {
  await table?.stop();
  await s3?.stop();
});

const supplierNamed = (name: string) => suppliers.find((s) => s.name === name);

describe('seeded invoice templates', () => {
  it('stores a ready template per supplier layout, each holding its supplier and utility slot', async () => {
    const { verifySample } = await import('../../functions/suppliers/template-sample-service.ts');
    expect(seeded).toBe(4);
    const pairs = stored.map((t) => `${suppliers.find((s) => s.id === t.supplierId)?.name} ${t.type}`);
    expect(pairs.sort()).toEqual([
      'British Gas Business electricity',
      'EDF Energy electricity',
      'EDF Energy gas',
      'Thames Water water',
    ]);
    for (const t of stored) {
      expect(t.status).toBe('ready');
      expect(t.createdBy).toBe(STAFF);
      expect(await repo.slotHolder(t.supplierId, t.type)).toBe(t._id);
      // The bill it was drawn on is its sample, as an upload through the editor would make it.
      expect(await verifySample(t._id, t.sampleKey ?? '')).toBe(t.sampleKey);
    }
    const edf = supplierNamed('EDF Energy')?.id ?? '';
    expect((await repo.templatesOfSupplier(edf)).map((t) => t.type).sort()).toEqual(['electricity', 'gas']);
  });

  it('adds nothing when seeded again', async () => {
    expect(await seedTemplates(suppliers, STAFF)).toBe(0);
    const { queryAll } = await import('../../functions/core/data/item-repository.ts');
    expect(await queryAll(repo.templatesRef().pk)).toHaveLength(4);
  });

  it("reads a supplier's bill with its stored template", async () => {
    const { extractInvoices } = await import('../../shared/capture/extract.ts');
    const truth = fixtureTruth('edf-gas-digital.pdf');
    const expected = present(truth.invoices[0], `The truth of ${truth.file}`);
    const { output } = await analyseBytes(new Uint8Array(readFileSync(fixturePath(truth.file))));
    const [invoice] = extractInvoices(output, stored).multiInvoice.invoices;
    expect(invoice?.method).toBe('template');
    expect(invoice?.supplierId).toBe(supplierNamed('EDF Energy')?.id);
    expect(invoice?.utilityType).toBe('gas');
    expect(invoice?.values.invoiceNumber?.value).toBe(expected.values.invoiceNumber);
    expect(invoice?.values.grossTotal?.value).toBe(expected.values.grossTotal);
  });
});
