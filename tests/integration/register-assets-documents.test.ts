import type { SQSEvent } from 'aws-lambda';
import * as jpeg from 'jpeg-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRequest } from '../support/http-events.ts';
import {
  putObject,
  type RegisterFixture,
  s3Event,
  startRegisterFixture,
  testPicture,
  withOrientation,
} from './register-assets-support.ts';

let r: RegisterFixture;
let worker: (event: SQSEvent) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;
const call = (req: TestRequest) => r.api(req);
const asOwner = (method: string, path: string, body?: unknown) =>
  call({ method, path, token: r.tokens.owner, body });

beforeAll(async () => {
  r = await startRegisterFixture();
  worker = (await import('../../functions/handlers/queue/asset-images.ts')).handler;
}, 60_000);
afterAll(async () => r?.stop());

type Image = {
  _id?: string;
  thumbUrl?: string;
  url?: string;
  isPrimary: boolean;
  enhancedUrl?: string;
  width?: number;
};
const imagesOf = async (id: string) => (await asOwner('GET', `/assets/${id}`)).body.images as Image[];

describe('site documents', () => {
  it('hands out a signed upload only for a known category, then keeps the document once its file is stored', async () => {
    const id = r.assets.mine;
    const wrong = await asOwner('POST', `/assets/${id}/documents/upload`, {
      fileName: 'lease.pdf',
      category: 'Recipes',
      size: 14,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.formMessages).toEqual({ category: 'Choose one of the document categories' });
    const ticket = await asOwner('POST', `/assets/${id}/documents/upload`, {
      fileName: 'Lease 2026 (signed).pdf',
      contentType: 'application/pdf',
      category: 'Lease',
      size: 14,
    });
    expect(ticket.status).toBe(200);
    expect(ticket.body).toMatchObject({ method: 'PUT', contentType: 'application/pdf' });
    expect(String(ticket.body.key)).toMatch(
      new RegExp(`^assets/${id}/documents/[0-9a-f]{24}/Lease-2026-signed-.pdf$`),
    );
    const register = {
      key: ticket.body.key,
      name: 'Lease',
      fileName: 'Lease 2026 (signed).pdf',
      category: 'Lease',
    };
    const early = await asOwner('POST', `/assets/${id}/documents`, register);
    expect(early.status).toBe(400);
    expect(early.body.formMessages).toEqual({ file: 'The file has not been uploaded' });

    const put = await fetch(String(ticket.body.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: '%PDF-1.4 lease',
    });
    expect(put.ok).toBe(true);
    const kept = await asOwner('POST', `/assets/${id}/documents`, register);
    expect(kept.status).toBe(201);
    expect(kept.body).toMatchObject({ name: 'Lease', category: 'Lease', size: 14, assetId: id });
    const again = await asOwner('POST', `/assets/${id}/documents`, register);
    expect(again.body._id).toBe(kept.body._id);
    const list = await asOwner('GET', `/assets/${id}/documents`);
    expect(list.body.total).toBe(1);

    const link = await asOwner('GET', `/assets/${id}/documents/${kept.body._id}/download`);
    const file = await fetch(String(link.body.downloadUrl));
    expect(await file.text()).toBe('%PDF-1.4 lease');
    // The signed link asks storage to answer with the file's own name as an attachment.
    const disposition = new URL(String(link.body.downloadUrl)).searchParams.get(
      'response-content-disposition',
    );
    expect(disposition).toBe('attachment; filename="Lease 2026 (signed).pdf"');
    // And with a type of its own name's, whatever type the upload declared.
    const type = new URL(String(link.body.downloadUrl)).searchParams.get('response-content-type');
    expect(type).toBe('application/pdf');

    const renamed = await asOwner('PATCH', `/assets/${id}/documents/${kept.body._id}`, {
      name: 'Head lease',
      category: 'Floor plan',
    });
    expect(renamed.body).toMatchObject({ name: 'Head lease', category: 'Floor plan' });
    expect(
      (await asOwner('PATCH', `/assets/${id}/documents/${kept.body._id}`, { category: 'Menu' })).status,
    ).toBe(400);
    expect((await asOwner('DELETE', `/assets/${id}/documents/${kept.body._id}`)).status).toBe(200);
    expect((await asOwner('GET', `/assets/${id}/documents`)).body.total).toBe(0);
    expect((await asOwner('GET', `/assets/${id}/documents/${kept.body._id}/download`)).status).toBe(404);
  });

  it('downloads a page or a drawing someone uploaded as a file of no type a browser would run', async () => {
    const id = r.assets.mine;
    for (const [fileName, contentType, body] of [
      ['minutes.html', 'text/html', '<script>document.title="ran"</script>'],
      ['plan.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ] as const) {
      const ticket = await asOwner('POST', `/assets/${id}/documents/upload`, {
        fileName,
        contentType,
        category: 'Lease',
        size: body.length,
      });
      expect(ticket.status).toBe(200);
      const put = await fetch(String(ticket.body.uploadUrl), {
        method: 'PUT',
        headers: { 'content-type': contentType },
        body,
      });
      expect(put.ok).toBe(true);
      const kept = await asOwner('POST', `/assets/${id}/documents`, {
        key: ticket.body.key,
        name: fileName,
        fileName,
        category: 'Lease',
      });
      expect(kept.status).toBe(201);
      const link = await asOwner('GET', `/assets/${id}/documents/${kept.body._id}/download`);
      const file = await fetch(String(link.body.downloadUrl));
      expect(await file.text()).toBe(body);
      // Storage answers with the headers the signed link asks for.
      const asked = new URL(String(link.body.downloadUrl)).searchParams;
      expect(asked.get('response-content-disposition')).toMatch(/^attachment;/);
      expect(asked.get('response-content-type')).toBe('application/octet-stream');
    }
  });

  it('signs the size an upload declares, so storage refuses a body of any other size', async () => {
    const ticket = await asOwner('POST', `/assets/${r.assets.mine}/documents/upload`, {
      fileName: 'survey.pdf',
      contentType: 'application/pdf',
      size: 1024,
    });
    expect(ticket.status).toBe(200);
    const url = new URL(String(ticket.body.uploadUrl));
    expect(url.searchParams.get('X-Amz-SignedHeaders')?.split(';')).toContain('content-length');
  });

  it('keeps no file of another site, and shows another company nothing', async () => {
    const ticket = await asOwner('POST', `/assets/${r.assets.second}/documents/upload`, {
      fileName: 'plan.pdf',
      size: 100,
    });
    expect(ticket.status).toBe(200);
    const stolen = await asOwner('POST', `/assets/${r.assets.mine}/documents`, {
      key: ticket.body.key,
      name: 'Plan',
      fileName: 'plan.pdf',
    });
    expect(stolen.status).toBe(400);
    const foreign = await call({
      method: 'POST',
      path: `/assets/${r.assets.mine}/documents/upload`,
      token: r.tokens.outsider,
      body: { fileName: 'x.pdf' },
    });
    expect(foreign.status).toBe(404);
    const reader = await call({
      method: 'POST',
      path: `/assets/${r.assets.mine}/documents/upload`,
      token: r.tokens.reader,
      body: { fileName: 'x.pdf' },
    });
    expect(reader.status).toBe(403);
  });
});

describe('site pictures', () => {
  /** Pictures stored straight into storage here declare a size the emulator does not hold them to. */
  const uploadUrl = (query: string, token = r.tokens.owner, size = 64 * 1024) =>
    call({ method: 'GET', path: `/assets/image-upload-url?${query}&size=${size}`, token });

  it('hands out uploads for PNG and JPEG pictures of sites the caller may change', async () => {
    const gif = await uploadUrl(`fileType=image/gif&assetId=${r.assets.mine}`);
    expect(gif.status).toBe(400);
    expect(gif.body).toMatchObject({
      message: 'There was a problem getting an upload URL.',
      formMessages: { fileType: 'Must be a PNG or JPEG image' },
    });
    expect((await uploadUrl(`fileType=png&assetId=${r.assets.foreign}`)).status).toBe(404);
    expect((await uploadUrl(`fileType=png&assetId=${r.assets.mine}`, r.tokens.reader)).status).toBe(403);
    const ok = await uploadUrl(`fileType=image/jpeg&assetId=${r.assets.mine}`);
    expect(String(ok.body.key)).toBe(`assets/${r.assets.mine}/images/originals/${ok.body.imageId}.jpg`);
  });

  it('makes an upright thumbnail once per upload, records it, and passes over its own output', async () => {
    const id = r.assets.mine;
    const picture = new Uint8Array(testPicture('png', 1200, 600));
    const ticket = await uploadUrl(`fileType=png&assetId=${id}`, r.tokens.owner, picture.length);
    const put = await fetch(String(ticket.body.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: picture,
    });
    expect(put.ok).toBe(true);
    const event = s3Event(String(ticket.body.key));
    expect((await worker(event)).batchItemFailures).toEqual([]);
    expect((await worker(event)).batchItemFailures).toEqual([]);
    const images = await imagesOf(id);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ _id: ticket.body.imageId, isPrimary: true, width: 1200, height: 600 });
    const thumb = jpeg.decode(Buffer.from(await (await fetch(String(images[0]?.thumbUrl))).arrayBuffer()), {
      useTArray: true,
    });
    expect([thumb.width, thumb.height]).toEqual([480, 240]);

    await worker(s3Event(`assets/${id}/images/thumbs/${ticket.body.imageId}.jpg`));
    await putObject(
      r.s3,
      `assets/${id}/images/originals/0123456789abcdef01234567.png`,
      testPicture('png', 10, 10),
      'image/png',
    );
    await worker(s3Event(`assets/${id}/images/originals/0123456789abcdef01234567.png`));
    expect(await imagesOf(id)).toHaveLength(1);
  });

  it('turns a camera photo upright by its EXIF orientation', async () => {
    const id = r.assets.second;
    const ticket = await uploadUrl(`fileType=jpeg&assetId=${id}`);
    await putObject(
      r.s3,
      String(ticket.body.key),
      withOrientation(testPicture('jpeg', 600, 400), 6),
      'image/jpeg',
    );
    expect((await worker(s3Event(String(ticket.body.key)))).batchItemFailures).toEqual([]);
    const image = (await imagesOf(id)).find((i) => i._id === ticket.body.imageId);
    expect(image).toMatchObject({ width: 400, height: 600 });
    const thumb = jpeg.decode(Buffer.from(await (await fetch(String(image?.thumbUrl))).arrayBuffer()), {
      useTArray: true,
    });
    expect([thumb.width, thumb.height]).toEqual([213, 320]);
  });

  it('records nothing for a file that is not a picture, and does not retry it', async () => {
    const ticket = await uploadUrl(`fileType=png&assetId=${r.assets.second}`);
    await putObject(r.s3, String(ticket.body.key), 'not a picture at all', 'image/png');
    expect((await worker(s3Event(String(ticket.body.key)))).batchItemFailures).toEqual([]);
    expect((await imagesOf(r.assets.second)).some((i) => i._id === ticket.body.imageId)).toBe(false);
    // Delivered again, it is still passed over: a bad file is not worth retrying.
    expect((await worker(s3Event(String(ticket.body.key)))).batchItemFailures).toEqual([]);
  });

  it('switches the primary picture and enhances an uploaded one', async () => {
    const id = r.assets.mine;
    const ticket = await uploadUrl(`fileType=jpeg&assetId=${id}`);
    await putObject(r.s3, String(ticket.body.key), testPicture('jpeg', 300, 200), 'image/jpeg');
    await worker(s3Event(String(ticket.body.key)));
    const second = String(ticket.body.imageId);
    expect((await imagesOf(id)).map((i) => i.isPrimary)).toEqual([true, false]);
    const primary = await asOwner('PUT', `/assets/${id}/primary-thumbnail`, { imageId: second });
    expect(primary.status).toBe(200);
    expect((await imagesOf(id)).map((i) => i.isPrimary)).toEqual([false, true]);
    const list = await asOwner('GET', `/assets?query=aldgate`);
    const shown = (list.body.data as { primaryImage?: Image }[])[0]?.primaryImage;
    expect(shown?._id).toBe(second);
    // Listed again a second later (a fresh signature would carry another time), the picture keeps its
    // address, so the browser's copy serves it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await asOwner('GET', `/assets?query=aldgate`);
    expect(shown?.thumbUrl).toBeDefined();
    expect((again.body.data as { primaryImage?: Image }[])[0]?.primaryImage?.thumbUrl).toBe(shown?.thumbUrl);
    const unknown = await asOwner('PUT', `/assets/${id}/primary-thumbnail`, { imageId: 'nope' });
    expect(unknown.body.formMessages).toEqual({ imageId: 'No such image on this site' });

    const enhanced = await asOwner('POST', `/assets/${id}/images/${second}/enhance`);
    expect(enhanced.status).toBe(200);
    const copy = jpeg.decode(
      Buffer.from(await (await fetch(String(enhanced.body.previewUrl))).arrayBuffer()),
      { useTArray: true },
    );
    expect([copy.width, copy.height]).toEqual([300, 200]);
    // The dull grey gradient is stretched: its darkest red reaches near black, its brightest near white.
    expect(copy.data[0]).toBeLessThan(20);
    expect((await imagesOf(id)).find((i) => i._id === second)?.enhancedUrl).toBeTruthy();
    const missing = await asOwner('POST', `/assets/${id}/images/0123456789abcdef01234567/enhance`);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('There was a problem enhancing the image.');
  });

  it('keeps a list of satellite images', async () => {
    const id = r.assets.mine;
    const bad = await asOwner('PUT', `/assets/${id}/satellite-images`, {
      satelliteImages: [{ url: 'ftp://x' }],
    });
    expect(bad.status).toBe(400);
    const images = [{ url: 'https://tiles.example/1.png', zoom: 17, label: 'Roof' }];
    expect((await asOwner('PUT', `/assets/${id}/satellite-images`, { satelliteImages: images })).status).toBe(
      200,
    );
    expect((await asOwner('GET', `/assets/${id}/satellite-images`)).body).toEqual({ data: images, total: 1 });
    const foreign = await call({
      method: 'GET',
      path: `/assets/${id}/satellite-images`,
      token: r.tokens.outsider,
    });
    expect(foreign.status).toBe(404);
  });
});
