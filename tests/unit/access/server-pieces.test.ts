import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { periodOf } from '../../../functions/core/access/credential-service.ts';
import { emlOf } from '../../../functions/core/adapters/mailer.ts';
import { pngSize } from '../../../functions/core/lib/png.ts';
import { digestOf, newSecret, secretMatches } from '../../../functions/core/lib/secrets.ts';
import {
  applyRuleChanges,
  DEFAULT_VALIDATION_RULES,
  ruleChangesSchema,
} from '../../../functions/invoices/invoice-validation-rules.ts';

/** A real (tiny, valid) PNG of the given size: signature, IHDR, one IDAT, IEND. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, 'ascii'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  const rows = Buffer.alloc((width + 1) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('PNG header', () => {
  it.each([
    [png(200, 80), { width: 200, height: 80 }],
    [png(1, 1), { width: 1, height: 1 }],
    [png(1200, 300).subarray(0, 24), { width: 1200, height: 300 }],
    [Buffer.from('GIF89a............................'), undefined],
    [Buffer.from('%PDF-1.4 not an image at all, no'), undefined],
    [png(300, 100).subarray(0, 20), undefined],
  ])('%#: reads %j', (bytes, expected) => {
    expect(pngSize(bytes)).toEqual(expected);
  });
});

describe('secrets', () => {
  it('matches only the secret whose digest is stored', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = digestOf(secret);
    expect(stored).not.toContain(secret);
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(`${secret}x`, stored)).toBe(false);
    expect(secretMatches(secret, undefined)).toBe(false);
    expect(secretMatches(secret, 'abcd')).toBe(false);
  });
});

describe('API periods', () => {
  const account = {
    periodAnchor: '2026-01-01T00:00:00.000Z',
    plan: { callsPerPeriod: 10, periodDays: 30, ratePerSecond: 1 },
  };
  it.each([
    ['2026-01-01T00:00:00.000Z', 0, '2026-01-31T00:00:00.000Z'],
    ['2026-01-30T23:59:59.000Z', 0, '2026-01-31T00:00:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 1, '2026-03-02T00:00:00.000Z'],
    ['2026-03-05T12:00:00.000Z', 2, '2026-04-01T00:00:00.000Z'],
  ])('at %s the period is %i and resets at %s', (now, index, resetsAt) => {
    const p = periodOf(account, Date.parse(now));
    expect(p.index).toBe(index);
    expect(p.resetsAt.toISOString()).toBe(resetsAt);
  });
});

describe('invoice validation rules', () => {
  it('are the defaults until a company changes them', () => {
    const rules = applyRuleChanges({});
    expect(rules.map((r) => r.key)).toEqual(DEFAULT_VALIDATION_RULES.map((r) => r.key));
    expect(rules.find((r) => r.key === 'consumption-vs-last-year')).toMatchObject({
      enabled: true,
      threshold: { value: 30, unit: '%' },
    });
  });

  it('apply a change to the named rule only, and never give a threshold to a rule without one', () => {
    const rules = applyRuleChanges({
      'consumption-vs-last-year': { threshold: 15, severity: 'failed' },
      'estimated-reads': { enabled: false, threshold: 3 },
    });
    expect(rules.find((r) => r.key === 'consumption-vs-last-year')).toMatchObject({
      severity: 'failed',
      threshold: { value: 15 },
    });
    const estimated = rules.find((r) => r.key === 'estimated-reads');
    expect(estimated?.enabled).toBe(false);
    expect(estimated?.threshold).toBeUndefined();
    expect(rules.find((r) => r.key === 'vat-rate')?.enabled).toBe(true);
  });

  it('refuse changes to rules that do not exist', () => {
    expect(ruleChangesSchema.safeParse({ 'no-such-rule': { enabled: false } }).success).toBe(false);
    expect(ruleChangesSchema.safeParse({ 'vat-rate': { enabled: false } }).success).toBe(true);
  });
});

describe('outbox e-mail', () => {
  it('is a message a mail client can read, with non-ASCII text encoded', () => {
    const eml = emlOf(
      { to: 'amélie@demo.test', subject: 'Welcome, Amélie', text: 'Hello\nPassword: x' },
      'Voltfolio <no-reply@voltfolio.test>',
      'id@x',
    );
    expect(eml).toContain('From: Voltfolio <no-reply@voltfolio.test>\r\n');
    expect(eml).toMatch(/^Subject: =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=\r$/m);
    const body = eml.split('\r\n\r\n')[1] ?? '';
    expect(Buffer.from(body.replace(/\r\n/g, ''), 'base64').toString('utf8')).toBe('Hello\r\nPassword: x');
  });
});
