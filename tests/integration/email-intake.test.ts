import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context, SQSEvent } from 'aws-lambda';
import { startFauxqs } from 'fauxqs';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, createCompany, createUser, startApiFixture } from '../support/api-fixture.ts';
import { httpEvent, lambdaContext, parseResult } from '../support/http-events.ts';

let fx: ApiFixture;
let fauxqs: Awaited<ReturnType<typeof startFauxqs>>;
let s3: S3Client;
let companyId: string;
let handler: (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;
let items: typeof import('../../functions/core/data/item-repository.ts');
let keys: typeof import('../../functions/core/data/keys.ts')['keys'];

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

async function rawMail(
  to: string,
  attachments: { filename: string; content: Buffer }[],
  from = 'billing@supplier.example',
): Promise<Buffer> {
  return new MailComposer({
    from,
    to,
    subject: 'Your invoice',
    text: 'Please find your invoice attached.',
    attachments,
  })
    .compile()
    .build();
}

/** The To header's addresses: what the envelope holds when the test names no other recipients. */
const headerRecipients = (raw: Buffer) =>
  [...(/^To: (.*)$/m.exec(raw.toString())?.[1] ?? '').matchAll(/[^\s<>,]+@[^\s<>,]+/g)].map((m) => m[0]);

let sequence = 0;
/** Stores the mail as SES does and answers the SQS event of SES's receipt for it (raw SNS delivery). */
async function deliver(
  raw: Buffer,
  key = `mail/2026/11/22/${++sequence}.eml`,
  recipients: string[] = headerRecipients(raw),
  dmarc = 'PASS',
): Promise<SQSEvent> {
  await s3.send(new PutObjectCommand({ Bucket: 'voltfolio-inbox', Key: key, Body: raw }));
  const receipt = {
    notificationType: 'Received',
    mail: {
      timestamp: new Date().toISOString(),
      source: 'bounces@supplier.example',
      messageId: `m${sequence}`,
    },
    receipt: {
      recipients,
      dmarcVerdict: { status: dmarc },
      action: { type: 'S3', bucketName: 'voltfolio-inbox', objectKey: key },
    },
  };
  return {
    Records: [
      {
        messageId: `m-${sequence}`,
        receiptHandle: 'r',
        body: JSON.stringify(receipt),
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: String(Date.now()),
          SenderId: 's3',
          ApproximateFirstReceiveTimestamp: String(Date.now()),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:eu-west-2:000000000000:email-intake',
        awsRegion: 'eu-west-2',
      },
    ],
  };
}

async function emailsOf(scope: { companyId?: string }) {
  return (await items.queryAll(keys.collection(scope, 'emails'))).filter((e) => e.rawKey);
}

beforeAll(async () => {
  fx = await startApiFixture();
  fauxqs = await startFauxqs({ port: 0, logger: false });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: fauxqs.address,
    S3_FORCE_PATH_STYLE: 'true',
    BUCKET_INBOX: 'voltfolio-inbox',
    BUCKET_UPLOADS: 'voltfolio-uploads',
    LIVE_ENDPOINT: 'http://127.0.0.1:9',
  });
  s3 = new S3Client({
    region: 'eu-west-2',
    endpoint: fauxqs.address,
    forcePathStyle: true,
    credentials: { accessKeyId: 't', secretAccessKey: 't' },
  });
  for (const Bucket of ['voltfolio-inbox', 'voltfolio-uploads'])
    await s3.send(new CreateBucketCommand({ Bucket }));
  companyId = await createCompany('Demo Estates Ltd');
  const companies = await import('../../functions/company/company-repository.ts');
  await companies.registerCaptureAddress('invoices+demo@capture.voltfolio.test', companyId);
  items = await import('../../functions/core/data/item-repository.ts');
  keys = (await import('../../functions/core/data/keys.ts')).keys;
  handler = (await import('../../functions/handlers/queue/email-intake.ts')).handler;
});

afterAll(async () => {
  await fauxqs?.stop();
  await fx?.stop();
});

