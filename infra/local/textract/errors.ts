/** The error types Textract answers with (`__type` on the wire); the SDK turns each into its own class. */
export type TextractErrorType =
  | 'InvalidParameterException'
  | 'UnsupportedDocumentException'
  | 'BadDocumentException'
  | 'DocumentTooLargeException'
  | 'InvalidJobIdException'
  | 'InvalidS3ObjectException'
  | 'UnknownOperationException'
  | 'SerializationException'
  | 'InternalServerError';

export class TextractError extends Error {
  readonly type: TextractErrorType;
  readonly status: number;

  constructor(type: TextractErrorType, message: string, status = 400) {
    super(message);
    this.name = type;
    this.type = type;
    this.status = status;
  }
}

/** What crosses the reader thread's boundary for a failed read. */
export interface ErrorData {
  type: TextractErrorType;
  message: string;
}

export const errorData = (err: unknown): ErrorData =>
  err instanceof TextractError
    ? { type: err.type, message: err.message }
    : { type: 'InternalServerError', message: err instanceof Error ? err.message : String(err) };

export const fromErrorData = (data: ErrorData) =>
  new TextractError(data.type, data.message, data.type === 'InternalServerError' ? 500 : 400);

export const ENCRYPTED_MESSAGE =
  'The document is encrypted (password-protected); Textract cannot read encrypted PDFs.';

export const multiPageMessage = (pages: number, format: string) =>
  `Synchronous operations accept single-page documents only; this ${format} has ${pages} pages ` +
  '(use the asynchronous Start* operations).';
