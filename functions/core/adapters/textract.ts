import type {
  Block as SdkBlock,
  ExpenseDetection as SdkDetection,
  ExpenseDocument as SdkExpenseDocument,
  ExpenseField as SdkExpenseField,
  Geometry as SdkGeometry,
} from '@aws-sdk/client-textract';
import type {
  Block,
  DocumentAnalysis,
  ExpenseAnalysis,
  ExpenseDetection,
  ExpenseDocument,
  ExpenseField,
  Geometry,
  TextractOutput,
} from '../../../shared/capture/textract.ts';
import { config } from '../config.ts';
import { onFirstUse } from './on-first-use.ts';

/** Loaded with the first analysis: functions that never capture never load the Textract SDK. */
const textract = onFirstUse(async () => {
  const lib = await import('@aws-sdk/client-textract');
  // The endpoint comes from AWS_ENDPOINT_URL_TEXTRACT when set (the local stand-in), as the SDK reads it.
  return { lib, client: new lib.TextractClient({ region: config().region }) };
});

export type DocumentProblem = 'encrypted' | 'unsupported' | 'damaged' | 'too-large' | 'missing';

/** Textract could not read the document, for a reason in the document: trying again will not help. */
export class DocumentAnalysisError extends Error {
  readonly problem: DocumentProblem;

  constructor(problem: DocumentProblem, message: string) {
    super(message);
    this.name = 'DocumentAnalysisError';
    this.problem = problem;
  }
}

export const isDocumentProblem = (err: unknown): err is DocumentAnalysisError =>
  err instanceof DocumentAnalysisError;

const MESSAGES: Record<DocumentProblem, string> = {
  encrypted:
    'The document is encrypted (password-protected). Save it without the password and upload it again.',
  unsupported: 'The file is not a document that can be read: upload a PDF, PNG, JPEG or TIFF.',
  damaged: 'The file is damaged and could not be read. Export or scan it again and upload the new file.',
  'too-large':
    'The document is too large to be read (at most 500 MB and 3,000 pages for a PDF, 10 MB and 10,000 pixels a side for an image).',
  missing: 'The uploaded file could not be found in storage; upload it again.',
};

/**
 * Textract's reason for a failed job or a refused request, as a problem a person can act on. Async
 * jobs report only a status message, so the message is read as well as the error's name.
 */
function problemOf(name: string, message: string): DocumentProblem | undefined {
  if (/password|encrypt/i.test(message)) return 'encrypted';
  if (name === 'InvalidS3ObjectException') return 'missing';
  if (name === 'DocumentTooLargeException' || /too large|too many pages|at most \d+ ?MB/i.test(message))
    return 'too-large';
  if (name === 'UnsupportedDocumentException' || /unsupported|format/i.test(message)) return 'unsupported';
  if (name === 'BadDocumentException' || /damaged|corrupt|(?:could not|cannot) be read/i.test(message))
    return 'damaged';
  return undefined;
}

function documentError(err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  const problem = problemOf(err.name, err.message);
  return problem ? new DocumentAnalysisError(problem, MESSAGES[problem]) : err;
}

