import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getObjectBytes, presignGet, presignPut, putObject } from '../../functions/core/adapters/s3.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

let local: LocalStackHandle;

beforeAll(async () => {
  local = await startLocalStack({ pollers: false });
});
afterAll(() => local?.stop());

describe('S3 for browsers at /s3', () => {
  it('gives presigned URLs on the app origin, and a PUT to one stores the object', async () => {
    const bucket = local.env.BUCKET_UPLOADS as string;
    const url = await presignPut(bucket, 'invoices/c1/march bill.pdf', 'application/pdf');
    expect(url.startsWith(`${local.origin}/s3/${bucket}/`)).toBe(true);

    const body = Buffer.from('%PDF-1.7 test invoice');
    const put = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);

    const stored = await local.stack.messaging.s3.send(
      new GetObjectCommand({ Bucket: bucket, Key: 'invoices/c1/march bill.pdf' }),
    );
    expect(stored.ContentType).toBe('application/pdf');
    expect(Buffer.from(await (stored.Body?.transformToByteArray() ?? new Uint8Array()))).toEqual(body);
  });

  it('serves presigned GETs with the download name S3 would set', async () => {
    const bucket = local.env.BUCKET_DOCUMENTS as string;
    await local.stack.messaging.s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: 'reports/r1.csv',
        Body: 'a,b\n1,2\n',
        ContentType: 'text/csv',
      }),
    );
    const res = await fetch(await presignGet(bucket, 'reports/r1.csv', 60, 'Energy report.csv'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Energy report.csv"');
    expect(res.headers.get('content-type')).toBe('text/csv');
    expect(await res.text()).toBe('a,b\n1,2\n');
  });

  it('stores objects larger than the emulator takes in one request, from functions and browsers', async () => {
    const bucket = local.env.BUCKET_UPLOADS as string;
    const big = Buffer.alloc(23 * 1024 * 1024, 7);
    big.write('%PDF-1.7');
    await putObject(bucket, 'invoices/c1/big.pdf', big, 'application/pdf', { source: 'email' });
    const head = await local.stack.messaging.s3.send(
      new HeadObjectCommand({ Bucket: bucket, Key: 'invoices/c1/big.pdf' }),
    );
    expect(head.ContentLength).toBe(big.byteLength);
    expect(head.ContentType).toBe('application/pdf');
    expect(head.Metadata).toEqual({ source: 'email' });
    expect(Buffer.from(await getObjectBytes(bucket, 'invoices/c1/big.pdf')).equals(big)).toBe(true);

    const put = await fetch(await presignPut(bucket, 'invoices/c1/scan.pdf', 'application/pdf'), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: big,
    });
    expect(put.status).toBe(200);
    expect(Buffer.from(await getObjectBytes(bucket, 'invoices/c1/scan.pdf')).equals(big)).toBe(true);
  });

  it('answers CORS preflights for the app origin', async () => {
    const res = await fetch(`${local.origin}/s3/${local.env.BUCKET_UPLOADS}/x`, {
      method: 'OPTIONS',
      headers: {
        origin: local.origin,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(local.origin);
    expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
  });

  it('reaches only the product buckets, not the rest of the emulator', async () => {
    const other = await fetch(`${local.origin}/s3/someone-elses-bucket/key`);
    expect(other.status).toBe(404);
    expect(await other.text()).toContain('NoSuchBucket');
    const sqs = await fetch(`${local.origin}/s3/`, {
      method: 'POST',
      headers: { 'x-amz-target': 'AmazonSQS.ListQueues', 'content-type': 'application/x-amz-json-1.0' },
      body: '{}',
    });
    expect(sqs.status).toBe(404);
  });
});
