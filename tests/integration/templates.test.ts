import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TemplatePreview } from '../../shared/capture/extract.ts';
import type { Template } from '../../shared/capture/model.ts';
import { INVOICE_KEYS } from '../../shared/capture/model.ts';
import type { Block, TextractOutput } from '../../shared/capture/textract.ts';
import { createUser } from '../support/api-fixture.ts';
import { type Api, created, type RegisterWorld, startRegisterWorld } from './register-support.ts';

/** Textract's reading of a one-page sample: each line as a LINE of WORDs with their boxes. */
function textractOf(lines: { text: string; left: number; top: number }[]): TextractOutput {
  const blocks: Block[] = [];
  const lineIds: string[] = [];
  lines.forEach((line, i) => {
    const wordIds: string[] = [];
    let left = line.left;
    for (const [j, word] of line.text.split(' ').entries()) {
      const id = `w${i}-${j}`;
      const box = { Left: left, Top: line.top, Width: word.length * 0.01, Height: 0.012 };
      blocks.push({
        Id: id,
        BlockType: 'WORD',
        Page: 1,
        Text: word,
        Confidence: 99,
        Geometry: { BoundingBox: box },
      });
      wordIds.push(id);
      left += (word.length + 1) * 0.01;
    }
    const box = { Left: line.left, Top: line.top, Width: left - line.left, Height: 0.012 };
    blocks.push({
      Id: `l${i}`,
      BlockType: 'LINE',
      Page: 1,
      Text: line.text,
      Confidence: 99,
      Geometry: { BoundingBox: box },
      Relationships: [{ Type: 'CHILD', Ids: wordIds }],
    });
    lineIds.push(`l${i}`);
  });
  blocks.push({
    Id: 'c1',
    BlockType: 'CELL',
    Page: 1,
    RowIndex: 1,
    ColumnIndex: 2,
    Geometry: { BoundingBox: { Left: 0.5, Top: 0.5, Width: 0.2, Height: 0.05 } },
  });
  blocks.unshift({
    Id: 'p1',
    BlockType: 'PAGE',
    Page: 1,
    Geometry: { BoundingBox: { Left: 0, Top: 0, Width: 1, Height: 1 } },
    Relationships: [{ Type: 'CHILD', Ids: lineIds }],
  });
  return { document: { DocumentMetadata: { Pages: 1 }, Blocks: blocks } };
}

const analyses = vi.hoisted(() => ({ count: 0 }));

// Textract is an outside service: its reading of the sample is given here. The template's reading of
// that (the extraction engine) runs as it does in capture.
vi.mock('../../functions/suppliers/template-analysis.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../functions/suppliers/template-analysis.ts')>()),
  analyseSample: async () => {
    analyses.count++;
    return textractOf([
      { text: 'British Gas', left: 0.1, top: 0.04 },
      { text: 'Invoice number INV-2041', left: 0.1, top: 0.1 },
      { text: 'Total due £1,234.56', left: 0.1, top: 0.8 },
    ]);
  },
}));

let w: RegisterWorld;
let api: Api;
let staff: string;
let owner: string;
let supplierId: string;

const call = (method: string, path: string, body?: unknown, token = staff) =>
  api({ method, path, token, body });

async function newTemplate(type = 'electricity', supplier = supplierId): Promise<Template> {
  const res = await call('POST', '/templates', { supplierId: supplier, type, name: `Test ${type}` });
  expect(res.status).toBe(201);
  return res.body as unknown as Template;
}

async function samplePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('Invoice number INV-2041', { x: 60, y: 750, size: 12, font });
  page.drawText('Total due £1,234.56', { x: 60, y: 160, size: 12, font });
  return doc.save();
}

beforeAll(async () => {
  w = await startRegisterWorld({ s3: true });
  api = w.api;
  owner = w.token('owner');
  await createUser({ sub: 'staff', email: 'admin@voltfolio.test', companyIds: [w.demoId], isAdmin: true });
  staff = w.token('staff');
  supplierId = await created(api, staff, '/suppliers', {
    name: 'British Gas',
    utilityTypes: ['electricity', 'gas'],
  });
});

afterAll(async () => w?.stop());

