import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { BoundingBox, TextractOutput } from '../../shared/capture/textract.ts';
import { CAPTURE_CONTENT_TYPES, detectCaptureFileType, safeFileName } from '../../shared/files/file-type.ts';
import { invoicePreviewQuery } from '../../shared/schemas/queries.ts';
import { templateSamplePrefix } from '../../shared/schemas/templates.ts';
import { declaredSize, tooLargeMessage, UPLOAD_LIMITS } from '../../shared/schemas/upload-size.ts';
import { storedUpload } from '../core/adapters/object-start.ts';
import { getObjectBytes, presignGet, presignPut, putObject } from '../core/adapters/s3.ts';
import { isDocumentProblem } from '../core/adapters/textract.ts';
import { bucketName } from '../core/config.ts';
import { ApiError, conflict, formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { analyseSample, previewResults } from './template-analysis.ts';
import { getPreviewJob, type PreviewJob, putPreviewJob, startPreviewJob } from './template-repository.ts';
import { loadTemplate, refuseUnknown, saveTemplate } from './template-store.ts';

const PDF = CAPTURE_CONTENT_TYPES.pdf;
const SAMPLE_URL_SECONDS = 900;
/** Within the function's 29 s: an analysis not done by then is left to finish (or not) on its own. */
const ANALYSIS_BUDGET_MS = 24_000;
/** A running analysis older than this has died with its function; another may start. */
const RUNNING_STALE_MS = 120_000;

const uploads = () => bucketName('uploads');

/**
 * Checks a sample upload by its bytes: it must be this template's own (under `template-samples/{id}/`,
 * never `invoices/`, which would start a capture) and a PDF, which is what the editor draws on, within the
 * size its upload URL was asked with.
 */
export async function verifySample(templateId: string, key: string, field = 'key'): Promise<string> {
  if (!key.startsWith(templateSamplePrefix(templateId)) || key.includes('..'))
    throw formError({ [field]: 'Not an upload of this template: ask for an upload URL first' });
  const stored = await storedUpload(uploads(), key, 1024);
  if (!stored) throw formError({ [field]: 'The sample has not been uploaded yet' });
  if (stored.size > UPLOAD_LIMITS.templateSample)
    throw formError({ [field]: tooLargeMessage(UPLOAD_LIMITS.templateSample) });
  if (detectCaptureFileType(stored.start) !== 'pdf')
    throw formError({ [field]: 'The sample must be a PDF document' });
  return key;
}

const sampleBody = z.object({
  key: z.string().min(1).max(500).optional(),
  fileName: z.string().trim().max(300).optional(),
  size: z.unknown().optional(),
});
const sampleUploadBody = z.object({ size: declaredSize(UPLOAD_LIMITS.templateSample) });

/**
 * POST /templates/{id}/sample. Without a key: a presigned PUT for a sample PDF of the declared `size` (`{ uploadUrl, method,
 * headers, key }`). With the `key` of that upload: checks it is a PDF, makes it the template's sample,
 * and a preupload template becomes uploaded.
 */
const sample = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  refuseUnknown(ctx.body, ['key', 'fileName', 'size']);
  const body = parseOrThrow(sampleBody, ctx.body ?? {});
  const t = await loadTemplate(ctx.params.id);
  if (!body.key) {
    const { size } = parseOrThrow(sampleUploadBody, ctx.body ?? {});
    const name = safeFileName(body.fileName ?? '', 'sample.pdf');
    const key = `${templateSamplePrefix(t._id)}${newId()}/${/\.pdf$/i.test(name) ? name : `${name}.pdf`}`;
    return {
      body: {
        uploadUrl: await presignPut(uploads(), key, PDF, { size }),
        method: 'PUT',
        headers: { 'Content-Type': PDF },
        key,
      },
    };
  }
  const key = await verifySample(t._id, body.key);
  const edit = (current: typeof t): typeof t => ({
    ...current,
    sampleKey: key,
    status: current.status === 'preupload' ? 'uploaded' : current.status,
  });
  return { body: await saveTemplate(ctx, t._id, edit, 'Sample uploaded') };
});

