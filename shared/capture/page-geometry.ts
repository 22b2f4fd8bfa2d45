import type { BoundingBox } from './textract.ts';

/** Boxes on a page, in Textract's page fractions: overlaps, centres, rows and columns. */

export function unionBox(boxes: BoundingBox[]): BoundingBox | undefined {
  if (boxes.length === 0) return undefined;
  let left = Number.POSITIVE_INFINITY;
  let top = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  let bottom = Number.NEGATIVE_INFINITY;
  for (const b of boxes) {
    left = Math.min(left, b.Left);
    top = Math.min(top, b.Top);
    right = Math.max(right, b.Left + b.Width);
    bottom = Math.max(bottom, b.Top + b.Height);
  }
  return { Left: left, Top: top, Width: right - left, Height: bottom - top };
}

export function centre(box: BoundingBox): { x: number; y: number } {
  return { x: box.Left + box.Width / 2, y: box.Top + box.Height / 2 };
}

export function centreInside(inner: BoundingBox, outer: BoundingBox): boolean {
  const c = centre(inner);
  return (
    c.x >= outer.Left &&
    c.x <= outer.Left + outer.Width &&
    c.y >= outer.Top &&
    c.y <= outer.Top + outer.Height
  );
}

/** How much of the shorter of two boxes' heights they share: 1 when on the same row. */
export function verticalOverlap(a: BoundingBox, b: BoundingBox): number {
  const shared = Math.min(a.Top + a.Height, b.Top + b.Height) - Math.max(a.Top, b.Top);
  const shorter = Math.min(a.Height, b.Height);
  return shorter > 0 ? Math.max(0, shared) / shorter : 0;
}

/** verticalOverlap on a page that may be skewed: b is levelled to a's position across the page. */
export function horizontalOverlap(a: BoundingBox, b: BoundingBox): number {
  return Math.max(0, Math.min(a.Left + a.Width, b.Left + b.Width) - Math.max(a.Left, b.Left));
}

/**
 * Which heading of a row a box printed below it belongs to: the heading it overlaps most, else the
 * last heading that starts left of its centre, as headings sit left-aligned over their columns while
 * figures are right-aligned. -1 when it lies left of every heading or far right of the last.
 */
export function headingOf(headings: readonly BoundingBox[], box: BoundingBox): number {
  let best = -1;
  let bestOverlap = 0;
  headings.forEach((h, i) => {
    const overlap = horizontalOverlap(h, box);
    if (overlap > bestOverlap) {
      best = i;
      bestOverlap = overlap;
    }
  });
  if (best >= 0) return best;
  const x = centre(box).x;
  let at = -1;
  headings.forEach((h, i) => {
    if (h.Left <= x && (at < 0 || h.Left > (headings[at] as BoundingBox).Left)) at = i;
  });
  const heading = headings[at];
  if (!heading) return -1;
  const starts = headings.some((h) => h.Left > heading.Left);
  return starts || x <= heading.Left + heading.Width + 0.25 ? at : -1;
}

/** About 6 pt on an A4 page: the smallest print a bill's lines use. */
const MIN_ROW_HEIGHT = 0.007;

/**
 * Groups boxes into rows by their vertical centres, each row left to right, rows top to bottom. The
 * shorter of a box and its row decides how close the centres must be, so a tall stamp or watermark
 * across the page does not pull the rows it crosses into one.
 */
export function clusterRows<T extends { box: BoundingBox }>(items: readonly T[], skew = 0): T[][] {
  // On a skewed scan a row drifts down (or up) across the page: compare heights as if it were level.
  const level = (box: BoundingBox) => centre(box).y - skew * centre(box).x;
  const sorted = [...items].sort((a, b) => level(a.box) - level(b.box));
  const rows: { items: T[]; y: number; height: number }[] = [];
  for (const item of sorted) {
    const c = level(item.box);
    const row = rows[rows.length - 1];
    // OCR gives a dash or a dot a box a hair high; measured by that, it would start a row of its own
    // and take the rest of its line with it. A row is at least as tall as small print.
    const height = Math.max(item.box.Height, MIN_ROW_HEIGHT);
    if (row && Math.abs(c - row.y) <= 0.5 * Math.min(height, row.height)) {
      row.items.push(item);
      row.y += (c - row.y) / row.items.length;
    } else {
      rows.push({ items: [item], y: c, height });
    }
  }
  return rows.map((r) => r.items.sort((a, b) => a.box.Left - b.box.Left));
}
