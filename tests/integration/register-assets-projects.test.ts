import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRequest } from '../support/http-events.ts';
import { type RegisterFixture, startRegisterFixture } from './register-assets-support.ts';

let r: RegisterFixture;
const call = (req: TestRequest) => r.api(req);
const as = (token: string) => (method: string, path: string, body?: unknown) =>
  call({ method, path, token, body });
let asOwner: ReturnType<typeof as>;
let asOutsider: ReturnType<typeof as>;

beforeAll(async () => {
  r = await startRegisterFixture();
  asOwner = as(r.tokens.owner);
  asOutsider = as(r.tokens.outsider);
}, 60_000);
afterAll(async () => r?.stop());

describe('projects', () => {
  let projectId: string;

  it('creates, lists by site, changes and deletes projects with their form errors', async () => {
    const bad = await asOwner('POST', '/projects', { assetId: r.assets.mine, status: 'someday' });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toMatchObject({ name: 'This field is required' });
    expect(bad.body.formMessages).toHaveProperty('status');
    const made = await asOwner('POST', '/projects', {
      name: 'LED retrofit',
      assetId: r.assets.mine,
      cost: 42000,
    });
    expect(made.status).toBe(201);
    projectId = String(made.body._id);
    await asOwner('POST', '/projects', { name: 'Solar canopy', assetId: r.assets.second });
    const list = await asOwner('GET', `/projects?assetId=${r.assets.mine}`);
    expect((list.body.data as { name: string }[]).map((p) => p.name)).toEqual(['LED retrofit']);
    const changed = await asOwner('PATCH', `/projects/${projectId}`, { status: 'in-progress' });
    expect(changed.body).toMatchObject({ status: 'in-progress', cost: 42000 });
    const doomed = await asOwner('POST', '/projects', { name: 'Temporary', assetId: r.assets.mine });
    expect((await asOwner('DELETE', `/projects/${doomed.body._id}`)).body.deleted).toBe(true);
    expect((await asOwner('GET', `/projects?assetId=${r.assets.mine}`)).body.total).toBe(1);
  });

  it('keeps tasks on a project, shown with their taskId', async () => {
    const task = await asOwner('POST', `/projects/${projectId}/tasks`, {
      title: 'Survey lighting',
      dueDate: '2026-03-01',
    });
    expect(task.status).toBe(201);
    expect((await asOwner('POST', `/projects/${projectId}/tasks`, { dueDate: '1 March' })).status).toBe(400);
    await asOwner('PATCH', `/projects/${projectId}/tasks/${task.body._id}`, { done: true });
    const second = await asOwner('POST', `/projects/${projectId}/tasks`, { title: 'Order fittings' });
    await asOwner('DELETE', `/projects/${projectId}/tasks/${second.body._id}`);
    const project = await asOwner('GET', `/projects/${projectId}`);
    expect(project.body.tasks).toEqual([
      expect.objectContaining({ taskId: task.body._id, title: 'Survey lighting', done: true }),
    ]);
  });

  it('lists a document at once, and downloads it once its file is stored', async () => {
    const bad = await asOwner('POST', `/projects/${projectId}/documents/upload`, {});
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      message: 'Form validation error',
      formMessages: { fileName: 'This field is required' },
    });
    const ticket = await asOwner('POST', `/projects/${projectId}/documents/upload`, {
      fileName: 'quote.pdf',
      contentType: 'application/pdf',
      size: 10,
    });
    expect(ticket.status).toBe(201);
    const documentId = String(ticket.body.documentId);
    const project = await asOwner('GET', `/projects/${projectId}`);
    expect(project.body.documents).toEqual([expect.objectContaining({ documentId, fileName: 'quote.pdf' })]);
    const early = await asOwner('GET', `/projects/${projectId}/documents/${documentId}/download`);
    expect(early.status).toBe(404);
    expect(early.body.message).toBe('The file has not been uploaded');
    await fetch(String(ticket.body.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: '%PDF quote',
    });
    const link = await asOwner('GET', `/projects/${projectId}/documents/${documentId}/download`);
    expect(await (await fetch(String(link.body.downloadUrl))).text()).toBe('%PDF quote');
    expect((await asOwner('DELETE', `/projects/${projectId}/documents/${documentId}`)).status).toBe(200);
    expect((await asOwner('GET', `/projects/${projectId}`)).body.documents).toEqual([]);
  });

  it('is 404 to another company and to a user without the site, 403 to a reader changing it', async () => {
    for (const [method, path] of [
      ['GET', `/projects/${projectId}`],
      ['POST', `/projects/${projectId}/documents/upload`],
      ['PATCH', `/projects/${projectId}`],
      ['POST', `/projects/${projectId}/tasks`],
    ] as const) {
      const res = await asOutsider(method, path, { fileName: 'x.pdf', title: 'x', name: 'x' });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const other = await asOwner('POST', '/projects', { name: 'Elsewhere', assetId: r.assets.second });
    expect((await as(r.tokens.siteUser)('GET', `/projects/${other.body._id}`)).status).toBe(404);
    expect((await as(r.tokens.siteUser)('GET', `/projects/${projectId}`)).status).toBe(200);
    const reader = await as(r.tokens.reader)('POST', `/projects/${projectId}/documents/upload`, {
      fileName: 'x.pdf',
    });
    expect(reader.status).toBe(403);
  });
});

