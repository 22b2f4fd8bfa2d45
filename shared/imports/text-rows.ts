/**
 * Delimited text read a chunk at a time: the encoding worked out from the first bytes (a UTF-8 byte-order
 * mark, valid UTF-8, or else Windows-1252, the encoding spreadsheets on Windows save CSV in), the delimiter
 * from the first line (comma, semicolon, tab or bar, whichever occurs most outside quotes), and records
 * parsed as RFC 4180 describes them, quoted fields spanning lines included. Nothing holds the whole file.
 */

export type TextEncodingName = 'utf-8' | 'windows-1252';

export interface TextRecord {
  /** 1-based row of the file, the header being 1. */
  row: number;
  fields: string[];
}

export class FileFormatError extends Error {
  readonly row: number | undefined;
  constructor(message: string, row?: number) {
    super(message);
    this.name = 'FileFormatError';
    this.row = row;
  }
}

/** Decodes chunks as UTF-8 until a byte sequence proves the file is not, then as Windows-1252. */
export class ChunkDecoder {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private readonly cp1252 = new TextDecoder('windows-1252');
  /** The bytes of a UTF-8 sequence the last chunk cut off, decoded with the next. */
  private pending: Uint8Array = new Uint8Array(0);
  private started = false;
  encoding: TextEncodingName = 'utf-8';

  decode(chunk: Uint8Array): string {
    let bytes = chunk;
    if (this.pending.length > 0) {
      bytes = new Uint8Array(this.pending.length + chunk.length);
      bytes.set(this.pending);
      bytes.set(chunk, this.pending.length);
      this.pending = new Uint8Array(0);
    }
    if (!this.started && bytes.length > 0) {
      this.started = true;
      if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
    }
    if (this.encoding === 'windows-1252') return this.cp1252.decode(bytes);
    const cut = completeLength(bytes);
    this.pending = bytes.slice(cut);
    try {
      return this.utf8.decode(bytes.subarray(0, cut));
    } catch {
      // ASCII reads the same in both, so what was decoded before this chunk stands.
      this.encoding = 'windows-1252';
      const rest = this.pending;
      this.pending = new Uint8Array(0);
      return this.cp1252.decode(bytes.subarray(0, cut)) + this.cp1252.decode(rest);
    }
  }

  end(): string {
    const rest = this.pending;
    this.pending = new Uint8Array(0);
    if (rest.length === 0) return '';
    try {
      return this.utf8.decode(rest);
    } catch {
      this.encoding = 'windows-1252';
      return this.cp1252.decode(rest);
    }
  }
}

/** How many bytes from the start hold whole UTF-8 sequences: a sequence cut off at the end is left out. */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back] as number;
    if ((b & 0xc0) === 0x80) continue;
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
    return need > back ? n - back : n;
  }
  return n;
}

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The delimiter of the first line: the candidate found most often outside quotes; comma on a tie. */
export function sniffDelimiter(text: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (DELIMITERS as readonly string[]).includes(c))
      counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let best = ',';
  let most = 0;
  for (const d of DELIMITERS) {
    const n = counts.get(d) ?? 0;
    if (n > most) {
      best = d;
      most = n;
    }
  }
  return best;
}

/** A resumable RFC 4180 parser: feed it text, take the records completed so far. */
export class DelimitedParser {
  private delimiter: string | undefined;
  private fields: string[] = [];
  private field = '';
  private quoted = false;
  /** Inside quotes, a quote was just read: either the closing one or the first of a doubled pair. */
  private quotePending = false;
  private fieldStarted = false;
  private afterCr = false;
  private row = 1;
  private head = '';
  private first = true;

  constructor(delimiter?: string) {
    this.delimiter = delimiter;
  }

  get chosenDelimiter(): string {
    return this.delimiter ?? ',';
  }

