import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { newId } from '../../functions/core/lib/ids.ts';
import { createLogger } from '../../functions/core/lib/logger.ts';
import { s3ObjectsOf } from '../../functions/core/lib/s3-event.ts';
import { formMessagesOf } from '../../functions/core/lib/validation.ts';
import { listQueryOf } from '../../functions/core/resources/resource-service.ts';
import { detectCaptureFileType, safeFileName } from '../../shared/files/file-type.ts';
import '../../shared/system/resource-schemas/accounts.ts';
import { findResource } from '../../shared/system/resources.ts';

describe('ids', () => {
  it('sort in creation order, even within one millisecond', () => {
    const ids = Array.from({ length: 200 }, () => newId(1_700_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(200);
    expect(newId(1_700_000_000_001) > String(ids[199])).toBe(true);
    expect(ids[0]).toMatch(/^[0-9a-f]{24}$/);
  });
});

describe('form messages', () => {
  it('names each bad field once, with "This field is required" for a missing one', () => {
    const schema = z.object({
      name: z.string(),
      area: z.number().min(0, 'Must be 0 or more'),
      nested: z.object({ a: z.string() }),
    });
    const result = schema.safeParse({ area: -1, nested: {} });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(formMessagesOf(result.error)).toEqual({
        name: 'This field is required',
        area: 'Must be 0 or more',
        'nested.a': 'This field is required',
      });
    }
  });

  it('says what a wrong value should have been, rather than calling it missing', () => {
    const schema = z.object({
      name: z.string(),
      area: z.number(),
      active: z.boolean(),
      tags: z.array(z.string()),
      floors: z.number({ error: 'Floors must be counted' }),
    });
    const result = schema.safeParse({ name: 5, area: 'big', active: 'yes', tags: 'a', floors: 'two' });
    expect(result.success).toBe(false);
    if (!result.success) {
      expect(formMessagesOf(result.error)).toEqual({
        name: 'Must be text',
        area: 'Must be a number',
        active: 'Must be true or false',
        tags: 'Must be a list',
        floors: 'Floors must be counted',
      });
    }
  });
});

describe('logs', () => {
  it('never write tokens, secrets or passwords', () => {
    const lines: string[] = [];
    const log = createLogger({}, 'info', (l) => lines.push(l));
    log.info('x', {
      headers: { authorization: 'Bearer abc', 'x-kiosk-key': 'k:s' },
      password: 'p',
      keep: 'me',
    });
    expect(lines[0]).not.toMatch(/abc|k:s|"p"/);
    expect(lines[0]).toContain('"keep":"me"');
  });
});

describe('list query strings', () => {
  const accounts = findResource('accounts');
  if (!accounts) throw new Error('accounts not declared');
  it('turn params into filters and paging, leaving control params out', () => {
    const q = listQueryOf(accounts, {
      assetId: 'a1',
      status: 'active',
      limit: '10',
      skip: '20',
      $sort: '-createdAt',
    });
    expect(q).toMatchObject({
      filters: { assetId: 'a1', status: 'active' },
      limit: 10,
      skip: 20,
      descending: true,
    });
  });
  it('split comma lists with $multi and always for _id', () => {
    expect(listQueryOf(accounts, { type: 'gas,water', $multi: 'true' }).filters).toEqual({
      type: ['gas', 'water'],
    });
    expect(listQueryOf(accounts, { _id: 'a,b' }).filters).toEqual({ _id: ['a', 'b'] });
    expect(listQueryOf(accounts, { type: 'gas,water' }).filters).toEqual({ type: 'gas,water' });
  });
  it('refuse a negative or fractional limit with a clear message', () => {
    expect(() => listQueryOf(accounts, { limit: '-1' })).toThrow(/limit must be a whole number/);
    expect(() => listQueryOf(accounts, { skip: '1.5' })).toThrow(/skip must be a whole number/);
  });
  it('default to 100 items', () => {
    expect(listQueryOf(accounts, {}).limit).toBe(100);
  });
});

describe('S3 events in SQS bodies', () => {
  it('decode keys the way S3 encodes them and skip test events', () => {
    const body = JSON.stringify({
      Records: [
        {
          eventName: 'ObjectCreated:Put',
          s3: { bucket: { name: 'inbox' }, object: { key: 'mail/a+b%2Bc.eml', size: 3 } },
        },
      ],
    });
    expect(s3ObjectsOf(body)).toEqual([{ bucket: 'inbox', key: 'mail/a b+c.eml', size: 3 }]);
    expect(s3ObjectsOf(JSON.stringify({ Event: 's3:TestEvent' }))).toEqual([]);
    expect(() => s3ObjectsOf('{}')).toThrow(/Not an S3 event/);
  });
});

describe('capture file types', () => {
  it('are recognised by their bytes, not their names', () => {
    expect(detectCaptureFileType(new TextEncoder().encode('%PDF-1.7\n...'))).toBe('pdf');
    expect(detectCaptureFileType(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(
      'png',
    );
    expect(detectCaptureFileType(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(detectCaptureFileType(new TextEncoder().encode('PK\u0003\u0004 invoice.docx'))).toBeUndefined();
  });
  it('make file names safe for keys', () => {
    expect(safeFileName('../../etc/passwd')).toBe('etcpasswd');
    expect(safeFileName('Invoice  March 2025.pdf')).toBe('Invoice-March-2025.pdf');
    expect(safeFileName('///')).toBe('attachment');
  });
});
