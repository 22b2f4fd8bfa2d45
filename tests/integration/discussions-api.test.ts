import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putItem } from '../../functions/core/data/item-repository.ts';
import { keys } from '../../functions/core/data/keys.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import type { TestRequest } from '../support/http-events.ts';
import { putObject, type RegisterFixture, startRegisterFixture } from './register-assets-support.ts';

let r: RegisterFixture;
let outbox: string;
const as = (token: string) => (method: string, path: string, body?: unknown) =>
  r.api({ method, path, token, body } satisfies TestRequest);
let owner: ReturnType<typeof as>;
let outsider: ReturnType<typeof as>;
let siteUser: ReturnType<typeof as>;
let reader: ReturnType<typeof as>;
let accountId: string;
let invoiceId: string;

const PDF = '%PDF-1.7 a meter photo report';

beforeAll(async () => {
  outbox = await mkdtemp(join(tmpdir(), 'voltfolio-discussions-'));
  process.env.OUTBOX_DIR = outbox;
  r = await startRegisterFixture();
  owner = as(r.tokens.owner);
  outsider = as(r.tokens.outsider);
  siteUser = as(r.tokens.siteUser);
  reader = as(r.tokens.reader);
  const settings = await owner('PATCH', `/companies/${r.demoId}`, {
    settings: { messageCategories: ['Billing query', 'Site access'] },
  });
  expect(settings.status).toBe(200);
  // A meter of the first site and a bill of it that failed validation.
  accountId = newId();
  invoiceId = newId();
  const now = new Date().toISOString();
  await putItem(
    { pk: keys.collection({ companyId: r.demoId }, 'accounts'), indexes: [], searchFields: [] },
    {
      _id: accountId,
      companyId: r.demoId,
      name: 'Main electricity',
      type: 'electricity',
      assetId: r.assets.mine,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    },
  );
  await putItem(
    { pk: keys.collection({ companyId: r.demoId }, 'invoice-validation'), indexes: [], searchFields: [] },
    {
      _id: invoiceId,
      companyId: r.demoId,
      invoiceId,
      accountId,
      status: 'failed',
      displayName: 'Bill INV-2041',
      results: [
        {
          key: 'consumption-spike',
          name: 'Consumption spike',
          status: 'failed',
          reason: 'Usage 84% above the last 12 months',
        },
        { key: 'vat-rate', name: 'VAT rate', status: 'passed', reason: 'VAT at 20%' },
      ],
      createdAt: now,
      updatedAt: now,
    },
  );
}, 90_000);
afterAll(async () => r?.stop());