  feed(text: string, out: TextRecord[]): void {
    let src = text;
    if (this.delimiter === undefined) {
      // Enough of the start to see the first line whole.
      this.head += src;
      if (!/[\r\n]/.test(this.head) && this.head.length < 65_536) return;
      this.delimiter = sniffDelimiter(this.head.replace(/^\uFEFF/, ''));
      src = this.head;
      this.head = '';
    }
    if (this.first && src.length > 0) {
      this.first = false;
      if (src.charCodeAt(0) === 0xfeff) src = src.slice(1);
    }
    const d = this.delimiter;
    let i = 0;
    const n = src.length;
    while (i < n) {
      const c = src[i] as string;
      if (this.afterCr) {
        this.afterCr = false;
        if (c === '\n') {
          i++;
          continue;
        }
      }
      if (this.quoted) {
        if (this.quotePending) {
          this.quotePending = false;
          if (c === '"') {
            this.field += '"';
            i++;
            continue;
          }
          this.quoted = false;
          if (c !== d && c !== '\r' && c !== '\n')
            throw new FileFormatError(`Row ${this.row}: unexpected text after a closing quote`, this.row);
          continue;
        }
        const close = src.indexOf('"', i);
        if (close < 0) {
          this.field += src.slice(i);
          i = n;
          continue;
        }
        this.field += src.slice(i, close);
        this.quotePending = true;
        i = close + 1;
        continue;
      }
      if (c === '"' && !this.fieldStarted) {
        this.quoted = true;
        this.fieldStarted = true;
        i++;
        continue;
      }
      if (c === d) {
        this.endField();
        i++;
        continue;
      }
      if (c === '\r' || c === '\n') {
        this.endRecord(out);
        this.afterCr = c === '\r';
        i++;
        continue;
      }
      // A run of plain characters at once: most of a file is these.
      let j = i + 1;
      while (j < n) {
        const k = src[j];
        if (k === d || k === '\r' || k === '\n' || k === '"') break;
        j++;
      }
      if (src[j] === '"' && j < n) {
        // A quote inside an unquoted value: kept as text, as spreadsheets read it.
        j++;
      }
      this.field += src.slice(i, j);
      this.fieldStarted = true;
      i = j;
    }
  }

  end(out: TextRecord[]): void {
    if (this.head) {
      const rest = this.head;
      this.head = '';
      this.delimiter = sniffDelimiter(rest.replace(/^\uFEFF/, ''));
      this.feed(rest, out);
    }
    if (this.quoted && !this.quotePending)
      throw new FileFormatError(`Row ${this.row}: a quoted value is never closed`, this.row);
    this.quoted = false;
    this.quotePending = false;
    if (this.fieldStarted || this.fields.length > 0) this.endRecord(out);
  }

  private endField() {
    this.fields.push(this.field);
    this.field = '';
    this.fieldStarted = false;
  }

  private endRecord(out: TextRecord[]) {
    this.endField();
    const fields = this.fields;
    this.fields = [];
    if (!(fields.length === 1 && fields[0] === '')) out.push({ row: this.row, fields });
    this.row++;
  }
}

/**
 * Records of a delimited file given as chunks of bytes, in file order, a batch at a time. `onFacts` hears
 * the encoding and delimiter with every batch: the encoding may change once a byte proves it is not UTF-8.
 */
export async function* delimitedRecords(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  onFacts?: (encoding: TextEncodingName, delimiter: string) => void,
): AsyncGenerator<TextRecord[]> {
  const decoder = new ChunkDecoder();
  const parser = new DelimitedParser();
  for await (const chunk of chunks) {
    const out: TextRecord[] = [];
    parser.feed(decoder.decode(chunk), out);
    if (out.length > 0) {
      onFacts?.(decoder.encoding, parser.chosenDelimiter);
      yield out;
    }
  }
  const out: TextRecord[] = [];
  parser.feed(decoder.end(), out);
  parser.end(out);
  onFacts?.(decoder.encoding, parser.chosenDelimiter);
  if (out.length > 0) yield out;
}