describe('supplier templates', () => {
  it('creates a template that starts as preupload with a first version, and lists it by supplier and type', async () => {
    const t = await newTemplate('gas');
    expect(t.status).toBe('preupload');
    expect(t.versions.map((v) => v.name)).toEqual(['v1']);
    expect(t.bounds).toEqual([]);
    const list = await call('GET', `/templates?supplierId=${supplierId}&type=gas`);
    expect((list.body.data as Template[]).map((x) => x._id)).toEqual([t._id]);
    const none = await call('GET', `/templates?supplierId=${supplierId}&type=water`);
    expect(none.body.data).toEqual([]);
  });

  it('refuses a second template for the same supplier and utility, until the first is deleted', async () => {
    const t = await newTemplate('water');
    const again = await call('POST', '/templates', { supplierId, type: 'water' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('British Gas already has a water template');
    expect((await call('DELETE', `/templates/${t._id}`)).status).toBe(200);
    const replacement = await newTemplate('water');
    // The deleted one cannot come back while the replacement holds the supplier's water invoices.
    const restore = await call('PUT', `/templates/${t._id}`);
    expect(restore.status).toBe(409);
    expect((await call('DELETE', `/templates/${replacement._id}`)).status).toBe(200);
    expect((await call('PUT', `/templates/${t._id}`)).status).toBe(200);
    // Restoring a template that is not deleted changes nothing.
    const active = await call('PUT', `/templates/${t._id}`);
    expect(active.status).toBe(200);
    expect(active.body.deleted).toBeUndefined();
  });

  it('says which field is wrong when the supplier or utility is', async () => {
    const res = await call('POST', '/templates', { supplierId: '0123456789abcdef01234567', type: 'coal' });
    expect(res.status).toBe(400);
    expect(res.body.formMessages).toEqual({ type: expect.stringMatching(/electricity/) });
    const noSupplier = await call('POST', '/templates', {
      supplierId: '0123456789abcdef01234567',
      type: 'solar',
    });
    expect(noSupplier.status).toBe(400);
    expect(noSupplier.body.formMessages).toEqual({ supplierId: 'No such supplier' });
  });

  it('lists the invoice keys with names and types', async () => {
    const res = await call('GET', '/templates/invoice-keys');
    const data = res.body.data as { key: string; name: string; type: string }[];
    expect(data.map((k) => k.key)).toEqual([...INVOICE_KEYS]);
    expect(data.find((k) => k.key === 'grossTotal')).toEqual({
      key: 'grossTotal',
      name: 'Total',
      type: 'price',
    });
    expect(data.find((k) => k.key === 'dueDate')?.type).toBe('date');
  });

  it('refuses everyone but staff, even a company owner', async () => {
    const t = await newTemplate('heating');
    for (const [method, path] of [
      ['GET', '/templates'],
      ['GET', `/templates/${t._id}`],
      ['POST', '/templates'],
      ['PUT', `/templates/${t._id}/bounds`],
      ['POST', `/templates/${t._id}/values`],
      ['GET', '/templates/invoice-keys'],
      ['POST', `/templates/${t._id}/sample`],
    ] as const) {
      const res = await call(method, path, method === 'GET' ? undefined : [], owner);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it('replaces rules, bounds, values and rates, giving ids to new entries', async () => {
    const t = await newTemplate('electricity');
    const v1 = t.versions[0]?._id as string;
    const rules = await call('PUT', `/templates/${t._id}/supplier-rules`, [
      { type: 'contains', value: 'British Gas' },
      { type: 'regex', value: 'VAT\\s+reg', page: 1 },
    ]);
    expect(rules.status).toBe(200);
    const saved = rules.body as unknown as Template;
    expect(saved.supplierRules).toHaveLength(2);
    expect(saved.supplierRules.every((r) => typeof r._id === 'string' && r._id.length > 0)).toBe(true);

    const bounds = await call('PUT', `/templates/${t._id}/bounds`, [
      {
        _id: 'number',
        versionId: v1,
        name: 'Invoice number',
        page: 1,
        Left: 0.05,
        Top: 0.08,
        Width: 0.5,
        Height: 0.05,
      },
      { versionId: v1, name: 'Total', page: -1, Left: 0.05, Top: 0.78, Width: 0.6, Height: 0.05 },
      { versionId: v1, name: 'Charges', page: 1, Left: 0, Top: 0.3, Width: 1, Height: 0.4 },
    ]);
    expect(bounds.status).toBe(200);
    const withBounds = bounds.body as unknown as Template;
    expect(withBounds.bounds.map((b) => b._id)[0]).toBe('number');
    const totalId = withBounds.bounds[1]?._id as string;
    const chargesId = withBounds.bounds[2]?._id as string;

    const value = await call('POST', `/templates/${t._id}/values`, {
      versionId: v1,
      key: 'grossTotal',
      boundId: totalId,
      format: '£0,000.00',
    });
    expect(value.status).toBe(201);
    expect(value.body).toMatchObject({
      key: 'grossTotal',
      type: 'price',
      format: '£0,000.00',
      boundId: totalId,
    });
    const changed = await call('PATCH', `/templates/${t._id}/values/${value.body._id}`, {
      key: 'invoiceNumber',
      boundId: 'number',
      format: null,
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ key: 'invoiceNumber', type: 'text', boundId: 'number' });
    expect(changed.body.format).toBeUndefined();

    const rate = await call('POST', `/templates/${t._id}/rates`, {
      versionId: v1,
      boundId: chargesId,
      columns: [
        { field: 'description', left: 0, right: 0.5 },
        { field: 'amount', left: 0.8, right: 1, format: '£0,000.00' },
      ],
      skipRegex: '^Sub-?total',
    });
    expect(rate.status).toBe(201);
    const rateChange = await call('PATCH', `/templates/${t._id}/rates/${rate.body._id}`, {
      skipRegex: '^Total',
    });
    expect(rateChange.body.skipRegex).toBe('^Total');

    const stored = (await call('GET', `/templates/${t._id}`)).body as unknown as Template;
    expect(stored.values.map((v) => v.key)).toEqual(['invoiceNumber']);
    expect(stored.rates).toHaveLength(1);
    expect(stored.bounds).toHaveLength(3);

    const pages = await call('PUT', `/templates/${t._id}/pages`, [
      { versionId: v1, invoiceStartRule: { type: 'contains', value: 'Page 1 of' } },
    ]);
    expect((pages.body as unknown as Template).pages[0]?.invoiceStartRule?._id).toBeTruthy();

    const versions = await call('PUT', `/templates/${t._id}/versions`, [
      { _id: v1, name: 'v1' },
      { name: '2025 layout' },
    ]);
    const v2 = (versions.body as unknown as Template).versions[1]?._id as string;
    const versionRules = await call('PUT', `/templates/${t._id}/version-rules`, [
      { versionId: v2, type: 'contains', value: 'New look bill' },
    ]);
    expect(versionRules.status).toBe(200);

    expect((await call('DELETE', `/templates/${t._id}/rates/${rate.body._id}`)).status).toBe(200);
    expect((await call('DELETE', `/templates/${t._id}/values/${value.body._id}`)).status).toBe(200);
    const after = (await call('GET', `/templates/${t._id}`)).body as unknown as Template;
    expect(after.values).toEqual([]);
    expect(after.rates).toEqual([]);
    expect((await call('DELETE', `/templates/${t._id}/values/${value.body._id}`)).status).toBe(404);
  });

  it('refuses bad rules and bounds field by field', async () => {
    const t = await newTemplate('cooling');
    const badRegex = await call('PUT', `/templates/${t._id}/supplier-rules`, [
      { type: 'contains', value: 'fine' },
      { type: 'regex', value: 'Total (£' },
    ]);
    expect(badRegex.status).toBe(400);
    expect(badRegex.body.formMessages).toEqual({
      '1.value': expect.stringMatching(/^Not a valid regular expression/),
    });

    const v1 = t.versions[0]?._id as string;
    const offPage = await call('PUT', `/templates/${t._id}/bounds`, [
      { versionId: v1, name: 'Too wide', page: 1, Left: 0.6, Top: 0.1, Width: 0.5, Height: 0.1 },
      { versionId: v1, name: 'Negative', page: 0, Left: -0.1, Top: 0.1, Width: 0.2, Height: 0.1 },
    ]);
    expect(offPage.status).toBe(400);
    expect(offPage.body.formMessages).toMatchObject({
      '0.Width': 'The bound runs off the right of the page',
      '1.Left': 'Must be between 0 and 1',
      '1.page': 'Pages count from 1; -1 is the last page',
    });

    const noVersion = await call('PUT', `/templates/${t._id}/bounds`, [
      { versionId: 'nope', name: 'A', page: 1, Left: 0.1, Top: 0.1, Width: 0.2, Height: 0.1 },
    ]);
    expect(noVersion.body.formMessages).toEqual({ '0.versionId': 'Names no version of this template' });
    const rules = await call('PUT', `/templates/${t._id}/version-rules`, [
      { versionId: 'v9', type: 'contains', value: 'x' },
    ]);
    expect(rules.body.formMessages).toEqual({ '0.versionId': 'Names no version of this template' });
  });

  it('keeps values and bounds consistent: no value on a missing bound, no removing a bound in use', async () => {
    const t = await newTemplate('solar');
    const v1 = t.versions[0]?._id as string;
    const orphan = await call('POST', `/templates/${t._id}/values`, {
      versionId: v1,
      key: 'netTotal',
      boundId: 'missing',
    });
    expect(orphan.status).toBe(400);
    expect(orphan.body.formMessages).toEqual({ boundId: 'Names no bound of this template' });

    await call('PUT', `/templates/${t._id}/bounds`, [
      { _id: 'net', versionId: v1, name: 'Net', page: 1, Left: 0.1, Top: 0.7, Width: 0.3, Height: 0.05 },
    ]);
    const wrongFormat = await call('POST', `/templates/${t._id}/values`, {
      versionId: v1,
      key: 'netTotal',
      boundId: 'net',
      format: 'DD/MM/YYYY',
    });
    expect(wrongFormat.body.formMessages).toEqual({ format: expect.stringMatching(/^Not a price format/) });
    expect(
      (await call('POST', `/templates/${t._id}/values`, { versionId: v1, key: 'netTotal', boundId: 'net' }))
        .status,
    ).toBe(201);
    const twice = await call('POST', `/templates/${t._id}/values`, {
      versionId: v1,
      key: 'netTotal',
      boundId: 'net',
    });
    expect(twice.body.formMessages).toEqual({
      key: 'Net total is already read by another value of this version',
    });
    const gross = await call('POST', `/templates/${t._id}/values`, {
      versionId: v1,
      key: 'grossTotal',
      boundId: 'net',
    });
    // Both ways round: the clash is the edited value's, whichever of the two was added first.
    const clash = await call('PATCH', `/templates/${t._id}/values/${gross.body._id}`, { key: 'netTotal' });
    expect(clash.status).toBe(400);
    expect(clash.body.formMessages).toEqual({
      key: 'Net total is already read by another value of this version',
    });
    const net = (await call('GET', `/templates/${t._id}`)).body.values as { _id: string; key: string }[];
    const netId = net.find((v) => v.key === 'netTotal')?._id;
    const reverse = await call('PATCH', `/templates/${t._id}/values/${netId}`, { key: 'grossTotal' });
    expect(reverse.status).toBe(400);
    expect(reverse.body.formMessages).toEqual({
      key: 'Total is already read by another value of this version',
    });
    await call('DELETE', `/templates/${t._id}/values/${gross.body._id}`);

    const removal = await call('PUT', `/templates/${t._id}/bounds`, []);
    expect(removal.status).toBe(400);
    expect(removal.body.message).toBe(
      'The bound “Net” is still used by the value Net total: remove those first.',
    );
    const stored = (await call('GET', `/templates/${t._id}`)).body as unknown as Template;
    expect(stored.bounds.map((b) => b._id)).toEqual(['net']);

    const dropVersion = await call('PUT', `/templates/${t._id}/versions`, [{ name: 'other' }]);
    expect(dropVersion.status).toBe(400);
    expect(dropVersion.body.message).toMatch(/^The version “v1” still has 1 bound, 1 value/);
  });

  it('keeps every value added at the same moment, each read by its own key', async () => {
    const water = await created(api, staff, '/suppliers', { name: 'Anglian Water', utilityTypes: ['water'] });
    const t = await newTemplate('water', water);
    const v1 = t.versions[0]?._id as string;
    await call('PUT', `/templates/${t._id}/bounds`, [
      { _id: 'all', versionId: v1, name: 'All', page: 1, Left: 0.1, Top: 0.1, Width: 0.8, Height: 0.8 },
    ]);
    const keys = ['netTotal', 'grossTotal', 'vatTotal', 'invoiceNumber', 'invoiceDate', 'accountNumber'];
    const answers = await Promise.all(
      keys.map((key) => call('POST', `/templates/${t._id}/values`, { versionId: v1, key, boundId: 'all' })),
    );
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(201);
    const stored = (await call('GET', `/templates/${t._id}`)).body as unknown as Template;
    expect(stored.values.map((v) => v.key).sort()).toEqual([...keys].sort());
  });

  it('becomes ready only with a supplier rule and something to read', async () => {
    const t = await newTemplate('waste');
    const early = await call('PATCH', `/templates/${t._id}`, { status: 'ready' });
    expect(early.body.formMessages).toEqual({ status: 'Upload a sample invoice first' });
    const bounds = await call('PATCH', `/templates/${t._id}`, { bounds: [] });
    expect(bounds.status).toBe(400);
    expect(bounds.body.formMessages).toEqual({ bounds: 'Not changed here: each list has its own call' });
    const renamed = await call('PATCH', `/templates/${t._id}`, { name: 'Biffa waste' });
    expect(renamed.body.name).toBe('Biffa waste');
  });
});

describe('the template sample and its preview', () => {
  let t: Template;
  let jobId: string;
  let sampleSupplierId: string;

  it('uploads a sample PDF under template-samples/, and the template becomes uploaded', async () => {
    sampleSupplierId = await created(api, staff, '/suppliers', { name: 'Octopus Energy' });
    t = await newTemplate('electricity', sampleSupplierId);
    const samplePdfBytes = Buffer.from(await samplePdf());
    const start = await call('POST', `/templates/${t._id}/sample`, {
      fileName: 'British Gas bill.pdf',
      size: samplePdfBytes.length,
    });
    expect(start.status).toBe(200);
    const key = start.body.key as string;
    expect(key.startsWith(`template-samples/${t._id}/`)).toBe(true);
    expect(key.endsWith('/British-Gas-bill.pdf')).toBe(true);

    const notYet = await call('POST', `/templates/${t._id}/sample`, { key });
    expect(notYet.body.formMessages).toEqual({ key: 'The sample has not been uploaded yet' });

    const put = await fetch(start.body.uploadUrl as string, {
      method: 'PUT',
      headers: start.body.headers as Record<string, string>,
      body: samplePdfBytes,
    });
    expect(put.ok).toBe(true);
    const confirmed = await call('POST', `/templates/${t._id}/sample`, { key });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ status: 'uploaded', sampleKey: key });

    const elsewhere = await call('POST', `/templates/${t._id}/sample`, { key: 'invoices/x/y/z.pdf' });
    expect(elsewhere.status).toBe(400);

    const download = await call('GET', `/templates/${t._id}/sample`);
    const pdf = await fetch(download.body.url as string);
    expect(new TextDecoder().decode((await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
  });

  it('analyses the sample once and previews the template on it, pages and all', async () => {
    const start = await call('POST', `/templates/${t._id}/preview`);
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ status: 'succeeded', pageCount: 1 });
    jobId = start.body.jobId as string;
    const again = await call('POST', `/templates/${t._id}/preview`);
    expect(again.body.jobId).toBe(jobId);
    expect(analyses.count).toBe(1);

    const stored = (await call('GET', `/templates/${t._id}`)).body as unknown as Template;
    const v1 = stored.versions[0]?._id as string;
    const keep = stored.bounds.filter(
      (b) => stored.values.some((v) => v.boundId === b._id) || stored.rates.some((r) => r.boundId === b._id),
    );
    await call('PUT', `/templates/${t._id}/bounds`, [
      ...keep,
      { _id: 'drawn', versionId: v1, name: 'Drawn', page: 1, Left: 0.05, Top: 0.75, Width: 0.6, Height: 0.1 },
    ]);
    expect(
      (
        await call('POST', `/templates/${t._id}/values`, {
          versionId: v1,
          key: 'grossTotal',
          boundId: 'drawn',
        })
      ).status,
    ).toBe(201);

    await call('PUT', `/templates/${t._id}/supplier-rules`, [{ type: 'contains', value: 'British Gas' }]);
    const preview = await call(
      'GET',
      `/suppliers/${sampleSupplierId}/invoice-preview?templateId=${t._id}&jobId=${jobId}`,
    );
    expect(preview.status).toBe(200);
    const results = preview.body.results as TemplatePreview;
    expect(results.supplierMatched).toBe(true);
    expect(results.invoices[0]?.values.grossTotal).toMatchObject({ value: 1234.56 });
    expect(results.invoices[0]?.bounds.find((b) => b.boundId === 'drawn')?.text).toBe('Total due £1,234.56');
    const pages = preview.body.pages as {
      page: number;
      lines: { text: string }[];
      words: unknown[];
      cells: unknown[];
    }[];
    expect(pages).toHaveLength(1);
    expect(pages[0]?.lines.map((l) => l.text)).toEqual([
      'British Gas',
      'Invoice number INV-2041',
      'Total due £1,234.56',
    ]);
    expect(pages[0]?.words).toHaveLength(8);
    expect(pages[0]?.cells).toEqual([
      { row: 1, column: 2, box: { Left: 0.5, Top: 0.5, Width: 0.2, Height: 0.05 } },
    ]);
    expect(analyses.count).toBe(1);

    const otherSupplier = await call(
      'GET',
      `/suppliers/0123456789abcdef01234567/invoice-preview?jobId=${jobId}`,
    );
    expect(otherSupplier.status).toBe(404);
    const noJob = await call('GET', `/suppliers/${sampleSupplierId}/invoice-preview`);
    expect(noJob.status).toBe(400);
    expect(noJob.body.formMessages).toEqual({ jobId: 'This field is required' });
  });
});
