import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import * as z from 'zod';
import type { Block, ExpenseDocument } from '../../../shared/capture/textract.ts';
import { documentBlocks, type Features, layoutOf } from './blocks.ts';
import { createReader } from './document-reader.ts';
import { TextractError } from './errors.ts';
import { expenseDocuments } from './expense.ts';
import { formatOf } from './image-format.ts';
import { type Job, type JobKind, type JobResult, jobStore, limiter } from './jobs.ts';
import type { DocumentText } from './page-text.ts';
import { MAX_PAGES } from './reader.ts';

export interface TextractOptions {
  /** 0 picks a free port. */
  port: number;
  host?: string;
  /** Where documents named by S3Object are read from (the local stack's S3). */
  s3Endpoint: string;
  region?: string;
  /** Resolution scanned pages are rendered at for OCR. */
  ocrDpi?: number;
  /** Documents read at once; others wait. */
  concurrency?: number;
  log?: (message: string, data?: Record<string, unknown>) => void;
}

export interface TextractStandIn {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

/** Textract's size limits: 10 MB for the synchronous operations and for images, 500 MB for PDFs. */
const MB = 1024 * 1024;
const SYNC_LIMIT = 10 * MB;
const ASYNC_PDF_LIMIT = 500 * MB;
const ASYNC_IMAGE_LIMIT = 10 * MB;
/** A 10 MB document in base64 with its JSON around it. */
const MAX_BODY = 16 * MB;
export const DEFAULT_OCR_DPI = 300;

/**
 * Model version the answers carry. Real Textract says "1.0"; the stand-in adds "ocr" when a page was
 * read from an image, which is how a caller can tell without a field Textract does not have.
 */
const modelVersion = (ocr: boolean) => (ocr ? 'local-1.0 ocr' : 'local-1.0');

const S3ObjectSchema = z.object({
  Bucket: z.string().min(1),
  Name: z.string().min(1),
  Version: z.string().optional(),
});
type S3Location = z.infer<typeof S3ObjectSchema>;
/** How long a reading of an S3 object serves further jobs on the same object. */
const READ_REUSE_MS = 60_000;
const DocumentSchema = z
  .object({ Bytes: z.string().optional(), S3Object: S3ObjectSchema.optional() })
  .refine((d) => (d.Bytes === undefined) !== (d.S3Object === undefined), {
    error: 'give either Bytes or S3Object',
  });
const SUPPORTED_FEATURES = ['TABLES', 'FORMS'] as const;
const FeatureTypesSchema = z
  .array(z.string())
  .min(1)
  .refine((fs) => fs.every((f) => (SUPPORTED_FEATURES as readonly string[]).includes(f)), {
    error: 'the local Textract answers TABLES and FORMS (not QUERIES, SIGNATURES or LAYOUT)',
  });
const StartSchema = z.object({
  DocumentLocation: z.object({ S3Object: S3ObjectSchema }),
  ClientRequestToken: z
    .string()
    .regex(/^[a-zA-Z0-9-_]{1,64}$/)
    .optional(),
  JobTag: z.string().max(64).optional(),
  // Completion is polled with Get*; nothing here publishes to SNS or writes results to S3.
  NotificationChannel: z.undefined({ error: 'not supported locally; poll the Get operation' }).optional(),
  OutputConfig: z
    .undefined({ error: 'not supported locally; read results with the Get operation' })
    .optional(),
  KMSKeyId: z.string().optional(),
});
const GetSchema = z.object({
  JobId: z.string().min(1).max(64),
  MaxResults: z.number().int().min(1).optional(),
  NextToken: z.string().min(1).optional(),
});

function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const detail = result.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; ');
  throw new TextractError('InvalidParameterException', `Request has invalid parameters (${detail})`);
}

const features = (types: readonly string[]): Features => ({
  tables: types.includes('TABLES'),
  forms: types.includes('FORMS'),
});

