import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config, mailConfig } from '../config.ts';
import { onFirstUse } from './on-first-use.ts';

export interface MailAttachment {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface OutboundEmail {
  to: string;
  subject: string;
  text: string;
  /** An HTML body beside the text one, for clients that show it. */
  html?: string;
  attachments?: readonly MailAttachment[];
  /** Where a reply goes when it should not go to the sender: the company's bill inbox, for a data request. */
  replyTo?: string;
  /** `List-Unsubscribe` (RFC 2369): a link that takes the recipient off the list without signing in. */
  unsubscribeUrl?: string;
}

/** Sends mail from the product: SES in AWS, an outbox folder of .eml files on a developer's machine. */
export interface Mailer {
  send(mail: OutboundEmail): Promise<{ messageId: string }>;
}

/** RFC 2047 for a header that is not plain ASCII. */
function headerText(value: string): string {
  const clean = value.replace(/[\r\n]+/g, ' ');
  return /^[\x20-\x7e]*$/.test(clean)
    ? clean
    : `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?=`;
}

const base64Lines = (bytes: Uint8Array | string): string[] =>
  (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes))
    .toString('base64')
    .match(/.{1,76}/g) ?? [];

const textPart = (type: 'plain' | 'html', body: string): string[] => [
  `Content-Type: text/${type}; charset=utf-8`,
  'Content-Transfer-Encoding: base64',
  '',
  ...base64Lines(body.replace(/\r?\n/g, '\r\n')),
];

/** A file name safe in a quoted header parameter. */
const quotedName = (name: string) => name.replace(/["\\\r\n]/g, '_');

/** A whole message as a mail client reads it (an .eml file). */
export function emlOf(mail: OutboundEmail, from: string, messageId: string, date = new Date()): string {
  const headers = [
    `From: ${headerText(from)}`,
    `To: ${headerText(mail.to)}`,
    ...(mail.replyTo ? [`Reply-To: ${headerText(mail.replyTo)}`] : []),
    `Subject: ${headerText(mail.subject)}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <${messageId}>`,
    ...(mail.unsubscribeUrl
      ? [`List-Unsubscribe: <${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post: List-Unsubscribe=One-Click']
      : []),
    'MIME-Version: 1.0',
  ];
  if (!mail.html && !mail.attachments?.length)
    return [...headers, ...textPart('plain', mail.text), ''].join('\r\n');
  const tag = messageId.replace(/[^A-Za-z0-9]/g, '').slice(0, 24);
  const alt = `alt-${tag}`;
  const mixed = `mixed-${tag}`;
  const body = mail.html
    ? [
        `Content-Type: multipart/alternative; boundary="${alt}"`,
        '',
        `--${alt}`,
        ...textPart('plain', mail.text),
        `--${alt}`,
        ...textPart('html', mail.html),
        `--${alt}--`,
      ]
    : textPart('plain', mail.text);
  if (!mail.attachments?.length) return [...headers, ...body, ''].join('\r\n');
  return [
    ...headers,
    `Content-Type: multipart/mixed; boundary="${mixed}"`,
    '',
    `--${mixed}`,
    ...body,
    ...mail.attachments.flatMap((a) => [
      `--${mixed}`,
      `Content-Type: ${a.contentType}; name="${quotedName(a.fileName)}"`,
      `Content-Disposition: attachment; filename="${quotedName(a.fileName)}"`,
      'Content-Transfer-Encoding: base64',
      '',
      ...base64Lines(a.bytes),
    ]),
    `--${mixed}--`,
    '',
  ].join('\r\n');
}

export function outboxMailer(dir: string, from: string): Mailer {
  return {
    async send(mail) {
      const messageId = `${randomUUID()}@voltfolio.local`;
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.slice(0, 8)}.eml`;
      const tmp = join(dir, `.${name}.tmp`);
      await writeFile(tmp, emlOf(mail, from, messageId), { mode: 0o600 });
      // Renamed into place, so a reader never sees half a message.
      await rename(tmp, join(dir, name));
      return { messageId };
    },
  };
}

/** Loaded with the first message: the functions that can send mail rarely do on a given request. */
const ses = onFirstUse(async () => {
  const lib = await import('@aws-sdk/client-sesv2');
  return { lib, client: new lib.SESv2Client({ region: config().region }) };
});

export function sesMailer(from: string): Mailer {
  return {
    async send(mail) {
      const { lib, client } = await ses();
      if (mail.html || mail.attachments?.length || mail.unsubscribeUrl) {
        // SES writes its own Message-ID; the one in the raw message is only a placeholder.
        const raw = emlOf(mail, from, `${randomUUID()}@voltfolio.local`);
        const sent = await client.send(
          new lib.SendEmailCommand({
            FromEmailAddress: from,
            Destination: { ToAddresses: [mail.to] },
            Content: { Raw: { Data: Buffer.from(raw, 'utf8') } },
          }),
        );
        return { messageId: sent.MessageId ?? '' };
      }
      const out = await client.send(
        new lib.SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [mail.to] },
          ...(mail.replyTo ? { ReplyToAddresses: [mail.replyTo] } : {}),
          Content: {
            Simple: {
              Subject: { Data: mail.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: mail.text, Charset: 'UTF-8' } },
            },
          },
        }),
      );
      return { messageId: out.MessageId ?? '' };
    },
  };
}

let shared: Mailer | undefined;

export function mailer(): Mailer {
  if (!shared) {
    const { outboxDir, from } = mailConfig();
    shared = outboxDir ? outboxMailer(outboxDir, from) : sesMailer(from);
  }
  return shared;
}