/** GET /templates/{id}/sample: `{ url, key, fileName }`, a presigned GET of the sample for the editor. */
const sampleUrl = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const t = await loadTemplate(ctx.params.id);
  if (!t.sampleKey) throw notFound('The template has no sample yet');
  return {
    body: {
      url: await presignGet(uploads(), t.sampleKey, SAMPLE_URL_SECONDS),
      key: t.sampleKey,
      fileName: t.sampleKey.split('/').at(-1),
    },
  };
});

// ---------------------------------------------------------------- preview

/** One analysis per sample: the same sample is never sent to Textract twice. */
const jobIdOf = (sampleKey: string) => createHash('sha256').update(sampleKey).digest('hex').slice(0, 24);
const outputKeyOf = (sampleKey: string) => `${sampleKey}.analysis.json`;

/** Analyses read in this process, so that re-previewing after each edit costs no download. */
const outputs = new Map<string, TextractOutput>();
const MAX_CACHED = 8;

function remember(key: string, output: TextractOutput): void {
  outputs.delete(key);
  outputs.set(key, output);
  while (outputs.size > MAX_CACHED) {
    const oldest = outputs.keys().next().value;
    if (oldest === undefined) break;
    outputs.delete(oldest);
  }
}

async function outputOf(job: PreviewJob): Promise<TextractOutput> {
  const key = job.outputKey ?? outputKeyOf(job.sampleKey);
  const cached = outputs.get(key);
  if (cached) {
    remember(key, cached);
    return cached;
  }
  const output = JSON.parse(new TextDecoder().decode(await getObjectBytes(uploads(), key))) as TextractOutput;
  remember(key, output);
  return output;
}

const jobAnswer = (job: PreviewJob) => ({
  jobId: job.jobId,
  templateId: job.templateId,
  status: job.status,
  ...(job.pageCount !== undefined ? { pageCount: job.pageCount } : {}),
  ...(job.error ? { error: job.error } : {}),
});

async function runAnalysis(job: PreviewJob): Promise<PreviewJob> {
  const output = await analyseSample(uploads(), job.sampleKey);
  const outputKey = outputKeyOf(job.sampleKey);
  await putObject(uploads(), outputKey, new TextEncoder().encode(JSON.stringify(output)), 'application/json');
  remember(outputKey, output);
  const done: PreviewJob = {
    ...job,
    status: 'succeeded',
    outputKey,
    pageCount: output.document.DocumentMetadata.Pages,
    finishedAt: new Date().toISOString(),
  };
  await putPreviewJob(done);
  return done;
}

/** A reason in the document itself (encrypted, damaged) is the person's to act on; anything else is ours. */
const failureOf = (err: unknown) =>
  isDocumentProblem(err) || (err instanceof ApiError && err.status < 500)
    ? (err as Error).message
    : 'The sample could not be analysed just now. Try again in a minute.';

/**
 * POST /templates/{id}/preview: has Textract read the template's sample, once per sample, and answers
 * `{ jobId, status }` for GET /suppliers/{id}/invoice-preview. A sample read before answers at once.
 */
