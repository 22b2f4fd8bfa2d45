import type { IncomingMessage } from 'node:http';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkS3Signature } from '../../infra/local/s3-signature.ts';
import type { TestResponse } from '../support/http-events.ts';
import { pngBomb } from '../support/picture-bombs.ts';
import {
  type AccessFixture,
  type DemoWorld,
  png,
  seedDemoWorld,
  startAccessFixture,
} from './access-support.ts';

/**
 * Every presigned upload takes the size of its file before it hands out a URL, refuses one above its limit
 * with a field message, and signs the size into the URL, so storage takes a body of that size only. What
 * was stored is checked again, by its size and bytes, when the upload is put to use.
 */

let fx: AccessFixture;
let world: DemoWorld;
let supplierId: string;
let templateId: string;
let folderAutomationId: string;

const MB = 1024 * 1024;
const call = (method: string, path: string, token: string, body?: unknown) =>
  fx.api({ method, path, token, body });
const owner = () => world.user('owner@demo.test').token;
const staff = () => world.user('admin@voltfolio.test').token;
const firstOf = (ids: Map<string, string>) => [...ids.values()][0] as string;

beforeAll(async () => {
  fx = await startAccessFixture({ aws: true });
  world = await seedDemoWorld(fx);
  const supplier = await call('POST', '/suppliers', staff(), {
    name: 'Upload Size Energy',
    utilityTypes: ['electricity'],
  });
  expect(supplier.status).toBe(201);
  supplierId = String(supplier.body._id);
  const template = await call('POST', '/templates', staff(), { supplierId, type: 'electricity' });
  expect(template.status).toBe(201);
  templateId = String(template.body._id);
  const folder = await call('POST', '/automations', owner(), {
    name: 'Drop box',
    templateId: 'folder-import',
  });
  expect(folder.status).toBe(201);
  folderAutomationId = String(folder.body._id);
}, 60_000);
afterAll(async () => fx?.stop());

/** Whether storage would take a PUT of `bytes` bytes to this URL, by the signature it carries. */
function storageTakes(uploadUrl: string, bytes: number): boolean {
  const url = new URL(uploadUrl);
  const req = {
    method: 'PUT',
    url: uploadUrl.slice(uploadUrl.indexOf(url.host) + url.host.length),
    headers: { host: url.host, 'content-length': String(bytes) },
  } as unknown as IncomingMessage;
  return checkS3Signature(req, { accessKeyId: 'test', secretAccessKey: 'test' }) === undefined;
}

interface UploadCase {
  name: string;
  limit: number;
  ask: (size: number | undefined) => Promise<TestResponse>;
}

const CASES: UploadCase[] = [
  {
    name: 'a reading photo',
    limit: 20 * MB,
    ask: (size) =>
      call('POST', '/readings/photo', owner(), {
        accountId: firstOf(world.demo.accounts),
        fileName: 'meter.jpg',
        contentType: 'image/jpeg',
        ...(size === undefined ? {} : { size }),
      }),
  },
  {
    name: 'a site picture',
    limit: 20 * MB,
    ask: (size) =>
      call(
        'GET',
        `/assets/image-upload-url?fileType=image/jpeg&assetId=${firstOf(world.demo.assets)}${
          size === undefined ? '' : `&size=${size}`
        }`,
        owner(),
      ),
  },
  {
    name: 'a company logo',
    limit: 5 * MB,
    ask: (size) => call('POST', '/companies/upload-logo', owner(), size === undefined ? {} : { size }),
  },
  {
    name: 'a contract PDF',
    limit: 50 * MB,
    ask: (size) =>
      call('POST', `/accounts/${firstOf(world.demo.accounts)}/contracts/upload`, owner(), {
        fileName: 'contract.pdf',
        ...(size === undefined ? {} : { size }),
      }),
  },
  {
    name: 'a template sample',
    limit: 20 * MB,
    ask: (size) =>
      call('POST', `/templates/${templateId}/sample`, staff(), {
        fileName: 'sample.pdf',
        ...(size === undefined ? {} : { size }),
      }),
  },
  {
    name: 'a supplier logo',
    limit: 5 * MB,
    ask: (size) => call('PUT', `/suppliers/${supplierId}/logo`, staff(), size === undefined ? {} : { size }),
  },
  {
    name: 'a site document',
    limit: 100 * MB,
    ask: (size) =>
      call('POST', `/assets/${firstOf(world.demo.assets)}/documents/upload`, owner(), {
        fileName: 'lease.pdf',
        contentType: 'application/pdf',
        ...(size === undefined ? {} : { size }),
      }),
  },
  {
    name: 'a file for an automation folder',
    limit: 20 * MB,
    ask: (size) =>
      call('POST', '/automation/upload-url', owner(), {
        automationId: folderAutomationId,
        fileName: 'bill.pdf',
        contentType: 'application/pdf',
        ...(size === undefined ? {} : { size }),
      }),
  },
];

