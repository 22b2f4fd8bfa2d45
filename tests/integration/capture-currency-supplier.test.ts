import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putObject } from '../../functions/core/adapters/s3.ts';
import { bucketName } from '../../functions/core/config.ts';
import { createLogger } from '../../functions/core/lib/logger.ts';
import { captureDocument, forgetTemplates } from '../../functions/invoices/capture-service.ts';
import { captureKey } from '../../functions/invoices/invoice-records.ts';
import { getInvoice } from '../../functions/invoices/invoice-repository.ts';
import { startTextract, type TextractStandIn } from '../../infra/local/textract/server.ts';
import { createUser } from '../support/api-fixture.ts';
import { type InvoiceAccountWorld, startInvoiceAccountWorld } from './invoices-support.ts';
import { created } from './register-support.ts';

/**
 * A bill in euros through the local pipeline (upload, the local Textract, capture, validation): its
 * currency is kept, it is left for a person to review rather than passed as captured, and it is matched
 * to its supplier by the VAT number it prints though its name is not the one on the suppliers list.
 */

const MPAN = '1312345678907';
let w: InvoiceAccountWorld;
let textract: TextractStandIn;
let staff: string;
let supplierId: string;
const log = createLogger({ service: 'voltfolio', fn: 'capture-test' }, 'error');

/** A one-page electricity bill from a German municipal supplier, amounts in euros. */
async function euroBill(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595.28, 841.89]);
  const text = (t: string, x: number, y: number, size = 10) => page.drawText(t, { x, y, size, font });
  text('SWL Energie', 50, 790, 18);
  text('Am Wasserturm 3, 04177 Leipzig', 50, 772);
  text('USt-IdNr.: DE 123 456 789', 50, 758);
  text('Rechnungsnummer: SWL-2024-0315', 330, 790);
  text('Rechnungsdatum: 14.03.2024', 330, 776);
  text('MPAN: 1312345678907', 330, 762);
  text('Abrechnungszeitraum: 01.02.2024 - 29.02.2024', 50, 680);
  text('Arbeitspreis 1.200 kWh x 0,15 EUR', 50, 640);
  text('180,00 EUR', 460, 640);
  text('Nettobetrag', 50, 600);
  text('180,00 EUR', 460, 600);
  text('MwSt. 19%', 50, 585);
  text('34,20 EUR', 460, 585);
  text('Gesamtbetrag', 50, 560, 12);
  text('214,20 EUR', 460, 560, 12);
  return doc.save();
}

beforeAll(async () => {
  w = await startInvoiceAccountWorld({
    siteName: 'Leipzig Depot',
    meterPointNumber: MPAN,
    name: 'Depot supply',
  });
  textract = await startTextract({ port: 0, s3Endpoint: w.s3Endpoint ?? '' });
  process.env.AWS_ENDPOINT_URL_TEXTRACT = textract.endpoint;
  await createUser({ sub: 'staff', email: 'admin@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  staff = w.token('staff');
  supplierId = await created(w.api, staff, '/suppliers', {
    name: 'Stadtwerke Lindenau GmbH',
    vatNumber: 'DE123456789',
    website: 'www.stadtwerke-lindenau.de',
  });
  // The suppliers list is kept between captures; this one must see the supplier just added.
  forgetTemplates();
}, 120_000);

afterAll(async () => {
  await textract?.stop();
  await w?.stop();
});

describe('a bill in euros through the local pipeline', () => {
  it('keeps its currency, leaves it for review with the reason, and finds its supplier by VAT number', async () => {
    const bytes = await euroBill();
    const captureId = '0000000000000000000000e1';
    const key = captureKey(w.demoId, captureId, 'rechnung-maerz.pdf');
    await putObject(bucketName('uploads'), key, bytes, 'application/pdf');
    const outcome = await captureDocument(bucketName('uploads'), key, bytes.byteLength, log);

    // Not passed as captured: a person reviews a bill whose amounts are not in pounds.
    expect(outcome.status).toBe('manual');
    const [invoiceId] = outcome.invoiceIds;
    const stored = await getInvoice(w.demoId, String(invoiceId));
    if (!stored) throw new Error('the invoice was not stored');
    // Read as the invoice page reads it: the fields capture wrote, whatever the type says of them.
    const invoice: Record<string, unknown> = { ...stored };
    expect(invoice.status).toBe('manual');
    expect(invoice.currency).toBe('EUR');
    expect(invoice.grossTotal).toBe(214.2);
    expect((invoice.values as Record<string, unknown>).currency).toBe('EUR');
    expect(invoice.supplierId).toBe(supplierId);
    expect((invoice.results as Record<string, unknown>).supplierMatch).toMatchObject({
      how: 'vatNumber',
      evidence: 'DE123456789',
      name: 'Stadtwerke Lindenau GmbH',
    });

    // Validation does not judge euros against sterling tariffs and levies: it holds the bill for a person.
    const queued = await w.drain('validation');
    expect(queued.length).toBeGreaterThan(0);
    await w.runValidation(queued);
    const validation = await w.validationOf(String(invoiceId));
    expect(validation.status).toBe('error');
    expect(validation.reason).toBe(
      'The bill is in EUR, not pounds, so its amounts cannot be checked against sterling contracts, tax and levies: check it by hand.',
    );
  }, 120_000);

  it('refuses a supplier whose VAT number or website is none, saying which', async () => {
    const res = await w.api({
      method: 'POST',
      path: '/suppliers',
      token: staff,
      body: { name: 'Nobody Ltd', vatNumber: 'GB12', website: 'nowhere' },
    });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({
      vatNumber: 'Enter a VAT number such as GB123456789 or DE136695976',
      website: 'Enter a web address such as www.example.co.uk',
    });
  });
});
