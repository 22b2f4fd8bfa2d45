/**
 * The part of Amazon Textract's response shape that capture reads, written out here because `shared/`
 * never imports the AWS SDK. Field names and casing are Textract's own, so a response of the real
 * service (or of the local stand-in) is assignable to these types as it arrives on the wire.
 */

/** Fractions of the page's width and height, origin at the top left, as Textract gives them. */
export interface BoundingBox {
  Left: number;
  Top: number;
  Width: number;
  Height: number;
}

export interface Point {
  X: number;
  Y: number;
}

export interface Geometry {
  BoundingBox: BoundingBox;
  Polygon?: Point[];
}

export type BlockType =
  | 'PAGE'
  | 'LINE'
  | 'WORD'
  | 'TABLE'
  | 'CELL'
  | 'MERGED_CELL'
  | 'KEY_VALUE_SET'
  | 'SELECTION_ELEMENT';

export interface Relationship {
  Type: 'CHILD' | 'VALUE' | 'ANSWER' | 'MERGED_CELL' | 'TITLE' | 'TABLE' | string;
  Ids: string[];
}

export interface Block {
  Id: string;
  BlockType: BlockType | string;
  /** 1-based; Textract gives it on every block of a multi-page (asynchronous) analysis. */
  Page?: number;
  Text?: string;
  /** 0 to 100 */
  Confidence?: number;
  TextType?: 'PRINTED' | 'HANDWRITING';
  Geometry?: Geometry;
  Relationships?: Relationship[];
  EntityTypes?: ('KEY' | 'VALUE' | 'COLUMN_HEADER' | string)[];
  RowIndex?: number;
  ColumnIndex?: number;
  RowSpan?: number;
  ColumnSpan?: number;
  SelectionStatus?: 'SELECTED' | 'NOT_SELECTED';
}

export interface DocumentMetadata {
  Pages: number;
}

/** AnalyzeDocument / GetDocumentAnalysis / DetectDocumentText. */
export interface DocumentAnalysis {
  DocumentMetadata: DocumentMetadata;
  Blocks: Block[];
}

export interface ExpenseDetection {
  Text?: string;
  Geometry?: Geometry;
  Confidence?: number;
}

export interface ExpenseType {
  /** INVOICE_RECEIPT_ID, INVOICE_RECEIPT_DATE, DUE_DATE, ACCOUNT_NUMBER, SUBTOTAL, TAX, TOTAL, AMOUNT_DUE, ... */
  Text: string;
  Confidence?: number;
}

export interface ExpenseField {
  Type?: ExpenseType;
  LabelDetection?: ExpenseDetection;
  ValueDetection?: ExpenseDetection;
  PageNumber?: number;
  Currency?: { Code?: string };
  GroupProperties?: { Types?: string[]; Id?: string }[];
}

export interface LineItemFields {
  LineItemExpenseFields?: ExpenseField[];
}

export interface LineItemGroup {
  LineItemGroupIndex?: number;
  LineItems?: LineItemFields[];
}

export interface ExpenseDocument {
  ExpenseIndex?: number;
  SummaryFields?: ExpenseField[];
  LineItemGroups?: LineItemGroup[];
  Blocks?: Block[];
}

/** AnalyzeExpense / GetExpenseAnalysis. */
export interface ExpenseAnalysis {
  DocumentMetadata: DocumentMetadata;
  ExpenseDocuments: ExpenseDocument[];
}

/** What the capture worker hands to extraction: both analyses of one document. */
export interface TextractOutput {
  document: DocumentAnalysis;
  expense?: ExpenseAnalysis;
  /** The pages were read by OCR from images (a scan or a photo) rather than from a text layer. */
  ocr?: boolean;
}