describe.each(CASES)('the upload URL for $name', ({ limit, ask }) => {
  it('needs the file size, and refuses a file above the limit with a field message', async () => {
    const missing = await ask(undefined);
    expect(missing.status).toBe(400);
    expect(missing.body.formMessages).toMatchObject({ size: 'This field is required' });
    const over = await ask(limit + 1);
    expect(over.status).toBe(400);
    expect(over.body.formMessages).toMatchObject({ size: `Must be ${limit / MB} MB or smaller` });
  });

  it('signs the declared size, so storage takes a file of that size and of no other', async () => {
    const ticket = await ask(limit);
    expect([200, 201]).toContain(ticket.status);
    // The automation folder's call names its URL `url`, as the specification's client reads it.
    const uploadUrl = String(ticket.body.uploadUrl ?? ticket.body.url);
    expect(new URL(uploadUrl).searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain(
      'content-length',
    );
    expect(storageTakes(uploadUrl, limit)).toBe(true);
    expect(storageTakes(uploadUrl, limit + 1)).toBe(false);
    expect(storageTakes(uploadUrl, 1024)).toBe(false);
  });
});

describe('an upload put to use', () => {
  const s3 = () =>
    new S3Client({
      region: 'eu-west-2',
      endpoint: fx.awsEndpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
  /** Stores bytes under a key as a body larger than its URL allowed would be, bypassing the URL. */
  const store = (bucket: string, key: string, body: Uint8Array) =>
    s3().send(new PutObjectCommand({ Bucket: `voltfolio-${bucket}`, Key: key, Body: body }));
  const padded = (start: Uint8Array, bytes: number) => {
    const out = new Uint8Array(bytes);
    out.set(start);
    return out;
  };
  /** A file larger than the emulator takes in one request: `start`, then zeros, in 10 MB parts. */
  const storeLarge = async (bucket: string, key: string, start: Uint8Array, bytes: number) => {
    const client = s3();
    const Bucket = `voltfolio-${bucket}`;
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket, Key: key }));
    const parts: { ETag?: string; PartNumber: number }[] = [];
    const PART = 10 * MB;
    for (let at = 0, n = 1; at < bytes; at += PART, n++) {
      const length = Math.min(PART, bytes - at);
      // The last part may be small; one byte left over rides on the part before it.
      const body = padded(
        at === 0 ? start : new Uint8Array(),
        bytes - at - length === 1 ? length + 1 : length,
      );
      const out = await client.send(
        new UploadPartCommand({ Bucket, Key: key, UploadId, PartNumber: n, Body: body }),
      );
      parts.push({ ETag: out.ETag, PartNumber: n });
      if (body.length > length) break;
    }
    await client.send(
      new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
    );
  };

  it('refuses a company logo stored above its limit, whatever its header says', async () => {
    const key = `logos/${world.demo.companyId}/oversized.png`;
    await store('documents', key, padded(png(400, 100), 5 * MB + 1));
    const res = await call('PUT', `/companies/${world.demo.companyId}/logo`, owner(), { key });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({ logo: 'Must be 5 MB or smaller' });
  });

  it('refuses a supplier logo stored above its limit, or declaring more pixels than a logo may have', async () => {
    const big = `suppliers/${supplierId}/logo/oversized.png`;
    await store('documents', big, padded(png(400, 100), 5 * MB + 1));
    const oversized = await call('PUT', `/suppliers/${supplierId}/logo`, staff(), { key: big });
    expect(oversized.body.formMessages).toEqual({ logo: 'Must be 5 MB or smaller' });
    const bomb = `suppliers/${supplierId}/logo/bomb.png`;
    await store('documents', bomb, pngBomb());
    const refused = await call('PUT', `/suppliers/${supplierId}/logo`, staff(), { key: bomb });
    expect(refused.status).toBe(400);
    expect(refused.body.formMessages).toEqual({ logo: 'Must be at most 16 megapixels (4000 × 4000 pixels)' });
  });

  it('refuses a contract PDF stored above its limit', async () => {
    const accountId = firstOf(world.demo.accounts);
    const pdf = new TextEncoder().encode('%PDF-1.4\n');
    const contractKey = `contracts/${world.demo.companyId}/${accountId}/oversized.pdf`;
    await storeLarge('documents', contractKey, pdf, 50 * MB + 1);
    const contract = await call('POST', `/accounts/${accountId}/contracts`, owner(), {
      name: 'Oversized',
      startDate: '2025-04-01',
      endDate: '2026-03-31',
      file: { key: contractKey, name: 'oversized.pdf' },
    });
    expect(contract.status).toBe(400);
    expect(contract.body.formMessages).toMatchObject({ file: 'Must be 50 MB or smaller' });
  });

  it('refuses to keep a site document stored above its limit', async () => {
    const assetId = firstOf(world.demo.assets);
    const key = `assets/${assetId}/documents/${'ab'.repeat(12)}/oversized.pdf`;
    await storeLarge('documents', key, new TextEncoder().encode('%PDF-1.4\n'), 100 * MB + 1);
    const kept = await call('POST', `/assets/${assetId}/documents`, owner(), {
      key,
      name: 'Oversized',
      fileName: 'oversized.pdf',
    });
    expect(kept.status).toBe(400);
    expect(kept.body.formMessages).toEqual({ file: 'Must be 100 MB or smaller' });
  });

  it('refuses a template sample stored above its limit', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4\n');
    const sampleKey = `template-samples/${templateId}/oversized/sample.pdf`;
    await storeLarge('uploads', sampleKey, pdf, 20 * MB + 1);
    const sample = await call('POST', `/templates/${templateId}/sample`, staff(), { key: sampleKey });
    expect(sample.status).toBe(400);
    expect(sample.body.formMessages).toEqual({ key: 'Must be 20 MB or smaller' });
  });
});
