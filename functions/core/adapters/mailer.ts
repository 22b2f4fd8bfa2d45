import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config, mailConfig } from '../config.ts';
import { onFirstUse } from './on-first-use.ts';

export interface OutboundEmail {
  to: string;
  subject: string;
  text: string;
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

/** A whole message as a mail client reads it (an .eml file). */
export function emlOf(mail: OutboundEmail, from: string, messageId: string, date = new Date()): string {
  const body = Buffer.from(mail.text.replace(/\r?\n/g, '\r\n'), 'utf8').toString('base64');
  const lines = body.match(/.{1,76}/g) ?? [];
  return [
    `From: ${headerText(from)}`,
    `To: ${headerText(mail.to)}`,
    `Subject: ${headerText(mail.subject)}`,
    `Date: ${date.toUTCString()}`,
    `Message-ID: <${messageId}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    ...lines,
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
      const out = await client.send(
        new lib.SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: [mail.to] },
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
