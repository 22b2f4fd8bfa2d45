import type { TemplatePreview } from '../../capture/extract.ts';
import type { InvoiceKey, TemplateValueType } from '../../capture/model.ts';
import type { BoundingBox } from '../../capture/textract.ts';

/** Answers of the bill template calls (`/templates…`), as the browser reads them. */

export interface InvoiceKeyOption {
  key: InvoiceKey;
  name: string;
  type: TemplateValueType;
}

export interface PreviewText {
  text: string;
  box: BoundingBox;
  confidence?: number;
}

export interface PreviewPage {
  page: number;
  lines: PreviewText[];
  words: PreviewText[];
  cells: { row: number; column: number; box: BoundingBox }[];
}

export interface PreviewJob {
  jobId: string;
  templateId: string;
  status: 'running' | 'succeeded' | 'failed';
  pageCount?: number;
  error?: string;
}

export interface InvoicePreview extends PreviewJob {
  ocr?: boolean;
  results?: TemplatePreview;
  pages?: PreviewPage[];
}

export interface SampleTicket {
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  key: string;
}

/** A template's sample PDF: a signed address, and the name it was uploaded under. */
export interface SampleLink {
  url: string;
  fileName?: string;
}
