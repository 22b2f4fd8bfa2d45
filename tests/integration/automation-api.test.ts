import { mkdtempSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SQSEvent } from 'aws-lambda';
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putObject, s3 } from '../../functions/core/adapters/s3.ts';
import { bucketName } from '../../functions/core/config.ts';
import { declaredRef, putItem } from '../../functions/core/data/item-repository.ts';
import { newId } from '../../functions/core/lib/ids.ts';
import { createLogger } from '../../functions/core/lib/logger.ts';
import { processInboundEmail } from '../../functions/invoices/email-intake-service.ts';
import {
  type ConnectorFakes,
  connectorEnvironment,
  startConnectorFakes,
} from '../../infra/local/fakes/supplier-portal-server.ts';
import { mpanCheckDigit } from '../../shared/domain/mpan.ts';
import { toCsv } from '../../shared/files/csv.ts';
import { lambdaContext } from '../support/http-events.ts';
import { type InvoiceWorld, sqsEvent, startInvoiceWorld } from './invoices-support.ts';
import { created } from './register-support.ts';

/**
 * The automation calls of 02 §7, called as a browser would, with the scraper worker run on what they
 * queue: a folder-import run from a dropped file, and a portal-bills run against the fake portal.
 */
let w: InvoiceWorld;
let fakes: ConnectorFakes;
let owner: string;
let outsider: string;
let viewer: string;
let plainUser: string;
let supplierId: string;
let outbox: string;
const PASSWORD = 'Portal-Secret-77!';
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

const call = (method: string, path: string, token: string, body?: unknown) =>
  w.api({ method, path, token, body });

type Handler = (e: SQSEvent, c: ReturnType<typeof lambdaContext>) => Promise<unknown>;
async function runWorker(): Promise<void> {
  // The worker logs everything it would in AWS, so the checks below see what its logs would hold.
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'debug';
  const { handler } = (await import('../../functions/handlers/queue/scraper.ts')) as { handler: Handler };
  process.env.LOG_LEVEL = level;
  for (;;) {
    const bodies = await w.drain('scraper');
    if (bodies.length === 0) return;
    await handler(sqsEvent(bodies, 'scraper'), lambdaContext('scraper'));
  }
}

