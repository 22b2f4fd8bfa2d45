import type { BoundingBox, Point } from '../../../shared/capture/textract.ts';

/**
 * What the reader gives the response builders: the words of each page, grouped into lines, with their
 * places as fractions of the page (origin top left, as in Textract). It crosses a thread boundary, so
 * it holds plain data only.
 */
export interface TextWord {
  text: string;
  box: BoundingBox;
  /** Corners in reading order: top left, top right, bottom right, bottom left of the word as written. */
  polygon: Point[];
  /** 0 to 100 */
  confidence: number;
}

export interface TextLine {
  words: TextWord[];
}

export interface PageText {
  /** Page width divided by height, to compare horizontal and vertical distances. */
  aspect: number;
  /** Lines in reading order: rows from the top, each row from the left. */
  lines: TextLine[];
  /** Read by OCR from an image rather than from a text layer. */
  ocr: boolean;
}

export interface DocumentText {
  pages: PageText[];
}

export function unionBox(boxes: readonly BoundingBox[]): BoundingBox {
  let left = 1;
  let top = 1;
  let right = 0;
  let bottom = 0;
  for (const b of boxes) {
    left = Math.min(left, b.Left);
    top = Math.min(top, b.Top);
    right = Math.max(right, b.Left + b.Width);
    bottom = Math.max(bottom, b.Top + b.Height);
  }
  if (right < left) return { Left: 0, Top: 0, Width: 0, Height: 0 };
  return { Left: left, Top: top, Width: right - left, Height: bottom - top };
}

export const boxPolygon = (b: BoundingBox): Point[] => [
  { X: b.Left, Y: b.Top },
  { X: b.Left + b.Width, Y: b.Top },
  { X: b.Left + b.Width, Y: b.Top + b.Height },
  { X: b.Left, Y: b.Top + b.Height },
];

export const lineText = (line: TextLine) => line.words.map((w) => w.text).join(' ');
export const lineBox = (line: TextLine) => unionBox(line.words.map((w) => w.box));
export const lineConfidence = (line: TextLine) =>
  line.words.reduce((sum, w) => sum + w.confidence, 0) / Math.max(1, line.words.length);
