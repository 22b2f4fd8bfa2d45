import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import * as jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localQueueUrl } from '../../infra/local/environment.ts';
import { signInForToken } from '../../infra/local/oidc/sign-in-flow.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';
import { testPicture } from './register-assets-support.ts';

let local: LocalStackHandle;
let token: string;

beforeAll(async () => {
  local = await startLocalStack({ seed: true });
  token = (
    await signInForToken({
      baseUrl: local.origin,
      email: 'owner@demo.test',
      password: 'Voltfolio-demo-2026!',
    })
  ).accessToken;
}, 120_000);
afterAll(() => local?.stop());

const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${local.apiUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

type Image = { _id?: string; thumbUrl?: string; isPrimary: boolean };

describe('site pictures on the local stack', () => {
  it('turns a picture uploaded by its signed URL into a thumbnail on the site', async () => {
    const list = await api('/assets?$sort=siteName&limit=1');
    const asset = (list.body.data as { _id: string; images: Image[] }[])[0] as {
      _id: string;
      images: Image[];
    };
    const before = asset.images.length;
    const picture = new Uint8Array(testPicture('jpeg', 1600, 1200));
    const ticket = await api(
      `/assets/image-upload-url?fileType=image/jpeg&assetId=${asset._id}&size=${picture.length}`,
    );
    expect(ticket.status).toBe(200);
    // Same origin as the app: the browser PUTs the file straight to storage.
    expect(String(ticket.body.uploadUrl).startsWith(`${local.origin}/s3/`)).toBe(true);
    const put = await fetch(String(ticket.body.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg' },
      body: picture,
    });
    expect(put.status).toBe(200);

    let images: Image[] = [];
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      await local.drainQueues(10_000);
      images = (await api(`/assets/${asset._id}`)).body.images as Image[];
      if (images.some((i) => i._id === ticket.body.imageId)) break;
      await new Promise((done) => setTimeout(done, 200));
    }
    expect(images).toHaveLength(before + 1);
    const added = images.find((i) => i._id === ticket.body.imageId) as Image;
    const thumb = await fetch(String(added.thumbUrl));
    expect(thumb.status).toBe(200);
    const decoded = jpeg.decode(Buffer.from(await thumb.arrayBuffer()), { useTArray: true });
    expect([decoded.width, decoded.height]).toEqual([427, 320]);
  });

  it('answers a site search with its pictures as links, as the site list does, never their storage keys', async () => {
    const list = await api('/assets?$sort=siteName&limit=1');
    const listed = (list.body.data as { _id: string; siteName: string; images: Image[] }[])[0];
    expect(listed?.images.length).toBeGreaterThan(0);
    const found = await api(`/assets/search?query=${encodeURIComponent(String(listed?.siteName))}`);
    const site = (
      found.body.data as { _id: string; images: Record<string, unknown>[]; primaryImage?: Image }[]
    ).find((a) => a._id === listed?._id);
    expect(site?.images.length).toBe(listed?.images.length);
    for (const image of site?.images ?? []) {
      expect(Object.keys(image).filter((k) => k.endsWith('Key') || k === 'key')).toEqual([]);
      expect(String(image.url)).toMatch(/^http/);
    }
    expect(site?.primaryImage?.thumbUrl).toBeTruthy();
    expect((await fetch(String(site?.primaryImage?.thumbUrl))).status).toBe(200);
  });

  it('leaves no message behind in the dead-letter queue (the seed pictures and thumbnails are passed over)', async () => {
    await local.drainQueues(10_000);
    const { messaging } = local.stack;
    const attrs = await messaging.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: localQueueUrl(messaging.endpoint, 'asset-images-dlq'),
        AttributeNames: ['ApproximateNumberOfMessages'],
      }),
    );
    expect(attrs.Attributes?.ApproximateNumberOfMessages).toBe('0');
  });

  it('answers the public-data calls from the local services of their shape', async () => {
    const list = await api('/assets?limit=1');
    const id = (list.body.data as { _id: string }[])[0]?._id;
    const crime = await api(`/assets/${id}/crime`);
    expect(crime.status).toBe(200);
    expect(Number(crime.body.total)).toBeGreaterThan(0);
    expect((await api(`/certificates?assetId=${id}`)).status).toBe(200);
  });
});