/**
 * Amazon Textract on this machine, on its wire protocol (AWS JSON 1.1): the SDK's TextractClient works
 * against it unchanged with its endpoint set (AWS_ENDPOINT_URL_TEXTRACT). It answers text detection,
 * document analysis (TABLES, FORMS) and expense analysis, synchronously for single-page documents and
 * as jobs for documents in S3, from the PDF's text layer or by OCR for scans and images.
 */
export async function startTextract(options: TextractOptions): Promise<TextractStandIn> {
  const log = options.log ?? (() => {});
  const ocrDpi = options.ocrDpi ?? DEFAULT_OCR_DPI;
  const reader = createReader();
  const slot = limiter(options.concurrency ?? 2);
  const s3 = new S3Client({
    region: options.region ?? 'eu-west-2',
    endpoint: options.s3Endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const jobs = jobStore((job, err) =>
    log('textract job failed', {
      jobId: job.id,
      kind: job.kind,
      error: err instanceof Error ? err.message : String(err),
    }),
  );

  const s3Error = (err: unknown, bucket: string, key: string): TextractError => {
    const name = err instanceof Error ? err.name : '';
    if (['NotFound', 'NoSuchKey', 'NoSuchBucket', 'Forbidden', 'AccessDenied'].includes(name)) {
      return new TextractError(
        'InvalidS3ObjectException',
        `Unable to get object metadata from S3. Check object key, region and/or access permissions. (${bucket}/${key})`,
      );
    }
    return new TextractError(
      'InternalServerError',
      `S3 could not be read: ${err instanceof Error ? err.message : String(err)}`,
      500,
    );
  };

  const objectHead = async (o: S3Location): Promise<{ size: number; etag?: string }> => {
    const head = await s3
      .send(new HeadObjectCommand({ Bucket: o.Bucket, Key: o.Name, VersionId: o.Version }))
      .catch((err: unknown) => {
        throw s3Error(err, o.Bucket, o.Name);
      });
    return { size: head.ContentLength ?? 0, etag: head.ETag };
  };

  const objectBytes = async (o: S3Location): Promise<Uint8Array> => {
    const out = await s3
      .send(new GetObjectCommand({ Bucket: o.Bucket, Key: o.Name, VersionId: o.Version }))
      .catch((err: unknown) => {
        throw s3Error(err, o.Bucket, o.Name);
      });
    return (await out.Body?.transformToByteArray()) ?? new Uint8Array();
  };

  const tooLarge = (size: number, limit: number, what: string) =>
    new TextractError(
      'DocumentTooLargeException',
      `The document is ${(size / MB).toFixed(1)} MB; Textract takes at most ${limit / MB} MB ${what}.`,
    );

  /** The document of a synchronous call, from the request or from S3. */
  const syncDocument = async (input: unknown): Promise<Uint8Array> => {
    const { Document } = parse(z.object({ Document: DocumentSchema }), input);
    if (Document.Bytes !== undefined) {
      const bytes = Buffer.from(Document.Bytes, 'base64');
      if (bytes.byteLength > SYNC_LIMIT)
        throw tooLarge(bytes.byteLength, SYNC_LIMIT, 'in a synchronous call');
      return bytes;
    }
    const location = Document.S3Object;
    if (!location) throw new TextractError('InvalidParameterException', 'Document is empty');
    const { size } = await objectHead(location);
    if (size > SYNC_LIMIT) throw tooLarge(size, SYNC_LIMIT, 'in a synchronous call');
    return objectBytes(location);
  };

  const read = (bytes: Uint8Array, maxPages: number): Promise<DocumentText> =>
    slot(() => reader.read(bytes, { maxPages, ocrDpi }));

  const isOcr = (doc: DocumentText) => doc.pages.some((p) => p.ocr);

  /**
   * Capture starts document and expense analysis of an object together: one reading serves both (a
   * scan is OCRed once). Readings are known by the object's ETag, so a replaced object is read afresh.
   */
  const recentReads = new Map<string, { at: number; reading: Promise<DocumentText> }>();
  const readObject = (location: S3Location, etag: string | undefined): Promise<DocumentText> => {
    const now = Date.now();
    for (const [k, r] of recentReads) if (now - r.at > READ_REUSE_MS) recentReads.delete(k);
    const key = JSON.stringify([
      location.Bucket,
      location.Name,
      location.Version ?? '',
      etag ?? randomUUID(),
    ]);
    const earlier = recentReads.get(key);
    if (earlier) return earlier.reading;
    const reading = (async () => {
      const bytes = await objectBytes(location);
      const format = formatOf(bytes);
      if (format && format !== 'pdf' && bytes.byteLength > ASYNC_IMAGE_LIMIT) {
        throw tooLarge(bytes.byteLength, ASYNC_IMAGE_LIMIT, 'for an image');
      }
      return reader.read(bytes, { maxPages: MAX_PAGES, ocrDpi });
    })();
    recentReads.set(key, { at: now, reading });
    reading.catch(() => recentReads.delete(key));
    return reading;
  };

  const startJob = async (
    kind: JobKind,
    input: unknown,
    build: (doc: DocumentText) => Block[] | ExpenseDocument[],
  ) => {
    const request = parse(StartSchema, input);
    const location = request.DocumentLocation.S3Object;
    const { size, etag } = await objectHead(location);
    if (size > ASYNC_PDF_LIMIT) throw tooLarge(size, ASYNC_PDF_LIMIT, 'for a PDF');
    const job = jobs.start(kind, request.ClientRequestToken, () =>
      slot(async (): Promise<JobResult> => {
        const doc = await readObject(location, etag);
        return { pages: doc.pages.length, ocr: isOcr(doc), items: build(doc) };
      }),
    );
    return { JobId: job.id };
  };

  const getJob = (kind: JobKind, input: unknown, pageLimit: number, versionField: string) => {
    const request = parse(GetSchema, input);
    const job = jobs.get(kind, request.JobId);
    if (job.status === 'IN_PROGRESS') return { JobStatus: job.status };
    if (job.status === 'FAILED' || !job.result)
      return { JobStatus: 'FAILED', StatusMessage: job.statusMessage };
    const { result } = job;
    const max = Math.min(request.MaxResults ?? pageLimit, pageLimit);
    const from = request.NextToken ? offsetOf(request.NextToken, job) : 0;
    const to = from + max;
    const items = result.items.slice(from, to);
    return {
      JobStatus: job.status,
      DocumentMetadata: { Pages: result.pages },
      [kind === 'expense' ? 'ExpenseDocuments' : 'Blocks']: items,
      ...(to < result.items.length ? { NextToken: tokenOf(job, to) } : {}),
      [versionField]: modelVersion(result.ocr),
    };
  };

  type Operation = (input: unknown) => Promise<unknown>;
  const operations = new Map<string, Operation>([
    [
      'DetectDocumentText',
      async (input) => {
        const doc = await read(await syncDocument(input), 1);
        return {
          DocumentMetadata: { Pages: doc.pages.length },
          Blocks: documentBlocks(layoutOf(doc), { tables: false, forms: false }),
          DetectDocumentTextModelVersion: modelVersion(isOcr(doc)),
        };
      },
    ],
    [
      'AnalyzeDocument',
      async (input) => {
        const { FeatureTypes } = parse(z.object({ FeatureTypes: FeatureTypesSchema }), input);
        const doc = await read(await syncDocument(input), 1);
        return {
          DocumentMetadata: { Pages: doc.pages.length },
          Blocks: documentBlocks(layoutOf(doc), features(FeatureTypes)),
          AnalyzeDocumentModelVersion: modelVersion(isOcr(doc)),
        };
      },
    ],
    [
      'AnalyzeExpense',
      async (input) => {
        const doc = await read(await syncDocument(input), 1);
        return {
          DocumentMetadata: { Pages: doc.pages.length },
          ExpenseDocuments: expenseDocuments(layoutOf(doc)),
        };
      },
    ],
    [
      'StartDocumentTextDetection',
      (input) =>
        startJob('text', input, (doc) => documentBlocks(layoutOf(doc), { tables: false, forms: false })),
    ],
    [
      'StartDocumentAnalysis',
      async (input) => {
        const { FeatureTypes } = parse(z.object({ FeatureTypes: FeatureTypesSchema }), input);
        return startJob('analysis', input, (doc) => documentBlocks(layoutOf(doc), features(FeatureTypes)));
      },
    ],
    ['StartExpenseAnalysis', (input) => startJob('expense', input, (doc) => expenseDocuments(layoutOf(doc)))],
    [
      'GetDocumentTextDetection',
      async (input) => getJob('text', input, 1000, 'DetectDocumentTextModelVersion'),
    ],
    ['GetDocumentAnalysis', async (input) => getJob('analysis', input, 1000, 'AnalyzeDocumentModelVersion')],
    ['GetExpenseAnalysis', async (input) => getJob('expense', input, 20, 'AnalyzeExpenseModelVersion')],
  ]);

  const server = createServer((req, res) => {
    handle(req, res, operations).catch((err: unknown) => {
      log('textract request failed', {
        error: err instanceof Error ? (err.stack ?? err.message) : String(err),
      });
      if (!res.headersSent) send(res, 500, { __type: 'InternalServerError', message: 'Internal error' });
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = options.host && !['0.0.0.0', '::'].includes(options.host) ? options.host : '127.0.0.1';
  return {
    endpoint: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await reader.stop();
      s3.destroy();
    },
  };
}

function tokenOf(job: Job, offset: number): string {
  return Buffer.from(JSON.stringify({ j: job.id, o: offset })).toString('base64url');
}

function offsetOf(token: string, job: Job): number {
  try {
    const parsed = z
      .object({ j: z.string(), o: z.number().int().min(0) })
      .parse(JSON.parse(Buffer.from(token, 'base64url').toString()));
    if (parsed.j === job.id) return parsed.o;
  } catch {
    // Falls through to the error below.
  }
  throw new TextractError('InvalidParameterException', 'The NextToken is not one this job gave out');
}

function send(res: ServerResponse, status: number, body: unknown) {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'content-length': Buffer.byteLength(payload),
    'x-amzn-requestid': randomUUID(),
  });
  res.end(payload);
}

/** The body, up to `limit` bytes; the rest of a larger one is read and dropped so the reply gets through. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.byteLength;
    if (size <= limit) chunks.push(buffer);
  }
  return size <= limit ? Buffer.concat(chunks) : undefined;
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  operations: ReadonlyMap<string, (input: unknown) => Promise<unknown>>,
): Promise<void> {
  try {
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.startsWith('Textract.')
      ? operations.get(target.slice('Textract.'.length))
      : undefined;
    if (req.method !== 'POST' || (req.url ?? '/').split('?')[0] !== '/' || !operation) {
      req.resume();
      throw new TextractError(
        'UnknownOperationException',
        `Unknown operation ${target || '(no X-Amz-Target header)'}`,
      );
    }
    const body = await readBody(req, MAX_BODY);
    if (!body) {
      throw new TextractError(
        'DocumentTooLargeException',
        `The request is larger than ${MAX_BODY / MB} MB; Textract takes documents of at most 10 MB in a synchronous call.`,
      );
    }
    let input: unknown;
    try {
      input = body.byteLength === 0 ? {} : JSON.parse(body.toString('utf8'));
    } catch {
      throw new TextractError('SerializationException', 'The request body is not JSON');
    }
    send(res, 200, await operation(input));
  } catch (err) {
    if (!(err instanceof TextractError)) throw err;
    send(res, err.status, { __type: err.type, message: err.message });
  }
}