describe('discussions on a site', () => {
  let threadId: string;
  let replyId: string;
  let attachmentId: string;

  it('lists those who may read the site as the people a thread may mention', async () => {
    const res = await owner('GET', `/messages/members?assetId=${r.assets.mine}`);
    expect(res.status).toBe(200);
    const subs = (res.body.data as { userSub: string }[]).map((m) => m.userSub).sort();
    expect(subs).toEqual(['owner', 'reader', 'site-user']);
    const second = await owner('GET', `/messages/members?assetId=${r.assets.second}`);
    expect((second.body.data as { userSub: string }[]).map((m) => m.userSub)).toEqual(['owner']);
    expect((await siteUser('GET', `/messages/members?assetId=${r.assets.second}`)).status).toBe(404);
  });

  it('starts a thread with a category of the company, refusing others and mentions of outsiders', async () => {
    const badCategory = await owner('POST', '/messages', {
      subject: 'Meter access',
      assetId: r.assets.mine,
      category: 'Gossip',
    });
    expect(badCategory.status).toBe(400);
    expect(badCategory.body.formMessages).toEqual({ category: 'Choose one of the message categories' });
    const badMention = await owner('POST', '/messages', {
      subject: 'Meter access',
      assetId: r.assets.second,
      mentions: ['site-user'],
    });
    expect(badMention.body.formMessages).toEqual({ mentions: 'Choose someone who may read this site' });
    const made = await reader('POST', '/messages', {
      subject: 'Meter cupboard locked',
      body: 'The cupboard is locked, @owner can you help?',
      category: 'Site access',
      assetId: r.assets.mine,
      accountIds: [accountId],
      mentions: ['owner'],
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      status: 'open',
      authorSub: 'reader',
      replyCount: 0,
      accountIds: [accountId],
    });
    threadId = String(made.body._id);
    const bell = await owner('GET', '/users/me/notifications');
    expect(JSON.stringify(bell.body)).toContain('mentioned you in \\"Meter cupboard locked\\"');
  });

  it('opens a thread from a failing bill with its failed checks quoted', async () => {
    const made = await owner('POST', '/messages', {
      subject: 'Why is this bill so high?',
      assetId: r.assets.mine,
      invoiceId,
    });
    expect(made.status).toBe(201);
    expect(made.body.body).toBe(
      '> Bill INV-2041 failed a check:\n> - Consumption spike (failed): Usage 84% above the last 12 months',
    );
    expect(made.body.accountIds).toEqual([accountId]);
    const elsewhere = await owner('POST', '/messages', { subject: 'x', assetId: r.assets.second, invoiceId });
    expect(elsewhere.body.formMessages).toEqual({ invoiceId: 'Choose a bill of this site' });
  });

  it('attaches a file checked by its bytes, downloadable by readers of the site only', async () => {
    const ticket = await siteUser('POST', '/messages/upload-attachment', {
      messageId: threadId,
      fileName: 'meter report.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    });
    expect(ticket.status).toBe(201);
    attachmentId = String(ticket.body.attachmentId);
    const key = String(ticket.body.key);
    const early = await siteUser('POST', `/messages/${threadId}/replies`, {
      body: 'Report attached',
      attachments: [{ attachmentId, key }],
    });
    expect(early.body.formMessages).toEqual({ attachments: 'The file has not been uploaded' });
    const put = await fetch(String(ticket.body.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: PDF,
    });
    expect(put.ok).toBe(true);
    const reply = await siteUser('POST', `/messages/${threadId}/replies`, {
      body: 'Report attached',
      attachments: [{ attachmentId, key }],
    });
    expect(reply.status).toBe(201);
    replyId = String(reply.body.replyId);
    expect(reply.body.attachments).toEqual([
      { attachmentId, fileName: 'meter-report.pdf', contentType: 'application/pdf', size: PDF.length },
    ]);
    const link = await reader(
      'GET',
      `/messages/${threadId}/replies/${replyId}/attachments/${attachmentId}/download`,
    );
    expect(link.status).toBe(200);
    expect(await (await fetch(String(link.body.downloadUrl))).text()).toBe(PDF);
  });

  it('adds files to the opening post, by its author alone, downloadable by readers of the site', async () => {
    const ticket = await reader('POST', '/messages/upload-attachment', {
      messageId: threadId,
      fileName: 'site plan.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    });
    expect(ticket.status).toBe(201);
    const ref = { attachmentId: String(ticket.body.attachmentId), key: String(ticket.body.key) };
    const put = await fetch(String(ticket.body.uploadUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: PDF,
    });
    expect(put.ok).toBe(true);
    // Someone else in the thread may reply with files, not add them to another's post.
    const notAuthor = await siteUser('POST', `/messages/${threadId}/attachments`, { attachments: [ref] });
    expect(notAuthor.status).toBe(403);
    const foreign = await outsider('POST', `/messages/${threadId}/attachments`, { attachments: [ref] });
    expect(foreign.status).toBe(404);
    const added = await reader('POST', `/messages/${threadId}/attachments`, { attachments: [ref] });
    expect(added.status).toBe(200);
    const opening = {
      attachmentId: ref.attachmentId,
      fileName: 'site-plan.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    };
    expect(added.body.attachments).toEqual([opening]);
    const shown = await siteUser('GET', `/messages/${threadId}`);
    expect(shown.body.attachments).toEqual([opening]);
    const path = `/messages/${threadId}/attachments/${ref.attachmentId}/download`;
    const link = await siteUser('GET', path);
    expect(link.status).toBe(200);
    expect(await (await fetch(String(link.body.downloadUrl))).text()).toBe(PDF);
    expect((await outsider('GET', path)).status).toBe(404);
  });

  it('lists and searches threads as their page reads them: files without storage keys, defaults filled', async () => {
    // A thread stored before its lists and count had defaults, with a file as posts keep them.
    const oldId = newId();
    const now = new Date().toISOString();
    const messages = {
      pk: keys.collection({ companyId: r.demoId }, 'messages'),
      indexes: ['assetId'],
      searchFields: ['subject'],
    };
    const old = { _id: oldId, companyId: r.demoId, subject: 'Old boiler thread', assetId: r.assets.mine };
    await putItem(messages, {
      ...old,
      status: 'open',
      attachments: [
        { attachmentId: 'a1', key: 'messages/old/a1', fileName: 'old.pdf', contentType: 'application/pdf' },
      ],
      createdBy: 'owner',
      createdAt: now,
      updatedAt: now,
    });
    const listed = await siteUser('GET', `/messages?assetId=${r.assets.mine}&$sort=-createdAt&limit=200`);
    expect(listed.status).toBe(200);
    const threads = listed.body.data as Record<string, unknown>[];
    const opened = threads.find((t) => t._id === threadId);
    expect(opened?.attachments).toEqual([
      {
        attachmentId: expect.any(String),
        fileName: 'site-plan.pdf',
        contentType: 'application/pdf',
        size: PDF.length,
      },
    ]);
    expect(threads.find((t) => t._id === oldId)).toMatchObject({
      accountIds: [],
      mentions: [],
      replyCount: 0,
      authorSub: 'owner',
      body: '',
      attachments: [{ attachmentId: 'a1', fileName: 'old.pdf', contentType: 'application/pdf', size: 0 }],
    });
    const found = await owner('GET', '/messages/search?query=old%20boiler');
    expect(found.status).toBe(200);
    expect(found.body.data).toEqual([expect.objectContaining({ _id: oldId, accountIds: [], replyCount: 0 })]);
    const replies = await siteUser('GET', `/messages/${threadId}/replies`);
    expect(replies.status).toBe(200);
    const reply = (replies.body.data as Record<string, unknown>[]).find((x) => x._id === replyId);
    expect(reply).toMatchObject({
      replyId,
      mentions: [],
      attachments: [expect.objectContaining({ size: PDF.length })],
    });
    const one = await siteUser('GET', `/messages/${threadId}/replies/${replyId}`);
    expect(one.body).toEqual(reply);
    expect(JSON.stringify([listed.body, found.body, replies.body, one.body])).not.toContain('"key"');
    // Taken out of the later tests' lists.
    await putItem(messages, { ...old, deleted: true, createdAt: now });
  });

  it('refuses a file that is not a PDF or picture whatever its name, and an upload of another thread', async () => {
    const ticket = await owner('POST', '/messages/upload-attachment', {
      messageId: threadId,
      fileName: 'invoice.pdf',
      size: 12,
    });
    await putObject(r.s3, String(ticket.body.key), 'MZ not a pdf', 'application/pdf');
    const refused = await owner('POST', `/messages/${threadId}/replies`, {
      body: 'x',
      attachments: [{ attachmentId: ticket.body.attachmentId, key: ticket.body.key }],
    });
    expect(refused.body.formMessages).toEqual({ attachments: 'Attach a PDF, PNG, JPEG or TIFF file' });
    const other = await owner('POST', '/messages', { subject: 'Other thread', assetId: r.assets.mine });
    const foreignTicket = await owner('POST', '/messages/upload-attachment', {
      messageId: other.body._id,
      fileName: 'a.pdf',
      size: PDF.length,
    });
    await putObject(r.s3, String(foreignTicket.body.key), PDF, 'application/pdf');
    const crossed = await owner('POST', `/messages/${threadId}/replies`, {
      body: 'x',
      attachments: [{ attachmentId: foreignTicket.body.attachmentId, key: foreignTicket.body.key }],
    });
    expect(crossed.body.formMessages).toEqual({ attachments: 'Attach a file uploaded to this discussion' });
  });

  it('lets authors alone edit and delete their replies', async () => {
    expect(
      (await owner('PATCH', `/messages/${threadId}/replies/${replyId}`, { body: 'Mine now' })).status,
    ).toBe(403);
    expect((await owner('DELETE', `/messages/${threadId}/replies/${replyId}`)).status).toBe(403);
    const edited = await siteUser('PATCH', `/messages/${threadId}/replies/${replyId}`, {
      body: 'Report attached (v2)',
    });
    expect(edited.body).toMatchObject({ body: 'Report attached (v2)', editedAt: expect.any(String) });
    const extra = await siteUser('POST', `/messages/${threadId}/replies`, { body: 'Sent twice, sorry' });
    expect((await siteUser('DELETE', `/messages/${threadId}/replies/${extra.body.replyId}`)).status).toBe(
      200,
    );
    const thread = await reader('GET', `/messages/${threadId}`);
    expect((thread.body.replies as { body: string }[]).map((x) => x.body)).toEqual(['Report attached (v2)']);
    expect(thread.body.replyCount).toBe(1);
  });

  it('assigns a member who may read the site, who is told in the bell and by e-mail', async () => {
    const refused = await owner('PUT', `/messages/${threadId}/assign-user`, { userSub: 'outsider' });
    expect(refused.body.formMessages).toEqual({ userSub: 'Choose someone who may read this site' });
    const assigned = await owner('PUT', `/messages/${threadId}/assign-user`, { userSub: 'site-user' });
    expect(assigned.status).toBe(200);
    expect(assigned.body.assignedUserSub).toBe('site-user');
    const bell = await siteUser('GET', '/users/me/notifications');
    expect(JSON.stringify(bell.body)).toContain('assigned you the discussion \\"Meter cupboard locked\\"');
    const mails = await Promise.all(
      (await readdir(outbox)).filter((f) => f.endsWith('.eml')).map((f) => readFile(join(outbox, f), 'utf8')),
    );
    expect(mails.some((m) => m.includes('To: asset@demo.test'))).toBe(true);
  });

  it('resolves and reopens a thread, filtered by state in the site list', async () => {
    const resolved = await siteUser('PATCH', `/messages/${threadId}`, { status: 'resolved' });
    expect(resolved.body).toMatchObject({ status: 'resolved', resolvedBy: 'site-user' });
    const open = await owner('GET', `/messages?assetId=${r.assets.mine}&status=open`);
    expect((open.body.data as { _id: string }[]).map((m) => m._id)).not.toContain(threadId);
    const done = await owner('GET', `/messages?assetId=${r.assets.mine}&status=resolved`);
    expect((done.body.data as { _id: string }[]).map((m) => m._id)).toEqual([threadId]);
    expect((await siteUser('PATCH', `/messages/${threadId}`, { subject: 'Renamed' })).status).toBe(403);
    const reopened = await reader('PATCH', `/messages/${threadId}`, { status: 'open' });
    expect(reopened.body.status).toBe('open');
    expect(reopened.body.resolvedAt).toBeUndefined();
  });

  it('is not found to another company and to a member without the site, in every call', async () => {
    const onSecond = await owner('POST', '/messages', { subject: 'Roof leak', assetId: r.assets.second });
    const secondId = String(onSecond.body._id);
    const attachmentPath = `/messages/${threadId}/replies/${replyId}/attachments/${attachmentId}/download`;
    const calls: [ReturnType<typeof as>, string, string, string, unknown][] = [
      [outsider, 'outsider', 'GET', `/messages/${threadId}`, undefined],
      [outsider, 'outsider', 'PATCH', `/messages/${threadId}`, { status: 'resolved' }],
      [outsider, 'outsider', 'PUT', `/messages/${threadId}/assign-user`, { userSub: 'outsider' }],
      [outsider, 'outsider', 'POST', `/messages/${threadId}/replies`, { body: 'hi' }],
      [outsider, 'outsider', 'PATCH', `/messages/${threadId}/replies/${replyId}`, { body: 'hi' }],
      [outsider, 'outsider', 'DELETE', `/messages/${threadId}/replies/${replyId}`, undefined],
      [outsider, 'outsider', 'GET', attachmentPath, undefined],
      [
        outsider,
        'outsider',
        'POST',
        '/messages/upload-attachment',
        { messageId: threadId, fileName: 'a.pdf', size: 3 },
      ],
      [outsider, 'outsider', 'POST', '/messages', { subject: 'x', assetId: r.assets.mine }],
      [outsider, 'outsider', 'GET', `/messages/members?assetId=${r.assets.mine}`, undefined],
      [siteUser, 'site user', 'GET', `/messages/${secondId}`, undefined],
      [siteUser, 'site user', 'POST', `/messages/${secondId}/replies`, { body: 'hi' }],
      [siteUser, 'site user', 'PATCH', `/messages/${secondId}`, { status: 'resolved' }],
      [
        siteUser,
        'site user',
        'POST',
        '/messages/upload-attachment',
        { messageId: secondId, fileName: 'a.pdf', size: 3 },
      ],
      [siteUser, 'site user', 'POST', '/messages', { subject: 'x', assetId: r.assets.second }],
    ];
    for (const [call, who, method, path, body] of calls) {
      expect((await call(method, path, body)).status, `${who}: ${method} ${path}`).toBe(404);
    }
    const seen = await siteUser('GET', '/messages');
    expect((seen.body.data as { _id: string }[]).map((m) => m._id)).not.toContain(secondId);
    const outsiders = await outsider('GET', '/messages');
    expect(outsiders.body.total).toBe(0);
    expect(
      (await outsider('POST', '/messages/bulk', [{ subject: 'x', assetId: r.assets.mine }])).status,
    ).toBe(405);
  });
});