async function automation(body: Record<string, unknown>): Promise<string> {
  const res = await call('POST', '/automations', owner, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return String(res.body._id);
}

type Worker = (e: SQSEvent, c: ReturnType<typeof lambdaContext>) => Promise<unknown>;
/** The imports worker, on whatever the automation queued for it. */
async function runImportsWorker(): Promise<void> {
  const { handler } = (await import('../../functions/handlers/queue/imports.ts')) as { handler: Worker };
  for (;;) {
    const bodies = await w.drain('imports');
    if (bodies.length === 0) return;
    await handler(sqsEvent(bodies, 'imports'), lambdaContext('imports'));
  }
}

async function dropIntoFolder(id: string, fileName: string, contentType: string, bytes: Uint8Array) {
  const res = await call('POST', '/automation/upload-url', owner, {
    automationId: id,
    fileName,
    contentType,
    size: bytes.byteLength,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const put = await fetch(String(res.body.url), {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: Buffer.from(bytes),
  });
  expect(put.status).toBe(200);
}

beforeAll(async () => {
  outbox = mkdtempSync(join(tmpdir(), 'automation-outbox-'));
  process.env.OUTBOX_DIR = outbox;
  process.env.PORTAL_SECRET_KEY_FILE = join(mkdtempSync(join(tmpdir(), 'automation-key-')), 'key');
  w = await startInvoiceWorld();
  fakes = await startConnectorFakes();
  Object.assign(process.env, connectorEnvironment(fakes.url));
  owner = w.token('owner');
  outsider = w.token('outsider');
  viewer = await w.addUser('integrations-viewer', ['view_integrations']);
  plainUser = await w.addUser('plain-user', ['company_user']);
  supplierId = newId();
  await putItem(declaredRef('suppliers', {}), {
    _id: supplierId,
    name: 'British Gas Business',
    scraperEnabled: true,
  });
  fakes.addPortalAccount('british-gas-business', {
    username: 'demo-login',
    password: PASSWORD,
    bills: [
      {
        id: 'b1',
        invoiceNumber: 'BGB-A1',
        issuedOn: '2026-10-01',
        accountNumber: '100200',
        amount: 123.45,
        pdf: async () => PDF,
      },
    ],
  });
}, 120_000);

afterAll(async () => {
  await fakes?.stop();
  await w?.stop();
});

describe('automation templates and error codes', () => {
  it('lists the templates to company admins and those who may view integrations', async () => {
    const res = await call('GET', '/automation/templates', viewer);
    expect(res.status).toBe(200);
    const ids = (res.body.data as { _id: string }[]).map((t) => t._id);
    expect(ids).toEqual(['portal-bills', 'meter-data', 'folder-import', 'data-request']);
    expect((await call('GET', '/automation/templates', plainUser)).status).toBe(403);
  });

  it('answers the error codes with a message for each', async () => {
    const res = await call('GET', '/automation-runs/error-codes', owner);
    expect(res.status).toBe(200);
    const map = res.body.errorCodeMap as Record<string, string>;
    expect(res.body.codes).toEqual(Object.keys(map));
    expect(map['wrong-password']).toBe(
      'The portal refused the stored password. Set it again on the connectors page.',
    );
    expect(map['no-file']).toBe('No file has been dropped into the automation folder.');
  });
});

describe('a folder-import automation', () => {
  let id: string;
  beforeAll(async () => {
    id = await automation({ name: 'Bills folder', templateId: 'folder-import' });
  });

  it('will not run before a file is dropped', async () => {
    const res = await call('POST', `/automation/${id}/run`, owner);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('No file has been dropped into the automation folder.');
  });

  it('hands out an upload URL for its folder, refusing what capture cannot read', async () => {
    const bad = await call('POST', '/automation/upload-url', owner, {
      automationId: id,
      fileName: 'bill.docx',
      contentType: 'application/msword',
      size: 100,
    });
    expect(bad.status).toBe(400);
    const res = await call('POST', '/automation/upload-url', owner, {
      automationId: id,
      fileName: 'October bill.pdf',
      contentType: 'application/pdf',
      size: PDF.byteLength,
    });
    expect(res.status).toBe(201);
    expect(res.body.fileName).toBe('October-bill.pdf');
    const put = await fetch(String(res.body.url), {
      method: 'PUT',
      headers: { 'content-type': 'application/pdf' },
      body: PDF,
    });
    expect(put.status).toBe(200);
  });

  it('runs through the queue: the dropped bill goes to capture and is the run attachment', async () => {
    const started = await call('POST', `/automation/${id}/run`, owner);
    expect(started.status).toBe(201);
    expect(started.body.status).toBe('pending');
    const runId = String(started.body._id);
    await runWorker();
    const run = (await call('GET', `/automation-runs/${runId}`, owner)).body;
    expect(run).toMatchObject({ status: 'succeeded', counts: { fetched: 1 }, attempts: 1 });
    const invoices = (await call('GET', `/invoices?batchId=${runId}`, owner)).body.data as unknown[];
    expect(invoices).toHaveLength(1);
    const file = await call('GET', `/automation-runs/${runId}/attachment`, owner);
    expect(file.status).toBe(200);
    expect(file.body.fileName).toBe('October-bill.pdf');
    const bytes = new Uint8Array(await (await fetch(String(file.body.url))).arrayBuffer());
    expect(new TextDecoder().decode(bytes)).toContain('%PDF-1.4');
    const listed = (await call('GET', `/automation-runs?automationId=${id}`, owner)).body.data as {
      _id: string;
    }[];
    expect(listed.map((r) => r._id)).toEqual([runId]);
    const after = (await call('GET', `/automations/${id}`, owner)).body;
    expect(after).toMatchObject({ lastRunId: runId, lastRunStatus: 'succeeded' });
  });

  it('refuses writes to its runs, which only the worker writes', async () => {
    const [run] = (await call('GET', `/automation-runs?automationId=${id}`, owner)).body.data as {
      _id: string;
    }[];
    expect((await call('PATCH', `/automation-runs/${run?._id}`, owner, { status: 'failed' })).status).toBe(
      405,
    );
    expect((await call('POST', '/automation-runs', owner, { automationId: id })).status).toBe(405);
  });
});

describe('a portal-bills automation', () => {
  let id: string;
  beforeAll(async () => {
    id = await automation({ name: 'British Gas bills', templateId: 'portal-bills', supplierId });
  });

  it('will not run while the company has no login at the portal', async () => {
    const res = await call('POST', `/automation/${id}/run`, owner);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('There is no portal login for this supplier.');
    expect((await call('GET', `/automation-runs?automationId=${id}`, owner)).body.data).toEqual([]);
  });

  it('runs the connector and ends with its counts and a summary attachment', async () => {
    const login = await call('PATCH', `/companies/${w.demoId}/supplier-portals/${supplierId}`, owner, {
      username: 'demo-login',
      password: PASSWORD,
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    const started = await call('POST', `/automation/${id}/run`, owner);
    expect(started.status).toBe(201);
    expect(JSON.stringify(started.body)).not.toContain(PASSWORD);
    const logged: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      logged.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stdout.write;
    try {
      await runWorker();
    } finally {
      process.stdout.write = write;
    }
    expect(logged.join('')).toContain('connector run done');
    expect(logged.join('')).not.toContain(PASSWORD);
    const run = (await call('GET', `/automation-runs/${started.body._id}`, owner)).body;
    expect(run).toMatchObject({ status: 'succeeded', counts: { listed: 1, fetched: 1 } });
    expect(run.scraperRunId).toEqual(expect.any(String));
    const file = await call('GET', `/automation-runs/${started.body._id}/attachment`, owner);
    const csv = await (await fetch(String(file.body.url))).text();
    expect(csv).toContain('"Fetched","1"');
    expect(csv).not.toContain(PASSWORD);
  });

  it('fails with the wrong-password code and tells its owner when the portal refuses the password', async () => {
    fakes.addPortalAccount('british-gas-business', {
      username: 'demo-login',
      password: 'changed',
      bills: [],
    });
    const started = await call('POST', `/automation/${id}/run`, owner);
    expect(started.status).toBe(201);
    await runWorker();
    const run = (await call('GET', `/automation-runs/${started.body._id}`, owner)).body;
    expect(run).toMatchObject({
      status: 'failed',
      errorCode: 'wrong-password',
      error: 'The portal refused the stored password. Set it again on the connectors page.',
    });
    const notes = (await call('GET', '/notifications', owner)).body.data as { content: string }[];
    expect(notes.some((n) => n.content.startsWith('The automation "British Gas bills" failed'))).toBe(true);
  });
  it('forgets the portal login and its password once the login is removed, and will not run again', async () => {
    const { portalPasswordHeld } = await import('../../functions/automation/index.ts');
    expect(await portalPasswordHeld(w.demoId, supplierId)).toBeTruthy();
    const path = `/companies/${w.demoId}/supplier-portals/${supplierId}`;
    const removed = await call('DELETE', path, owner);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(JSON.stringify(removed.body)).not.toContain(supplierId);
    expect(await portalPasswordHeld(w.demoId, supplierId)).toBeUndefined();
    expect((await call('DELETE', path, owner)).status).toBe(404);
    const res = await call('POST', `/automation/${id}/run`, owner);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('There is no portal login for this supplier.');
  });
});

describe('a meter-data automation', () => {
  it('fetches half-hourly data for the meter whose serial was set on the meter form', async () => {
    const octopusId = newId();
    await putItem(declaredRef('suppliers', {}), {
      _id: octopusId,
      name: 'Octopus Energy for Business',
      scraperEnabled: true,
    });
    const entityId = await created(w.api, owner, '/entities', { legalName: 'Smart Ltd' });
    const assetId = await created(w.api, owner, '/assets', { siteName: 'Smart House', entityId });
    const accountId = await created(w.api, owner, '/accounts', {
      type: 'electricity',
      assetId,
      supplierId: octopusId,
      meterPointNumber: '1312345678907',
    });
    const edit = await call('PATCH', `/accounts/${accountId}`, owner, { meterSerialNumber: '21E9999999' });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await call('GET', `/accounts/${accountId}`, owner)).body.meterSerialNumber).toBe('21E9999999');
    const today = new Date().toISOString().slice(0, 10);
    fakes.addMeter('sk_test_key', {
      mpan: '1312345678907',
      serial: '21E9999999',
      from: new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10),
      to: today,
      profile: () => Array.from({ length: 48 }, () => 0.5),
    });
    const login = await call('PATCH', `/companies/${w.demoId}/supplier-portals/${octopusId}`, owner, {
      username: 'api',
      password: 'sk_test_key',
    });
    expect(login.status).toBe(200);
    const id = await automation({ name: 'Smart meters', templateId: 'meter-data', supplierId: octopusId });
    const started = await call('POST', `/automation/${id}/run`, owner);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await runWorker();
    const run = (await call('GET', `/automation-runs/${started.body._id}`, owner)).body;
    expect(run).toMatchObject({ status: 'succeeded', counts: { listed: 1, failed: 0 } });
    const file = await call('GET', `/automation-runs/${started.body._id}/attachment`, owner);
    const csv = await (await fetch(String(file.body.url))).text();
    expect(csv).toMatch(/"Half-hourly intervals","(9[0-9]|1[0-9]{2})"/);
  });

  it('refuses a portal-bills automation on a supplier whose connector fetches meter data', async () => {
    const [octopus] = (
      (await call('GET', '/automations', owner)).body.data as {
        templateId: string;
        supplierId?: string;
      }[]
    ).filter((a) => a.templateId === 'meter-data');
    const id = await automation({
      name: 'Wrong kind',
      templateId: 'portal-bills',
      supplierId: octopus?.supplierId,
    });
    const res = await call('POST', `/automation/${id}/run`, owner);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("This supplier's connector fetches no bills.");
  });
});

describe('a spreadsheet dropped into a folder-import automation', () => {
  it('goes to the imports worker, not to capture, while a PDF in the same folder goes to capture', async () => {
    const entityId = await created(w.api, owner, '/entities', { legalName: 'Folder Estates Ltd' });
    const id = await automation({ name: 'Sites folder', templateId: 'folder-import', importType: 'sites' });
    const csv = toCsv([
      ['Site name', 'Entity', 'Asset type', 'Street address', 'Postcode'],
      ['Folder House', 'Folder Estates Ltd', 'Office', '1 Folder Street', 'EC2R 6AR'],
      ['Folder Yard', 'Folder Estates Ltd', 'Industrial', '2 Folder Street', 'EC2V 6AA'],
    ]);
    await dropIntoFolder(id, 'new sites.csv', 'text/csv', new TextEncoder().encode(csv));
    const started = await call('POST', `/automation/${id}/run`, owner);
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await runWorker();
    const run = (await call('GET', `/automation-runs/${started.body._id}`, owner)).body;
    expect(run).toMatchObject({ status: 'succeeded', counts: { fetched: 1 } });
    expect(run.importId).toEqual(expect.any(String));
    // Nothing went to capture: the run's batch has no bill.
    expect((await call('GET', `/invoices?batchId=${run._id}`, owner)).body.data).toEqual([]);
    expect((await call('GET', `/imports/${run.importId}`, owner)).body.status).toBe('processing');
    await runImportsWorker();
    const done = (await call('GET', `/imports/${run.importId}`, owner)).body;
    expect(done).toMatchObject({ status: 'completed', type: 'sites', results: { create: 2, error: 0 } });
    const sites = (await call('GET', '/assets?$limit=200', owner)).body.data as {
      siteName: string;
      entityId: string;
    }[];
    expect(
      sites.filter((s) => s.siteName.startsWith('Folder ')).map((s) => [s.siteName, s.entityId]),
    ).toEqual(
      expect.arrayContaining([
        ['Folder House', entityId],
        ['Folder Yard', entityId],
      ]),
    );

    await dropIntoFolder(id, 'November bill.pdf', 'application/pdf', PDF);
    const billRun = await call('POST', `/automation/${id}/run`, owner);
    await runWorker();
    const billDone = (await call('GET', `/automation-runs/${billRun.body._id}`, owner)).body;
    expect(billDone.status).toBe('succeeded');
    expect(billDone.importId).toBeUndefined();
    const invoices = (await call('GET', `/invoices?batchId=${billRun.body._id}`, owner)).body.data as {
      fileName?: string;
    }[];
    expect(invoices.map((i) => i.fileName)).toEqual(['November-bill.pdf']);
  });

  it('fails the run, reading nothing, when the file stored in the folder is over the limit', async () => {
    const id = await automation({ name: 'Big folder', templateId: 'folder-import' });
    const ticket = await call('POST', '/automation/upload-url', owner, {
      automationId: id,
      fileName: 'huge.pdf',
      contentType: 'application/pdf',
      size: 1000,
    });
    expect(ticket.status).toBe(201);
    // Put there around the signed URL, which takes 1,000 bytes only: two parts, as the emulator takes
    // at most 10 MB in one request.
    const { lib, client } = await s3();
    const target = { Bucket: bucketName('uploads'), Key: String(ticket.body.key) };
    const { UploadId } = await client.send(new lib.CreateMultipartUploadCommand(target));
    const first = new Uint8Array(10 * 1024 * 1024);
    first.set(PDF);
    const parts = [];
    for (const [n, body] of [first, new Uint8Array(10 * 1024 * 1024 + 1)].entries()) {
      const part = await client.send(
        new lib.UploadPartCommand({ ...target, UploadId, PartNumber: n + 1, Body: body }),
      );
      parts.push({ ETag: part.ETag, PartNumber: n + 1 });
    }
    await client.send(
      new lib.CompleteMultipartUploadCommand({ ...target, UploadId, MultipartUpload: { Parts: parts } }),
    );
    const started = await call('POST', `/automation/${id}/run`, owner);
    await runWorker();
    const run = (await call('GET', `/automation-runs/${started.body._id}`, owner)).body;
    expect(run).toMatchObject({ status: 'failed', errorCode: 'file-too-large' });
    expect((await call('GET', `/invoices?batchId=${started.body._id}`, owner)).body.data).toEqual([]);
  });

  it('fails the run with its code when the spreadsheet cannot be matched to an import', async () => {
    const id = await automation({ name: 'Odd folder', templateId: 'folder-import', importType: 'sites' });
    await dropIntoFolder(id, 'odd.csv', 'text/csv', new TextEncoder().encode('colour,shape\nred,round\n'));
    const started = await call('POST', `/automation/${id}/run`, owner);
    await runWorker();
    const run = (await call('GET', `/automation-runs/${started.body._id}`, owner)).body;
    expect(run).toMatchObject({ status: 'failed', errorCode: 'file-unreadable' });
    expect(await w.drain('imports')).toEqual([]);
  });
});

describe('a data-request automation', () => {
  const INBOX = 'bills-demo@inbox.voltfolio.test';
  const HARBOUR_MPAN = `140000000012${mpanCheckDigit('140000000012')}`;
  let id: string;
  let assetId: string;

  beforeAll(async () => {
    const entityId = await created(w.api, owner, '/entities', { legalName: 'Request Estates Ltd' });
    assetId = await created(w.api, owner, '/assets', {
      siteName: 'Harbour Works',
      entityId,
      address: { streetAddress: '4 Dock Road', postCode: 'L3 4AF' },
    });
    const accountId = await created(w.api, owner, '/accounts', {
      type: 'electricity',
      assetId,
      name: 'Harbour incomer',
      meterPointNumber: HARBOUR_MPAN,
    });
    await call('PATCH', `/accounts/${accountId}`, owner, { meterSerialNumber: 'K05A123456' });
    id = await automation({
      name: 'Harbour readings',
      templateId: 'data-request',
      contactEmail: 'Site.Manager@harbour.example',
      contactName: 'Sam',
      assetId,
      requestKind: 'readings',
      schedule: 'monthly',
    });
  });

  it('is refused with no contact, and fails its run while the company has no bill inbox', async () => {
    const bare = await automation({ name: 'Nobody to ask', templateId: 'data-request' });
    const refused = await call('POST', `/automation/${bare}/run`, owner);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('This automation names no contact to e-mail.');
    const started = await call('POST', `/automation/${id}/run`, owner);
    expect(started.status).toBe(201);
    await runWorker();
    const run = (await call('GET', `/automation-runs/${started.body._id}`, owner)).body;
    expect(run).toMatchObject({ status: 'failed', errorCode: 'no-reply-address' });
  });

  it("e-mails the contact naming the site and its meters, replying to the company's bill inbox", async () => {
    const settings = (await call('GET', `/companies/${w.demoId}`, owner)).body.settings ?? {};
    const set = await call('PATCH', `/companies/${w.demoId}`, owner, {
      settings: { ...(settings as object), invoiceCaptureEmail: INBOX },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const before = new Set(await readdir(outbox));
    const started = await call('POST', `/automation/${id}/run`, owner);
    await runWorker();
    const run = (await call('GET', `/automation-runs/${started.body._id}`, owner)).body;
    expect(run).toMatchObject({ status: 'succeeded' });
    const sent = (await readdir(outbox)).filter((f) => f.endsWith('.eml') && !before.has(f));
    expect(sent).toHaveLength(1);
    const mail = await simpleParser(await readFile(join(outbox, sent[0] as string)));
    expect(mail.to && 'text' in mail.to ? mail.to.text : '').toBe('site.manager@harbour.example');
    expect(mail.replyTo?.value[0]?.address).toBe(INBOX);
    expect(mail.subject).toBe('Meter readings requested: Harbour Works');
    expect(mail.text).toContain('Hello Sam,');
    expect(mail.text).toContain('Harbour Works (4 Dock Road, L3 4AF)');
    expect(mail.text).toContain(`Harbour incomer: meter point ${HARBOUR_MPAN}, serial K05A123456`);
    const file = await call('GET', `/automation-runs/${run._id}/attachment`, owner);
    expect(await (await fetch(String(file.body.url))).text()).toContain(`Reply-To: ${INBOX}`);
  });

  it('takes the reply, with its bill attached, into capture through the bill inbox', async () => {
    const reply = await new MailComposer({
      from: 'site.manager@harbour.example',
      to: INBOX,
      subject: 'Re: Meter readings requested: Harbour Works',
      text: 'Here is the bill.',
      attachments: [{ filename: 'harbour-bill.pdf', content: Buffer.from(PDF) }],
    })
      .compile()
      .build();
    const key = `mail/test/${newId()}.eml`;
    await putObject(bucketName('uploads'), key, reply, 'message/rfc822');
    const [result] = await processInboundEmail(
      { bucket: bucketName('uploads'), key, recipients: [INBOX] },
      createLogger({ service: 'test' }),
    );
    expect(result).toMatchObject({ status: 'accepted', companyId: w.demoId });
    const invoices = (await call('GET', '/invoices?limit=100', owner)).body.data as { fileName?: string }[];
    expect(invoices.some((i) => i.fileName === 'harbour-bill.pdf')).toBe(true);
  });
});

describe('another company', () => {
  it('finds none of these automations or runs', async () => {
    const [theirs] = (await call('GET', '/automations', owner)).body.data as { _id: string }[];
    const [run] = (await call('GET', '/automation-runs', owner)).body.data as { _id: string }[];
    expect(theirs && run).toBeTruthy();
    expect((await call('POST', `/automation/${theirs?._id}/run`, outsider)).status).toBe(404);
    expect((await call('GET', `/automations/${theirs?._id}`, outsider)).status).toBe(404);
    expect((await call('GET', `/automation-runs/${run?._id}`, outsider)).status).toBe(404);
    expect((await call('GET', `/automation-runs/${run?._id}/attachment`, outsider)).status).toBe(404);
    const upload = await call('POST', '/automation/upload-url', outsider, {
      automationId: theirs?._id,
      fileName: 'x.pdf',
      contentType: 'application/pdf',
      size: 100,
    });
    expect(upload.status).toBe(404);
    expect((await call('GET', '/automation-runs', outsider)).body.data).toEqual([]);
  });
});