describe('e-mail intake', () => {
  it('stores each PDF attachment as an invoice upload of the company and logs the e-mail', async () => {
    const raw = await rawMail('Invoices <INVOICES+demo@capture.voltfolio.test>', [
      { filename: 'March 2026.pdf', content: PDF },
      { filename: 'terms.docx', content: Buffer.from('PK\u0003\u0004word') },
    ]);
    const result = await handler(await deliver(raw));
    expect(result.batchItemFailures).toEqual([]);
    const stored = await s3.send(
      new ListObjectsV2Command({ Bucket: 'voltfolio-uploads', Prefix: `invoices/${companyId}/` }),
    );
    expect(stored.Contents?.map((o) => o.Key)).toEqual([
      expect.stringMatching(new RegExp(`^invoices/${companyId}/[0-9a-f]{24}/March-2026\\.pdf$`)),
    ]);
    const object = await s3.send(
      new GetObjectCommand({ Bucket: 'voltfolio-uploads', Key: stored.Contents?.[0]?.Key }),
    );
    expect(object.ContentType).toBe('application/pdf');
    expect(object.Metadata).toMatchObject({ 'company-id': companyId, source: 'email' });
    const [email] = await emailsOf({ companyId });
    expect(email).toMatchObject({
      status: 'accepted',
      from: 'billing@supplier.example',
      subject: 'Your invoice',
    });
    expect(String(email?.reason)).toContain('terms.docx: not a PDF or image');
  });

  it('handles a repeated event for the same e-mail once', async () => {
    const raw = await rawMail('invoices+demo@capture.voltfolio.test', [{ filename: 'a.pdf', content: PDF }]);
    const event = await deliver(raw, 'mail/2026/11/22/repeat.eml');
    const before = (await emailsOf({ companyId })).length;
    await handler(event);
    await handler(event);
    expect((await emailsOf({ companyId })).length).toBe(before + 1);
  });

  it('refuses mail to an unknown address and logs it for staff', async () => {
    const result = await handler(
      await deliver(await rawMail('nobody@capture.voltfolio.test', [{ filename: 'a.pdf', content: PDF }])),
    );
    expect(result.batchItemFailures).toEqual([]);
    const refused = await emailsOf({});
    expect(refused).toEqual([
      expect.objectContaining({
        status: 'refused',
        reason: 'No company uses the capture address nobody@capture.voltfolio.test',
      }),
    ]);
  });

  it('shows the mail that reached no company to staff through the API, and to no one else', async () => {
    await createUser({ sub: 'staff', email: 'staff@voltfolio.test', companyIds: [companyId], isAdmin: true });
    await createUser({
      sub: 'demo-admin',
      email: 'admin@demo.test',
      companyIds: [companyId],
      permissions: ['company_admin'],
    });
    // Called as the API gateway calls it.
    const util = (await import('../../functions/handlers/http/util.ts')).handler as unknown as (
      event: APIGatewayProxyEventV2,
      context: Context,
    ) => Promise<APIGatewayProxyResultV2>;
    const get = async (path: string, sub: string) => {
      const result = await util(
        httpEvent({ method: 'GET', path, token: fx.issuer.accessToken(sub) }),
        lambdaContext('util'),
      );
      return parseResult(typeof result === 'string' ? { statusCode: 200, body: result } : result);
    };
    const stray = await get('/emails?unmatched=true', 'staff');
    expect(stray.status).toBe(200);
    expect(stray.body.data).toEqual([
      expect.objectContaining({
        status: 'refused',
        to: ['nobody@capture.voltfolio.test'],
        reason: 'No company uses the capture address nobody@capture.voltfolio.test',
      }),
    ]);
    const own = await get('/emails', 'demo-admin');
    expect(own.status).toBe(200);
    const recipients = (own.body.data as { to: string[] }[]).flatMap((e) => e.to);
    expect(recipients.length).toBeGreaterThan(0);
    expect(recipients).not.toContain('nobody@capture.voltfolio.test');
    expect((await get('/emails?unmatched=true', 'demo-admin')).status).toBe(403);
  });

  it('refuses mail without a PDF or image and says so in the company log', async () => {
    await handler(await deliver(await rawMail('invoices+demo@capture.voltfolio.test', [])));
    const logged = await emailsOf({ companyId });
    expect(logged.some((e) => e.status === 'refused' && e.reason === 'No PDF or image attachment')).toBe(
      true,
    );
  });

  it('reports a message it could not handle as a batch item failure, so it is retried', async () => {
    const event = await deliver(await rawMail('invoices+demo@capture.voltfolio.test', []));
    const record = event.Records[0];
    if (!record) throw new Error('no record');
    const receipt = JSON.parse(record.body) as { receipt: { action: { objectKey: string } } };
    receipt.receipt.action.objectKey = 'mail/missing.eml';
    record.body = JSON.stringify(receipt);
    const result = await handler(event);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: record.messageId }]);
  });

  it('routes on the envelope, not the To header any sender writes', async () => {
    const northwindId = await createCompany('Northwind Property Co');
    const companies = await import('../../functions/company/company-repository.ts');
    await companies.registerCaptureAddress('invoices+northwind@capture.voltfolio.test', northwindId);
    const raw = await rawMail('invoices+demo@capture.voltfolio.test', [
      { filename: 'spoof.pdf', content: PDF },
    ]);
    await handler(await deliver(raw, undefined, ['invoices+northwind@capture.voltfolio.test']));
    const landed = await emailsOf({ companyId: northwindId });
    expect(landed).toEqual([
      expect.objectContaining({
        status: 'accepted',
        to: ['invoices+northwind@capture.voltfolio.test'],
        headerTo: ['invoices+demo@capture.voltfolio.test'],
      }),
    ]);
    const demo = await emailsOf({ companyId });
    expect(
      demo.some((e) => (e.attachments as { fileName: string }[]).some((a) => a.fileName === 'spoof.pdf')),
    ).toBe(false);
  });

  it('accepts a blind copy, whose capture address is in the envelope only', async () => {
    const raw = await rawMail('accounts@tenant.example', [{ filename: 'bcc.pdf', content: PDF }]);
    const result = await handler(
      await deliver(raw, undefined, ['accounts@tenant.example', 'invoices+demo@capture.voltfolio.test']),
    );
    expect(result.batchItemFailures).toEqual([]);
    const logged = await emailsOf({ companyId });
    expect(logged).toContainEqual(
      expect.objectContaining({
        status: 'accepted',
        attachments: [expect.objectContaining({ fileName: 'bcc.pdf' })],
      }),
    );
  });

  it('takes at most 20 documents from one e-mail and logs the rest as refused', async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ filename: `bill-${i + 1}.pdf`, content: PDF }));
    await handler(await deliver(await rawMail('invoices+demo@capture.voltfolio.test', many)));
    const logged = await emailsOf({ companyId });
    const email = logged.find((e) => (e.attachments as unknown[]).length >= 20);
    expect(email?.attachments).toHaveLength(20);
    expect(email?.status).toBe('accepted');
    expect(String(email?.reason)).toContain('5 more documents: an e-mail may carry at most 20');
  });

  it('tells the company admins once when mail comes from a sender never seen before', async () => {
    const tenantId = await createCompany('Tenant Ltd');
    const companies = await import('../../functions/company/company-repository.ts');
    await companies.registerCaptureAddress('invoices+tenant@capture.voltfolio.test', tenantId);
    await createUser({
      sub: 'tenant-admin',
      email: 'admin@tenant.test',
      companyIds: [tenantId],
      permissions: ['company_admin'],
    });
    await createUser({ sub: 'tenant-user', email: 'user@tenant.test', companyIds: [tenantId] });
    const notifications = async () =>
      items.queryAll(keys.collection({ companyId: tenantId }, 'notifications'));
    for (const n of [1, 2]) {
      const raw = await rawMail(
        'invoices+tenant@capture.voltfolio.test',
        [{ filename: `n${n}.pdf`, content: PDF }],
        'newcomer@strange.example',
      );
      await handler(await deliver(raw));
    }
    const told = await notifications();
    expect(told).toEqual([
      expect.objectContaining({
        userSub: 'tenant-admin',
        content: expect.stringContaining('newcomer@strange.example'),
      }),
    ]);
  });

  it('refuses and logs mail from senders off the list when the company accepts listed senders only', async () => {
    const listedId = await createCompany('Listed Ltd', {
      invoiceCaptureSendersOnly: true,
      invoiceCaptureSenders: ['@supplier.example', 'ap@energy.example'],
    });
    const companies = await import('../../functions/company/company-repository.ts');
    await companies.registerCaptureAddress('invoices+listed@capture.voltfolio.test', listedId);
    const to = 'invoices+listed@capture.voltfolio.test';
    await handler(
      await deliver(await rawMail(to, [{ filename: 'a.pdf', content: PDF }], 'billing@supplier.example')),
    );
    await handler(
      await deliver(await rawMail(to, [{ filename: 'b.pdf', content: PDF }], 'ap@energy.example')),
    );
    await handler(
      await deliver(await rawMail(to, [{ filename: 'c.pdf', content: PDF }], 'mallory@evil.example')),
    );
    // A listed address on mail its domain's DMARC disowns is a forgery.
    const forged = await rawMail(to, [{ filename: 'd.pdf', content: PDF }], 'ap@energy.example');
    await handler(await deliver(forged, undefined, [to], 'FAIL'));
    const logged = await emailsOf({ companyId: listedId });
    expect(logged.map((e) => [e.from, e.status]).sort()).toEqual([
      ['ap@energy.example', 'accepted'],
      ['ap@energy.example', 'refused'],
      ['billing@supplier.example', 'accepted'],
      ['mallory@evil.example', 'refused'],
    ]);
    expect(logged.find((e) => e.from === 'ap@energy.example' && e.status === 'refused')?.reason).toBe(
      'The sender ap@energy.example failed DMARC: the address may be forged',
    );
    expect(logged.find((e) => e.from === 'mallory@evil.example')).toMatchObject({
      reason: "The sender mallory@evil.example is not on the company's list of accepted senders",
      attachments: [],
    });
    const stored = await s3.send(
      new ListObjectsV2Command({ Bucket: 'voltfolio-uploads', Prefix: `invoices/${listedId}/` }),
    );
    expect(stored.Contents?.map((o) => o.Key?.split('/').pop()).sort()).toEqual(['a.pdf', 'b.pdf']);
  });

  it('refuses mail to a capture address while staff have e-mail capture off, and says why', async () => {
    const { writeProductSettings } = await import('../../functions/staff-tools/admin-repository.ts');
    const { DEFAULT_PRODUCT_SETTINGS, EMAIL_CAPTURE_OFF } = await import(
      '../../shared/schemas/staff-admin.ts'
    );
    const to = 'invoices+demo@capture.voltfolio.test';
    const storedNow = async () =>
      (
        await s3.send(
          new ListObjectsV2Command({ Bucket: 'voltfolio-uploads', Prefix: `invoices/${companyId}/` }),
        )
      ).Contents?.length ?? 0;
    const before = await storedNow();
    await writeProductSettings(
      { ...DEFAULT_PRODUCT_SETTINGS, featureFlags: { 'email-capture': false } },
      'staff',
    );
    try {
      const result = await handler(
        await deliver(await rawMail(to, [{ filename: 'while-off.pdf', content: PDF }], 'off@energy.example')),
      );
      expect(result.batchItemFailures).toEqual([]);
      expect(await storedNow()).toBe(before);
      const logged = (await emailsOf({ companyId })).find((e) => e.from === 'off@energy.example');
      expect(logged).toMatchObject({ status: 'refused', reason: EMAIL_CAPTURE_OFF, attachments: [] });
    } finally {
      await writeProductSettings(DEFAULT_PRODUCT_SETTINGS, 'staff');
    }
    await handler(
      await deliver(await rawMail(to, [{ filename: 'back-on.pdf', content: PDF }], 'on@energy.example')),
    );
    expect(await storedNow()).toBe(before + 1);
  });

  it('lets a company admin turn the list of accepted senders on through the API', async () => {
    const companyFn = (await import('../../functions/handlers/http/companies.ts')).handler as unknown as (
      event: APIGatewayProxyEventV2,
      context: Context,
    ) => Promise<APIGatewayProxyResultV2>;
    await createUser({
      sub: 'demo-settings-admin',
      email: 'settings@demo.test',
      companyIds: [companyId],
      permissions: ['company_admin'],
    });
    const patch = async (settings: Record<string, unknown>) => {
      const result = await companyFn(
        httpEvent({
          method: 'PATCH',
          path: `/companies/${companyId}`,
          token: fx.issuer.accessToken('demo-settings-admin'),
          body: { settings },
        }),
        lambdaContext('companies'),
      );
      return parseResult(typeof result === 'string' ? { statusCode: 200, body: result } : result);
    };
    expect((await patch({ invoiceCaptureSenders: ['not an address'] })).status).toBe(400);
    const saved = await patch({
      invoiceCaptureSendersOnly: true,
      invoiceCaptureSenders: [' AP@Energy.example '],
    });
    expect(saved.status).toBe(200);
    const to = 'invoices+demo@capture.voltfolio.test';
    await handler(
      await deliver(await rawMail(to, [{ filename: 'listed.pdf', content: PDF }], 'ap@energy.example')),
    );
    await handler(
      await deliver(await rawMail(to, [{ filename: 'other.pdf', content: PDF }], 'other@energy.example')),
    );
    const logged = await emailsOf({ companyId });
    expect(logged.find((e) => e.from === 'ap@energy.example')?.status).toBe('accepted');
    expect(logged.find((e) => e.from === 'other@energy.example')?.status).toBe('refused');
    await patch({ invoiceCaptureSendersOnly: false });
  });
});
