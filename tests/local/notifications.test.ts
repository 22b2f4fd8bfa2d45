import { createHash } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { DeleteMessageCommand, type Message, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { S3Event } from 'aws-lambda';
import { createTransport } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ObjectsOf } from '../../functions/core/lib/s3-event.ts';
import type { MailReceiptMessage } from '../../shared/system/queue-messages.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let local: LocalStackHandle;

// No consumer runs here, so the queue can be read as the consumer would receive it.
beforeAll(async () => {
  local = await startLocalStack({ pollers: false });
});
afterAll(() => local?.stop());

async function receiveAll(queueUrl: string, waitSeconds = 1): Promise<Message[]> {
  const out = await local.stack.messaging.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: waitSeconds }),
  );
  for (const m of out.Messages ?? []) {
    await local.stack.messaging.sqs.send(
      new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: m.ReceiptHandle }),
    );
  }
  return out.Messages ?? [];
}

const put = (bucket: string, key: string, body: string) =>
  local.stack.messaging.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));

describe('S3 object-created notifications', () => {
  it('put an S3 event on the capture queue for an object under uploads/invoices/', async () => {
    const inbox = local.env.BUCKET_UPLOADS as string;
    const key = 'invoices/c1/0123456789abcdef01234567/a b+c(1).pdf';
    const body = '%PDF-1.7 hello';
    await put(inbox, key, body);
    await local.drainQueues();

    const [message, ...more] = await receiveAll(local.env.QUEUE_URL_CAPTURE as string);
    expect(more).toEqual([]);
    const event = JSON.parse(message?.Body ?? '{}') as S3Event;
    expect(event.Records).toHaveLength(1);
    const record = event.Records[0];
    expect(record).toMatchObject({
      eventVersion: '2.1',
      eventSource: 'aws:s3',
      awsRegion: 'eu-west-2',
      eventName: 'ObjectCreated:Put',
      s3: {
        s3SchemaVersion: '1.0',
        bucket: { name: inbox, arn: `arn:aws:s3:::${inbox}` },
        object: {
          key: 'invoices/c1/0123456789abcdef01234567/a+b%2Bc%281%29.pdf',
          size: body.length,
          eTag: createHash('md5').update(body).digest('hex'),
        },
      },
    });
    expect(record?.s3.object.sequencer).toMatch(/^[0-9A-F]+$/);
    expect(Date.parse(record?.eventTime ?? '')).not.toBeNaN();
    // The product's own reading of the event gets the original key back.
    expect(s3ObjectsOf(message?.Body ?? '')).toEqual([{ bucket: inbox, key, size: body.length }]);
  });

  it('sends nothing for objects outside a subscribed bucket and prefix', async () => {
    await put(local.env.BUCKET_INBOX as string, 'other/x.eml', 'x');
    await put(local.env.BUCKET_UPLOADS as string, 'mail/x.eml', 'x');
    await put(local.env.BUCKET_DOCUMENTS as string, 'invoices/x.pdf', 'x');
    await local.drainQueues();
    expect(await receiveAll(local.env.QUEUE_URL_CAPTURE as string)).toEqual([]);
    expect(await receiveAll(local.env.QUEUE_URL_EMAIL_INTAKE as string)).toEqual([]);
  });

  it('sends no S3 event for stored mail, which reaches intake by its SES receipt only', async () => {
    await put(local.env.BUCKET_INBOX as string, 'mail/2026/01/02/x.eml', 'Subject: hi\r\n\r\nhi');
    await local.drainQueues();
    expect(await receiveAll(local.env.QUEUE_URL_EMAIL_INTAKE as string)).toEqual([]);
  });
});

describe('the SMTP inbox', () => {
  const transport = () =>
    createTransport({ host: '127.0.0.1', port: local.smtpPort, secure: false, ignoreTLS: true });

  const receiptOf = (message: Message | undefined) => JSON.parse(message?.Body ?? '{}') as MailReceiptMessage;

  it('stores each mail under inbox/mail/yyyy/mm/dd/ and hands its receipt to e-mail intake', async () => {
    const info = await transport().sendMail({
      from: 'supplier@example.com',
      to: 'invoices@capture.example.com',
      subject: 'Your March invoice',
      text: 'Attached.',
      attachments: [{ filename: 'invoice.pdf', content: Buffer.from('%PDF-1.7 test') }],
    });
    expect(info.accepted).toEqual(['invoices@capture.example.com']);
    await local.drainQueues();

    const [message] = await receiveAll(local.env.QUEUE_URL_EMAIL_INTAKE as string);
    const receipt = receiptOf(message);
    expect(receipt).toMatchObject({
      notificationType: 'Received',
      mail: { source: 'supplier@example.com' },
      receipt: {
        recipients: ['invoices@capture.example.com'],
        action: { type: 'S3', bucketName: local.env.BUCKET_INBOX },
      },
    });
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
    expect(receipt.receipt.action.objectKey).toMatch(new RegExp(`^mail/${today}/[a-z0-9]{40}\\.eml$`));

    const stored = await local.stack.messaging.s3.send(
      new GetObjectCommand({
        Bucket: receipt.receipt.action.bucketName,
        Key: receipt.receipt.action.objectKey,
      }),
    );
    const raw = await stored.Body?.transformToString();
    expect(raw).toMatch(/^Return-Path: <supplier@example.com>\r\nReceived: from /);
    expect(raw).toContain('Subject: Your March invoice');
    expect(raw).toContain('filename=invoice.pdf');
  });

  it('names the envelope recipients in the receipt, blind copies too, whatever the headers say', async () => {
    await transport().sendMail({
      envelope: {
        from: 'bounces@example.com',
        to: ['invoices+northwind@capture.example.com', 'hidden@capture.example.com'],
      },
      from: 'supplier@example.com',
      to: 'invoices+demo@capture.example.com',
      subject: 'Spoofed',
      text: 'x',
    });
    await local.drainQueues();
    const [message] = await receiveAll(local.env.QUEUE_URL_EMAIL_INTAKE as string);
    expect(receiptOf(message)).toMatchObject({
      mail: { source: 'bounces@example.com' },
      receipt: { recipients: ['invoices+northwind@capture.example.com', 'hidden@capture.example.com'] },
    });
  });

  it('takes mails up to 25 MB', async () => {
    await transport().sendMail({
      from: 'supplier@example.com',
      to: 'invoices@capture.example.com',
      subject: 'Scanned invoices',
      attachments: [{ filename: 'scan.pdf', content: Buffer.alloc(15 * 1024 * 1024, 1) }],
    });
    await local.drainQueues();
    const [message] = await receiveAll(local.env.QUEUE_URL_EMAIL_INTAKE as string);
    const { bucketName, objectKey } = receiptOf(message).receipt.action;
    const head = await local.stack.messaging.s3.send(
      new HeadObjectCommand({ Bucket: bucketName, Key: objectKey }),
    );
    // Base64 makes the attachment a third larger in the mail.
    expect(head.ContentLength).toBeGreaterThan(20 * 1024 * 1024);
  });

  it('refuses a mail over 25 MB with a clear message', async () => {
    const send = transport().sendMail({
      from: 'supplier@example.com',
      to: 'invoices@capture.example.com',
      subject: 'Too big',
      text: 'x'.repeat(26 * 1024 * 1024),
    });
    await expect(send).rejects.toThrow(/552.*maximum size of 25 MB/);
  });
});