const startPreview = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const t = await loadTemplate(ctx.params.id);
  if (!t.sampleKey) throw conflict('Upload a sample invoice before previewing the template');
  const jobId = jobIdOf(t.sampleKey);
  const existing = await getPreviewJob(jobId);
  if (existing?.status === 'succeeded') return { body: jobAnswer(existing) };
  const now = Date.now();
  const job: PreviewJob = {
    jobId,
    templateId: t._id,
    sampleKey: t.sampleKey,
    status: 'running',
    startedAt: new Date(now).toISOString(),
  };
  if (!(await startPreviewJob(job, new Date(now - RUNNING_STALE_MS).toISOString()))) {
    const current = await getPreviewJob(jobId);
    return { status: current?.status === 'succeeded' ? 200 : 202, body: jobAnswer(current ?? job) };
  }
  const analysis = runAnalysis(job).catch(async (err: unknown) => {
    ctx.log.warn('template sample analysis failed', { jobId, error: String(err) });
    const failed: PreviewJob = {
      ...job,
      status: 'failed',
      error: failureOf(err),
      ...(isDocumentProblem(err) ? { documentProblem: true } : {}),
      finishedAt: new Date().toISOString(),
    };
    await putPreviewJob(failed);
    return failed;
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outOfTime = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ANALYSIS_BUDGET_MS);
  });
  try {
    // Out of time, the analysis goes on and stores its outcome; the editor asks for it by the job id.
    const done = await Promise.race([analysis, outOfTime]);
    if (!done) return { status: 202, body: jobAnswer(job) };
    if (done.status === 'failed')
      throw done.documentProblem
        ? new ApiError(422, 'SAMPLE_UNREADABLE', done.error ?? failureOf(undefined))
        : new ApiError(502, 'ANALYSIS_FAILED', done.error ?? failureOf(undefined));
    return { body: jobAnswer(done) };
  } finally {
    clearTimeout(timer);
  }
});

interface PreviewText {
  text: string;
  box: BoundingBox;
  confidence?: number;
}

interface PreviewCell {
  row: number;
  column: number;
  box: BoundingBox;
}

export interface PreviewPage {
  page: number;
  lines: PreviewText[];
  words: PreviewText[];
  cells: PreviewCell[];
}

const round = (n: number) => Math.round(n * 1e5) / 1e5;
const boxOf = (b: BoundingBox): BoundingBox => ({
  Left: round(b.Left),
  Top: round(b.Top),
  Width: round(b.Width),
  Height: round(b.Height),
});

/** What the editor draws over each page: Textract's lines, words and table cells, in page fractions. */
export function previewPages(output: TextractOutput): PreviewPage[] {
  const count = Math.max(1, output.document.DocumentMetadata.Pages);
  const pages: PreviewPage[] = Array.from({ length: count }, (_v, i) => ({
    page: i + 1,
    lines: [],
    words: [],
    cells: [],
  }));
  for (const block of output.document.Blocks) {
    const box = block.Geometry?.BoundingBox;
    const page = pages[(block.Page ?? 1) - 1];
    if (!box || !page) continue;
    const text = {
      text: block.Text ?? '',
      box: boxOf(box),
      ...(block.Confidence ? { confidence: round(block.Confidence) } : {}),
    };
    if (block.BlockType === 'LINE') page.lines.push(text);
    else if (block.BlockType === 'WORD') page.words.push(text);
    else if (block.BlockType === 'CELL' || block.BlockType === 'MERGED_CELL')
      page.cells.push({ row: block.RowIndex ?? 0, column: block.ColumnIndex ?? 0, box: boxOf(box) });
  }
  return pages;
}

/**
 * GET /suppliers/{id}/invoice-preview?jobId=&templateId=: the template (as it is now) applied to its
 * sample's analysis, with the text of each page to draw. While the analysis runs, only its status.
 */
const invoicePreview = operation(
  { params: ['id'], query: invoicePreviewQuery },
  async (ctx): Promise<OpResult> => {
    const { query } = ctx;
    const job = await getPreviewJob(query.jobId);
    if (!job || (query.templateId && job.templateId !== query.templateId)) throw notFound('No such preview');
    const t = await loadTemplate(job.templateId);
    if (t.supplierId !== ctx.params.id) throw notFound('No such preview');
    if (t.sampleKey !== job.sampleKey)
      throw conflict('The template has another sample now: start a preview of that one');
    if (job.status !== 'succeeded') return { body: jobAnswer(job) };
    const output = await outputOf(job);
    return {
      body: {
        ...jobAnswer(job),
        pageCount: output.document.DocumentMetadata.Pages,
        ocr: output.ocr === true,
        results: previewResults(output, t),
        pages: previewPages(output),
      },
    };
  },
);

export const TEMPLATE_SAMPLE_OPERATIONS: Operations = {
  'templates.sample': sample,
  'templates.sampleUrl': sampleUrl,
  'templates.startPreview': startPreview,
  'templates.invoicePreview': invoicePreview,
};
