import { PutObjectCommand } from '@aws-sdk/client-s3';
import {
  AnalyzeDocumentCommand,
  AnalyzeExpenseCommand,
  type Block,
  DetectDocumentTextCommand,
  type ExpenseField,
  GetDocumentAnalysisCommand,
  type GetDocumentAnalysisCommandOutput,
  GetExpenseAnalysisCommand,
  StartDocumentAnalysisCommand,
  StartExpenseAnalysisCommand,
  TextractClient,
} from '@aws-sdk/client-textract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseDocument, isDocumentProblem } from '../../functions/core/adapters/textract.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';
import {
  type Drawn,
  encryptPdf,
  imageOnlyPdf,
  invoicePdf,
  scanPng,
  twoPagePdf,
  wordIn,
} from './textract-documents.ts';

let local: LocalStackHandle;
let textract: TextractClient;
let bucket: string;
let invoice: Awaited<ReturnType<typeof invoicePdf>>;
let twoPages: Uint8Array;
let scan: ReturnType<typeof scanPng>;
let scanPdf: Uint8Array;
let encrypted: Uint8Array;

const put = async (key: string, body: Uint8Array) => {
  await local.stack.messaging.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
  return { S3Object: { Bucket: bucket, Name: key } };
};

beforeAll(async () => {
  local = await startLocalStack({ pollers: false });
  bucket = local.env.BUCKET_UPLOADS as string;
  textract = new TextractClient({
    region: local.env.AWS_REGION,
    endpoint: local.env.AWS_ENDPOINT_URL_TEXTRACT,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  invoice = await invoicePdf();
  twoPages = await twoPagePdf();
  scan = scanPng([
    { text: 'Northern Power Ltd', x: 100, y: 150, size: 40 },
    { text: 'Invoice number: INV456', x: 100, y: 260, size: 26 },
    { text: 'Total amount due: 842.10', x: 100, y: 320, size: 26 },
  ]);
  scanPdf = await imageOnlyPdf(scan.png);
  encrypted = await encryptPdf(invoice.bytes, 'secret');
});
afterAll(async () => {
  textract?.destroy();
  await local?.stop();
});

const byId = (blocks: readonly Block[]) => new Map(blocks.map((b) => [b.Id, b]));
const children = (block: Block | undefined, index: Map<string | undefined, Block>, type = 'CHILD') =>
  (block?.Relationships?.find((r) => r.Type === type)?.Ids ?? []).map((id) => index.get(id));
const field = (fields: readonly ExpenseField[] | undefined, type: string) =>
  fields?.find((f) => f.Type?.Text === type);

function expectAt(block: Block | undefined, drawn: Drawn, tolerance: number) {
  const box = block?.Geometry?.BoundingBox;
  expect(block?.Text).toBe(drawn.text);
  expect(Math.abs((box?.Left ?? 0) - drawn.left)).toBeLessThan(tolerance);
  expect(Math.abs((box?.Top ?? 0) - drawn.top)).toBeLessThan(tolerance);
  expect(Math.abs((box?.Width ?? 0) - drawn.width)).toBeLessThan(tolerance);
  expect(Math.abs((box?.Height ?? 0) - drawn.height)).toBeLessThan(tolerance);
}

describe('the local Textract', () => {
  it('runs with the stack, and the functions are pointed at it', () => {
    expect(local.env.AWS_ENDPOINT_URL_TEXTRACT).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(local.stack.components.get('textract')).toEqual({
      status: 'up',
      detail: local.env.AWS_ENDPOINT_URL_TEXTRACT,
    });
  });

  it('reads the words and lines of a digital PDF where they are drawn', async () => {
    const out = await textract.send(new DetectDocumentTextCommand({ Document: { Bytes: invoice.bytes } }));
    expect(out.DocumentMetadata?.Pages).toBe(1);
    expect(out.DetectDocumentTextModelVersion).not.toMatch(/ocr/);
    const blocks = out.Blocks ?? [];
    const index = byId(blocks);
    const page = blocks.find((b) => b.BlockType === 'PAGE');
    const lines = children(page, index);
    expect(lines.map((l) => l?.Text)).toContain('Invoice number: INV123');
    expect(lines.map((l) => l?.Text)).toContain('Total amount due: £331.28');
    // Table columns are apart, so they are lines of their own, as Textract reads them.
    expect(lines.map((l) => l?.Text)).toContain('Electricity day rate');

    const line = lines.find((l) => l?.Text === 'Invoice number: INV123');
    const words = children(line, index);
    expect(words.map((w) => w?.Text)).toEqual(['Invoice', 'number:', 'INV123']);
    expect(words.every((w) => w?.BlockType === 'WORD' && w.Page === 1 && (w.Confidence ?? 0) > 90)).toBe(
      true,
    );
    expectAt(words[2], wordIn(invoice.invoiceLine, 'INV123', invoice.font, 11), 0.004);
    expectAt(words[0], wordIn(invoice.invoiceLine, 'Invoice', invoice.font, 11), 0.004);
    const polygon = words[2]?.Geometry?.Polygon ?? [];
    const box = words[2]?.Geometry?.BoundingBox;
    expect(polygon).toHaveLength(4);
    expect(polygon[0]?.X).toBeCloseTo(box?.Left ?? -1, 5);
    expect(polygon[2]?.Y).toBeCloseTo((box?.Top ?? 0) + (box?.Height ?? 0), 5);
  });

  it('finds the table of charges and the labelled fields', async () => {
    const out = await textract.send(
      new AnalyzeDocumentCommand({ Document: { Bytes: invoice.bytes }, FeatureTypes: ['TABLES', 'FORMS'] }),
    );
    const blocks = out.Blocks ?? [];
    const index = byId(blocks);
    const tables = blocks.filter((b) => b.BlockType === 'TABLE');
    expect(tables).toHaveLength(1);
    const cells = children(tables[0], index);
    expect(cells).toHaveLength(12);
    const grid = invoice.tableRows.map((row, r) =>
      row.map((_, c) => {
        const cell = cells.find((x) => x?.RowIndex === r + 1 && x.ColumnIndex === c + 1);
        return children(cell, index)
          .map((w) => w?.Text)
          .join(' ');
      }),
    );
    expect(grid).toEqual(invoice.tableRows);
    const header = cells.filter((c) => c?.EntityTypes?.includes('COLUMN_HEADER'));
    expect(header.map((c) => c?.ColumnIndex)).toEqual([1, 2, 3, 4]);
    // The table's cells tile it, from the first column's left edge.
    expect(tables[0]?.Geometry?.BoundingBox?.Left).toBeCloseTo(50 / 595.28, 3);

    const keys = blocks.filter((b) => b.BlockType === 'KEY_VALUE_SET' && b.EntityTypes?.includes('KEY'));
    const pairs = Object.fromEntries(
      keys.map((key) => [
        children(key, index)
          .map((w) => w?.Text)
          .join(' '),
        children(children(key, index, 'VALUE')[0], index)
          .map((w) => w?.Text)
          .join(' '),
      ]),
    );
    expect(pairs).toMatchObject({
      'Invoice number:': 'INV123',
      'Invoice date:': '12/03/2024',
      'Bill to:': 'Jane Smith 1 High Street Leeds LS1 1AA',
      'Total amount due:': '£331.28',
    });
  });

  it('reads the invoice fields and its line items', async () => {
    const out = await textract.send(new AnalyzeExpenseCommand({ Document: { Bytes: invoice.bytes } }));
    const doc = out.ExpenseDocuments?.[0];
    const fields = doc?.SummaryFields;
    const id = field(fields, 'INVOICE_RECEIPT_ID');
    expect(id?.ValueDetection?.Text).toBe('INV123');
    expect(id?.LabelDetection?.Text).toBe('Invoice number:');
    expect(id?.PageNumber).toBe(1);
    expect(id?.ValueDetection?.Geometry?.BoundingBox?.Left).toBeCloseTo(
      wordIn(invoice.invoiceLine, 'INV123', invoice.font, 11).left,
      2,
    );
    expect(field(fields, 'INVOICE_RECEIPT_DATE')?.ValueDetection?.Text).toBe('12/03/2024');
    expect(field(fields, 'ACCOUNT_NUMBER')?.ValueDetection?.Text).toBe('4455667');
    expect(field(fields, 'SUBTOTAL')?.ValueDetection?.Text).toBe('315.50');
    expect(field(fields, 'TAX')?.ValueDetection?.Text).toBe('15.78');
    expect(field(fields, 'AMOUNT_DUE')?.ValueDetection?.Text).toBe('£331.28');
    expect(field(fields, 'TOTAL')?.ValueDetection?.Text).toBe('£331.28');
    expect(field(fields, 'TOTAL')?.Currency?.Code).toBe('GBP');
    expect(field(fields, 'VENDOR_NAME')?.ValueDetection?.Text).toBe('ACME Energy Ltd');
    expect(field(fields, 'RECEIVER_ADDRESS')?.ValueDetection?.Text).toBe(
      'Jane Smith\n1 High Street\nLeeds LS1 1AA',
    );

    const items = doc?.LineItemGroups?.[0]?.LineItems ?? [];
    const rows = items.map((item) =>
      Object.fromEntries(
        (item.LineItemExpenseFields ?? [])
          .filter((f) => f.Type?.Text !== 'EXPENSE_ROW')
          .map((f) => [f.Type?.Text, f.ValueDetection?.Text]),
      ),
    );
    expect(rows).toEqual([
      { ITEM: 'Electricity day rate', QUANTITY: '1200', UNIT_PRICE: '0.25', PRICE: '300.00' },
      { ITEM: 'Standing charge', QUANTITY: '31', UNIT_PRICE: '0.50', PRICE: '15.50' },
    ]);
    const price = items[0]?.LineItemExpenseFields?.find((f) => f.Type?.Text === 'PRICE');
    expect(price?.LabelDetection?.Text).toBe('Amount');
    expect(price?.ValueDetection?.Geometry?.BoundingBox?.Left).toBeCloseTo(480 / 595.28, 2);
  });

  it('reads a scanned page and a photo by OCR, with the words where they were printed', async () => {
    const out = await textract.send(
      new DetectDocumentTextCommand({ Document: await put('scan.pdf', scanPdf) }),
    );
    expect(out.DetectDocumentTextModelVersion).toMatch(/ocr/);
    const blocks = out.Blocks ?? [];
    const lines = blocks.filter((b) => b.BlockType === 'LINE').map((b) => b.Text);
    expect(lines).toEqual(['Northern Power Ltd', 'Invoice number: INV456', 'Total amount due: 842.10']);
    const drawn = scan.boxes.find((b) => b.text === 'INV456');
    if (!drawn) throw new Error('fixture lost its word');
    expectAt(
      blocks.find((b) => b.BlockType === 'WORD' && b.Text === 'INV456'),
      drawn,
      0.006,
    );

    const photo = await textract.send(new AnalyzeExpenseCommand({ Document: { Bytes: scan.png } }));
    const fields = photo.ExpenseDocuments?.[0]?.SummaryFields;
    expect(field(fields, 'INVOICE_RECEIPT_ID')?.ValueDetection?.Text).toBe('INV456');
    expect(field(fields, 'AMOUNT_DUE')?.ValueDetection?.Text).toBe('842.10');
  });

  it('reads a photographed page: on a desk, turned, in uneven light', async () => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(900, 1200);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = 'rgb(140, 110, 80)';
    ctx.fillRect(0, 0, 900, 1200);
    ctx.translate(450, 600);
    ctx.rotate((-6 * Math.PI) / 180);
    // The page darkens towards one corner, as under a lamp.
    const light = ctx.createLinearGradient(-330, -450, 330, 450);
    light.addColorStop(0, 'rgb(245, 245, 242)');
    light.addColorStop(1, 'rgb(150, 150, 148)');
    ctx.fillStyle = light;
    ctx.fillRect(-330, -450, 660, 900);
    ctx.fillStyle = 'rgb(40, 40, 40)';
    ctx.font = '22px sans-serif';
    ctx.fillText('Invoice number: PHO7731', -280, -350);
    ctx.fillText('Account number: 55012987', -280, -300);
    ctx.fillText('Total amount due: 319.45', -280, 350);
    const out = await textract.send(
      new DetectDocumentTextCommand({ Document: { Bytes: canvas.toBuffer('image/png') } }),
    );
    const lines = (out.Blocks ?? []).filter((b) => b.BlockType === 'LINE').map((b) => b.Text);
    expect(lines).toEqual([
      'Invoice number: PHO7731',
      'Account number: 55012987',
      'Total amount due: 319.45',
    ]);
  });

  it('refuses what Textract refuses, with its errors', async () => {
    const refusal = (call: () => Promise<unknown>) =>
      call().then(
        () => undefined,
        (err: Error) => ({ name: err.name, message: err.message }),
      );
    expect(
      await refusal(() => textract.send(new AnalyzeExpenseCommand({ Document: { Bytes: twoPages } }))),
    ).toEqual({
      name: 'UnsupportedDocumentException',
      message: expect.stringMatching(/single-page.*2 pages/),
    });
    const corrupt = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage');
    expect(
      await refusal(() => textract.send(new DetectDocumentTextCommand({ Document: { Bytes: corrupt } }))),
    ).toMatchObject({
      name: 'BadDocumentException',
    });
    expect(
      await refusal(() => textract.send(new DetectDocumentTextCommand({ Document: { Bytes: encrypted } }))),
    ).toEqual({
      name: 'UnsupportedDocumentException',
      message: expect.stringMatching(/encrypted/),
    });
    const text = new TextEncoder().encode('Invoice number: INV1, as plain text');
    expect(
      await refusal(() => textract.send(new DetectDocumentTextCommand({ Document: { Bytes: text } }))),
    ).toMatchObject({
      name: 'UnsupportedDocumentException',
    });
    const huge = new Uint8Array(11 * 1024 * 1024);
    huge.set(new TextEncoder().encode('%PDF-1.7\n'));
    expect(
      await refusal(() => textract.send(new DetectDocumentTextCommand({ Document: { Bytes: huge } }))),
    ).toMatchObject({
      name: 'DocumentTooLargeException',
    });
    expect(
      await refusal(() =>
        textract.send(
          new AnalyzeDocumentCommand({ Document: { Bytes: invoice.bytes }, FeatureTypes: ['SIGNATURES'] }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidParameterException' });
    expect(
      await refusal(() =>
        textract.send(
          new StartExpenseAnalysisCommand({
            DocumentLocation: { S3Object: { Bucket: bucket, Name: 'no/such/file.pdf' } },
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidS3ObjectException' });
    expect(
      await refusal(() => textract.send(new GetDocumentAnalysisCommand({ JobId: 'f'.repeat(64) }))),
    ).toMatchObject({
      name: 'InvalidJobIdException',
    });
  });

  it('runs asynchronous analyses as jobs and pages through their results', async () => {
    const DocumentLocation = await put('two-pages.pdf', twoPages);
    const { JobId } = await textract.send(
      new StartDocumentAnalysisCommand({ DocumentLocation, FeatureTypes: ['TABLES', 'FORMS'] }),
    );
    let first: GetDocumentAnalysisCommandOutput;
    const statuses: string[] = [];
    for (;;) {
      first = await textract.send(new GetDocumentAnalysisCommand({ JobId, MaxResults: 50 }));
      statuses.push(first.JobStatus ?? '');
      if (first.JobStatus !== 'IN_PROGRESS') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(statuses.at(-1)).toBe('SUCCEEDED');
    expect(first.DocumentMetadata?.Pages).toBe(2);
    expect(first.Blocks).toHaveLength(50);
    const blocks = [...(first.Blocks ?? [])];
    let token = first.NextToken;
    let calls = 1;
    while (token) {
      const next = await textract.send(
        new GetDocumentAnalysisCommand({ JobId, MaxResults: 50, NextToken: token }),
      );
      blocks.push(...(next.Blocks ?? []));
      token = next.NextToken;
      calls++;
    }
    const whole = await textract.send(new GetDocumentAnalysisCommand({ JobId }));
    expect(whole.NextToken).toBeUndefined();
    expect(calls).toBe(Math.ceil((whole.Blocks?.length ?? 0) / 50));
    expect(blocks.map((b) => b.Id)).toEqual(whole.Blocks?.map((b) => b.Id));
    expect(new Set(blocks.map((b) => b.Id)).size).toBe(blocks.length);
    expect(blocks.filter((b) => b.BlockType === 'PAGE').map((b) => b.Page)).toEqual([1, 2]);
    expect(blocks.find((b) => b.Page === 2 && b.BlockType === 'LINE')?.Text).toBe('Terms and conditions');

    const expense = await textract.send(new StartExpenseAnalysisCommand({ DocumentLocation }));
    let result = await textract.send(new GetExpenseAnalysisCommand({ JobId: expense.JobId }));
    while (result.JobStatus === 'IN_PROGRESS') {
      await new Promise((r) => setTimeout(r, 50));
      result = await textract.send(new GetExpenseAnalysisCommand({ JobId: expense.JobId }));
    }
    expect(result.ExpenseDocuments?.map((d) => d.ExpenseIndex)).toEqual([1, 2]);
    expect(
      field(result.ExpenseDocuments?.[0]?.SummaryFields, 'INVOICE_RECEIPT_ID')?.ValueDetection?.Text,
    ).toBe('INV200');

    const locked = await textract.send(
      new StartExpenseAnalysisCommand({ DocumentLocation: await put('locked.pdf', encrypted) }),
    );
    let failed = await textract.send(new GetExpenseAnalysisCommand({ JobId: locked.JobId }));
    while (failed.JobStatus === 'IN_PROGRESS') {
      await new Promise((r) => setTimeout(r, 50));
      failed = await textract.send(new GetExpenseAnalysisCommand({ JobId: locked.JobId }));
    }
    expect(failed).toMatchObject({ JobStatus: 'FAILED', StatusMessage: expect.stringMatching(/encrypted/) });
  });
});

describe('analyseDocument', () => {
  it('gives both analyses of a document in S3, all pages', async () => {
    await put('invoices/two-pages.pdf', twoPages);
    const out = await analyseDocument(bucket, 'invoices/two-pages.pdf', { timeoutMs: 20_000 });
    expect(out.ocr).toBe(false);
    expect(out.document.DocumentMetadata.Pages).toBe(2);
    expect(out.document.Blocks.some((b) => b.BlockType === 'TABLE')).toBe(true);
    expect(out.document.Blocks.some((b) => b.BlockType === 'KEY_VALUE_SET')).toBe(true);
    expect(out.expense?.ExpenseDocuments).toHaveLength(2);
    expect(field(out.expense?.ExpenseDocuments[0]?.SummaryFields, 'TOTAL')?.ValueDetection?.Text).toBe(
      '£331.28',
    );
  });

  it('says when the pages were read by OCR', async () => {
    await put('invoices/scan.pdf', scanPdf);
    const out = await analyseDocument(bucket, 'invoices/scan.pdf', { timeoutMs: 20_000 });
    expect(out.ocr).toBe(true);
    expect(out.document.Blocks.filter((b) => b.BlockType === 'LINE').map((b) => b.Text)).toContain(
      'Invoice number: INV456',
    );
  });

  it('fails with a reason a person can act on', async () => {
    await put('invoices/locked.pdf', encrypted);
    const locked = await analyseDocument(bucket, 'invoices/locked.pdf').catch((err: unknown) => err);
    expect(isDocumentProblem(locked)).toBe(true);
    expect((locked as Error).message).toMatch(/^The document is encrypted/);

    const missing = await analyseDocument(bucket, 'invoices/gone.pdf').catch((err: unknown) => err);
    expect(isDocumentProblem(missing)).toBe(true);
    expect((missing as Error).message).toMatch(/could not be found/);
  });
});
