import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SMTPServer } from 'smtp-server';
import type { MailReceiptMessage } from '../../shared/system/queue-messages.ts';
import { localBucketName } from './environment.ts';
import type { Log } from './options.ts';

export interface SmtpInbox {
  port: number;
  stop(): Promise<void>;
}

export const SMTP_MAX_BYTES = 25 * 1024 * 1024;

/** SES message ids are 40 lower-case letters and digits. */
const sesMessageId = () =>
  [...randomBytes(40)].map((b) => 'abcdefghijklmnopqrstuvwxyz0123456789'[b % 36]).join('');

export function inboxKey(messageId: string, now: Date): string {
  const yyyy = now.getUTCFullYear();
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0');
  const dd = String(now.getUTCDate()).padStart(2, '0');
  return `mail/${yyyy}/${mm}/${dd}/${messageId}.eml`;
}

class SmtpError extends Error {
  readonly responseCode: number;
  constructor(responseCode: number, message: string) {
    super(message);
    this.responseCode = responseCode;
  }
}

/** SES's receipt notification for a stored mail, as its S3 action publishes it (raw delivery to SQS). */
export function mailReceipt(opts: {
  messageId: string;
  source: string;
  recipients: string[];
  bucket: string;
  key: string;
  now: Date;
}): MailReceiptMessage & Record<string, unknown> {
  const timestamp = opts.now.toISOString();
  return {
    notificationType: 'Received',
    mail: {
      timestamp,
      source: opts.source,
      messageId: opts.messageId,
      destination: opts.recipients,
      headersTruncated: false,
    },
    receipt: {
      timestamp,
      processingTimeMillis: 0,
      recipients: opts.recipients,
      // Nothing here checks SPF, DKIM or DMARC: SES says GRAY when it could not tell.
      spamVerdict: { status: 'PASS' },
      virusVerdict: { status: 'PASS' },
      spfVerdict: { status: 'GRAY' },
      dkimVerdict: { status: 'GRAY' },
      dmarcVerdict: { status: 'GRAY' },
      action: {
        type: 'S3',
        topicArn: 'arn:aws:sns:eu-west-2:000000000000:mail-receipts',
        bucketName: opts.bucket,
        objectKeyPrefix: opts.key.slice(0, opts.key.lastIndexOf('/') + 1),
        objectKey: opts.key,
      },
    },
  } as MailReceiptMessage & Record<string, unknown>;
}

/**
 * SES inbound on this machine: any mail to any address is accepted (no auth, no TLS, loopback only) and
 * its raw bytes are stored in the inbox bucket under `mail/`, as the SES receipt rule's S3 action does.
 * Then, as that action's notification does, `notify` hands e-mail intake the receipt naming the stored
 * object and the envelope's recipients (RCPT TO), which the message's own headers may not name.
 */
export async function startSmtpInbox(
  s3: S3Client,
  port: number,
  log: Log,
  notify: (receipt: MailReceiptMessage) => Promise<void>,
  host = '127.0.0.1',
): Promise<SmtpInbox> {
  const bucket = localBucketName('inbox');
  const server = new SMTPServer({
    name: 'inbound-smtp.local.voltfolio',
    banner: 'Voltfolio local inbox',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    hideSTARTTLS: true,
    size: SMTP_MAX_BYTES,
    logger: false,
    closeTimeout: 2000,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(
            new SmtpError(552, `Message exceeds the maximum size of ${SMTP_MAX_BYTES / 1024 / 1024} MB`),
          );
          return;
        }
        const now = new Date();
        const messageId = sesMessageId();
        const recipients = session.envelope.rcptTo.map((r) => r.address);
        // SES puts its own trace headers above the message it stores.
        const trace =
          `Return-Path: <${session.envelope.mailFrom ? session.envelope.mailFrom.address : ''}>\r\n` +
          `Received: from ${session.clientHostname} ([${session.remoteAddress}]) by ` +
          `inbound-smtp.local.voltfolio with SMTP id ${messageId} for ${recipients.join(', ')}; ` +
          `${now.toUTCString()}\r\n`;
        const key = inboxKey(messageId, now);
        const source = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        s3.send(
          new PutObjectCommand({
            Bucket: bucket,
            Key: key,
            Body: Buffer.concat([Buffer.from(trace), ...chunks]),
            ContentType: 'message/rfc822',
          }),
        )
          .then(() => notify(mailReceipt({ messageId, source, recipients, bucket, key, now })))
          .then(() => {
            log('mail received', { key, recipients });
            callback(null, `Ok: queued as ${messageId}`);
          })
          .catch((err: unknown) => {
            log('mail not stored', { error: String(err) });
            callback(new SmtpError(451, 'Temporary failure storing the message, try again'));
          });
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => log('smtp error', { error: String(err) }));
  const address = server.server.address() as AddressInfo;
  return {
    port: address.port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