describe('recommendations', () => {
  let globalId: string;

  it('keeps company-wide recommendations that only company users change', async () => {
    const made = await asOwner('POST', '/recommendations', {
      title: 'Fit LED lighting',
      category: 'Lighting',
      estimatedSaving: 12000,
      priority: 'high',
    });
    expect(made.status).toBe(201);
    globalId = String(made.body._id);
    expect((await asOwner('GET', `/recommendations/global/${globalId}`)).body).toMatchObject({
      title: 'Fit LED lighting',
    });
    const bad = await asOwner('PATCH', `/recommendations/global/${globalId}`, { priority: 'urgent' });
    expect(bad.status).toBe(400);
    const changed = await asOwner('PATCH', `/recommendations/global/${globalId}`, { status: 'accepted' });
    expect(changed.body).toMatchObject({ status: 'accepted', priority: 'high' });
    expect((await asOutsider('GET', `/recommendations/global/${globalId}`)).status).toBe(404);
    expect((await as(r.tokens.siteUser)('GET', `/recommendations/global/${globalId}`)).status).toBe(404);
  });

  it('adds recommendations to a site, written out or copied from a global one', async () => {
    const bad = await asOwner('POST', `/assets/${r.assets.mine}/recommendations`, { estimatedCost: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.formMessages).toMatchObject({ title: 'This field is required' });
    const copied = await asOwner('POST', `/assets/${r.assets.mine}/recommendations`, {
      globalRecommendationId: globalId,
      estimatedCost: 8000,
    });
    expect(copied.status).toBe(201);
    expect(copied.body).toMatchObject({
      title: 'Fit LED lighting',
      assetId: r.assets.mine,
      estimatedCost: 8000,
      priority: 'high',
      status: 'open',
    });
    const own = await asOwner('POST', `/assets/${r.assets.mine}/recommendations`, { title: 'Insulate roof' });
    const list = await asOwner('GET', `/recommendations?assetId=${r.assets.mine}`);
    expect((list.body.data as { title: string }[]).map((x) => x.title).sort()).toEqual([
      'Fit LED lighting',
      'Insulate roof',
    ]);
    // A site's recommendation is not a global one, and is deleted only through its own site.
    expect((await asOwner('GET', `/recommendations/global/${own.body._id}`)).status).toBe(404);
    expect(
      (await asOwner('DELETE', `/assets/${r.assets.second}/recommendations/${own.body._id}`)).status,
    ).toBe(404);
    expect((await asOwner('DELETE', `/assets/${r.assets.mine}/recommendations/${own.body._id}`)).status).toBe(
      200,
    );
    expect((await asOwner('GET', `/recommendations?assetId=${r.assets.mine}`)).body.total).toBe(1);
    const foreign = await asOutsider('POST', `/assets/${r.assets.mine}/recommendations`, { title: 'x' });
    expect(foreign.status).toBe(404);
    expect((await asOwner('DELETE', `/recommendations/global/${globalId}`)).status).toBe(200);
    expect((await asOwner('GET', `/recommendations/global/${globalId}`)).status).toBe(404);
  });
});
