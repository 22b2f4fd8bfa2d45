import {
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
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

  it('refuses to list, read or write without a signature, as S3 refuses anonymous callers', async () => {
    const bucket = local.env.BUCKET_UPLOADS as string;
    await putObject(bucket, 'invoices/c2/secret.pdf', Buffer.from('%PDF-1.7 northwind'), 'application/pdf');
    const list = await fetch(`${local.origin}/s3/${bucket}?list-type=2&prefix=invoices/`);
    expect(list.status).toBe(403);
    expect(await list.text()).toContain('<Code>AccessDenied</Code>');
    const get = await fetch(`${local.origin}/s3/${bucket}/invoices/c2/secret.pdf`);
    expect(get.status).toBe(403);
    expect(await get.text()).not.toContain('northwind');
    const put = await fetch(`${local.origin}/s3/${bucket}/invoices/c2/secret.pdf`, {
      method: 'PUT',
      body: 'x',
    });
    expect(put.status).toBe(403);
    expect(Buffer.from(await getObjectBytes(bucket, 'invoices/c2/secret.pdf')).toString()).toBe(
      '%PDF-1.7 northwind',
    );
  });

  it('refuses a presigned URL whose key or method was changed, or signed with another secret', async () => {
    const bucket = local.env.BUCKET_UPLOADS as string;
    await putObject(bucket, 'invoices/c2/bill.pdf', Buffer.from('%PDF-1.7 theirs'), 'application/pdf');
    const url = new URL(await presignPut(bucket, 'invoices/c1/mine.pdf', 'application/pdf'));
    url.pathname = url.pathname.replace('invoices/c1/mine.pdf', 'invoices/c2/bill.pdf');
    const edited = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: 'x',
    });
    expect(edited.status).toBe(403);
    expect(await edited.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    expect(Buffer.from(await getObjectBytes(bucket, 'invoices/c2/bill.pdf')).toString()).toBe(
      '%PDF-1.7 theirs',
    );

    const read = await fetch(await presignGet(bucket, 'invoices/c2/bill.pdf'), { method: 'PUT', body: 'x' });
    expect(read.status).toBe(403);

    const stranger = new S3Client({
      region: local.env.AWS_REGION,
      endpoint: `${local.origin}/s3`,
      forcePathStyle: true,
      credentials: { accessKeyId: local.env.AWS_ACCESS_KEY_ID as string, secretAccessKey: 'guessed' },
    });
    const forged = await fetch(
      await getSignedUrl(stranger, new GetObjectCommand({ Bucket: bucket, Key: 'invoices/c2/bill.pdf' })),
    );
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    await expect(
      stranger.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'invoices/' })),
    ).rejects.toThrow(/signature/i);
  });

  it('refuses a presigned URL once it has expired', async () => {
    const bucket = local.env.BUCKET_DOCUMENTS as string;
    await putObject(bucket, 'reports/r2.csv', Buffer.from('a\n'), 'text/csv');
    const url = await presignGet(bucket, 'reports/r2.csv', 1);
    await new Promise((r) => setTimeout(r, 2100));
    const res = await fetch(url);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('<Message>Request has expired</Message>');
  });

  it('keeps serving the SDK, which signs in its headers', async () => {
    const bucket = local.env.BUCKET_UPLOADS as string;
    const sdk = new S3Client({
      region: local.env.AWS_REGION,
      endpoint: local.env.AWS_ENDPOINT_URL_S3,
      forcePathStyle: true,
      credentials: {
        accessKeyId: local.env.AWS_ACCESS_KEY_ID as string,
        secretAccessKey: local.env.AWS_SECRET_ACCESS_KEY as string,
      },
    });
    await sdk.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'invoices/c3/a b+(1).pdf', Body: '%PDF-1.7' }),
    );
    const listed = await sdk.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'invoices/c3/' }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual(['invoices/c3/a b+(1).pdf']);
    const got = await sdk.send(new GetObjectCommand({ Bucket: bucket, Key: 'invoices/c3/a b+(1).pdf' }));
    expect(await got.Body?.transformToString()).toBe('%PDF-1.7');
  });

  it('stores only a body of the size the presigned PUT was asked for', async () => {
    const bucket = local.env.BUCKET_UPLOADS as string;
    const url = await presignPut(bucket, 'invoices/c1/declared.pdf', 'application/pdf', { size: 1024 });
    const larger = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: Buffer.alloc(64 * 1024, 1),
    });
    expect(larger.status).toBe(403);
    expect(await larger.text()).toContain('<Code>SignatureDoesNotMatch</Code>');
    const head = () =>
      local.stack.messaging.s3.send(
        new HeadObjectCommand({ Bucket: bucket, Key: 'invoices/c1/declared.pdf' }),
      );
    await expect(head()).rejects.toThrow();
    const exact = await fetch(url, {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: Buffer.alloc(1024, 1),
    });
    expect(exact.status).toBe(200);
    expect((await head()).ContentLength).toBe(1024);
  });
});