export interface AnalyseOptions {
  /** How long to wait for both analyses in all, in milliseconds. */
  timeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Both Textract analyses of an S3 object, as capture needs them: document analysis with tables and
 * forms, and expense analysis. Runs them as asynchronous jobs (which take multi-page PDFs), polls with
 * backoff until both end, and gathers every page of their results.
 */
export async function analyseDocument(
  bucket: string,
  key: string,
  { timeoutMs = 5 * 60_000 }: AnalyseOptions = {},
): Promise<TextractOutput> {
  const { lib, client } = await textract();
  const deadline = Date.now() + timeoutMs;
  const DocumentLocation = { S3Object: { Bucket: bucket, Name: key } };
  const [analysis, expense] = await Promise.all([
    client.send(
      new lib.StartDocumentAnalysisCommand({ DocumentLocation, FeatureTypes: ['TABLES', 'FORMS'] }),
    ),
    client.send(new lib.StartExpenseAnalysisCommand({ DocumentLocation })),
  ]).catch((err: unknown) => {
    throw documentError(err);
  });
  const analysisId = analysis.JobId;
  const expenseId = expense.JobId;
  if (!analysisId || !expenseId) throw new Error('Textract started a job without a JobId');

  const [document, expenseResult] = await Promise.all([
    untilDone('document analysis', deadline, async (NextToken) => {
      const out = await client.send(
        new lib.GetDocumentAnalysisCommand({ JobId: analysisId, MaxResults: 1000, NextToken }),
      );
      return { ...out, items: out.Blocks ?? [], version: out.AnalyzeDocumentModelVersion };
    }),
    untilDone('expense analysis', deadline, async (NextToken) => {
      const out = await client.send(
        new lib.GetExpenseAnalysisCommand({ JobId: expenseId, MaxResults: 20, NextToken }),
      );
      return { ...out, items: out.ExpenseDocuments ?? [], version: out.AnalyzeExpenseModelVersion };
    }),
  ]);
  const documentAnalysis: DocumentAnalysis = {
    DocumentMetadata: { Pages: document.pages },
    Blocks: document.items.flatMap((b) => blockOf(b) ?? []),
  };
  const expenseAnalysis: ExpenseAnalysis = {
    DocumentMetadata: { Pages: expenseResult.pages },
    ExpenseDocuments: expenseResult.items.map(expenseDocumentOf),
  };
  return {
    document: documentAnalysis,
    expense: expenseAnalysis,
    // Real Textract says nothing about how it read a page; the local stand-in marks OCR in its model version.
    ocr: /\bocr\b/i.test(document.version ?? ''),
  };
}

interface GetPage<T> {
  JobStatus?: string;
  StatusMessage?: string;
  DocumentMetadata?: { Pages?: number };
  NextToken?: string;
  items: T[];
  version?: string;
}

/** Polls a job (from 0.2 s, half as long again each time, up to 5 s) until it ends, then follows NextToken. */
async function untilDone<T>(
  what: string,
  deadline: number,
  get: (nextToken?: string) => Promise<GetPage<T>>,
): Promise<{ pages: number; items: T[]; version?: string }> {
  let delay = 200;
  for (;;) {
    const first = await get();
    if (first.JobStatus === 'SUCCEEDED' || first.JobStatus === 'PARTIAL_SUCCESS') {
      const items = [...first.items];
      let token = first.NextToken;
      while (token) {
        const next = await get(token);
        items.push(...next.items);
        token = next.NextToken;
      }
      return { pages: first.DocumentMetadata?.Pages ?? 0, items, version: first.version };
    }
    if (first.JobStatus === 'FAILED') {
      const message = first.StatusMessage ?? '';
      const problem = problemOf('', message);
      if (problem) throw new DocumentAnalysisError(problem, MESSAGES[problem]);
      throw new Error(`Textract ${what} failed${message ? `: ${message}` : ''}`);
    }
    if (Date.now() + delay > deadline) {
      throw new Error(`Textract ${what} did not finish in time; the capture will be tried again.`);
    }
    await sleep(delay);
    delay = Math.min(delay * 1.5, 5000);
  }
}

function geometryOf(g: SdkGeometry | undefined): Geometry | undefined {
  const b = g?.BoundingBox;
  if (b?.Left === undefined || b.Top === undefined || b.Width === undefined || b.Height === undefined) {
    return undefined;
  }
  const polygon = g?.Polygon?.flatMap((p) =>
    p.X === undefined || p.Y === undefined ? [] : [{ X: p.X, Y: p.Y }],
  );
  return {
    BoundingBox: { Left: b.Left, Top: b.Top, Width: b.Width, Height: b.Height },
    ...(polygon && polygon.length > 0 ? { Polygon: polygon } : {}),
  };
}

/** The SDK types every field as optional; capture's types name what a block always has. */
function blockOf(b: SdkBlock): Block | undefined {
  if (!b.Id || !b.BlockType) return undefined;
  return {
    Id: b.Id,
    BlockType: b.BlockType,
    Page: b.Page,
    Text: b.Text,
    Confidence: b.Confidence,
    TextType: b.TextType,
    Geometry: geometryOf(b.Geometry),
    Relationships: b.Relationships?.flatMap((r) => (r.Type ? [{ Type: r.Type, Ids: r.Ids ?? [] }] : [])),
    EntityTypes: b.EntityTypes,
    RowIndex: b.RowIndex,
    ColumnIndex: b.ColumnIndex,
    RowSpan: b.RowSpan,
    ColumnSpan: b.ColumnSpan,
    SelectionStatus: b.SelectionStatus,
  };
}

function detectionOf(d: SdkDetection | undefined): ExpenseDetection | undefined {
  if (!d) return undefined;
  return { Text: d.Text, Geometry: geometryOf(d.Geometry), Confidence: d.Confidence };
}

function fieldOf(f: SdkExpenseField): ExpenseField {
  return {
    Type: f.Type?.Text ? { Text: f.Type.Text, Confidence: f.Type.Confidence } : undefined,
    LabelDetection: detectionOf(f.LabelDetection),
    ValueDetection: detectionOf(f.ValueDetection),
    PageNumber: f.PageNumber,
    Currency: f.Currency ? { Code: f.Currency.Code } : undefined,
    GroupProperties: f.GroupProperties?.map((g) => ({ Types: g.Types, Id: g.Id })),
  };
}

function expenseDocumentOf(d: SdkExpenseDocument): ExpenseDocument {
  return {
    ExpenseIndex: d.ExpenseIndex,
    SummaryFields: d.SummaryFields?.map(fieldOf),
    LineItemGroups: d.LineItemGroups?.map((g) => ({
      LineItemGroupIndex: g.LineItemGroupIndex,
      LineItems: g.LineItems?.map((item) => ({
        LineItemExpenseFields: item.LineItemExpenseFields?.map(fieldOf),
      })),
    })),
    Blocks: d.Blocks?.flatMap((b) => blockOf(b) ?? []),
  };
}
