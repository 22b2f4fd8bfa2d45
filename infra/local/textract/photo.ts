/**
 * Makes a photographed page readable for the OCR engine, which reads flat, upright, evenly lit scans
 * well and photos badly: the page is found on the desk and pulled flat (perspective), or else turned
 * upright by its skew, the shading of the light is divided out and small print is enlarged. The result
 * is a grey PGM of the corrected page; word places read from it are fractions of that corrected page
 * (not of the photo), which keeps rows straight for the extraction.
 */

/** Grey pixels, one byte each, row by row. */
export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Text on a photo is usually small: the corrected page is drawn at least this wide (pixels). */
const MIN_PAGE_WIDTH = 2000;
/** …and never more than this many pixels, to keep the OCR time of one page to seconds. */
const MAX_PAGE_PIXELS = 9_000_000;
/** The page must cover this share of the photo to be taken for the page (else it is a close-up). */
const MIN_PAGE_SHARE = 0.25;
/** Skews tried, in degrees; a photo held more askew than this is turned by the engine's own layout. */
const MAX_SKEW = 15;

export async function decodeImage(
  bytes: Uint8Array,
): Promise<{ rgba: Uint8ClampedArray; width: number; height: number } | undefined> {
  const { loadImage, createCanvas } = await import('@napi-rs/canvas');
  try {
    const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const canvas = createCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    return {
      rgba: context.getImageData(0, 0, image.width, image.height).data,
      width: image.width,
      height: image.height,
    };
  } catch {
    // A format the canvas cannot decode (TIFF): the engine reads it as it is.
    return undefined;
  }
}

/** The corrected page of a photo, as grey pixels. */
export function correctPhoto(rgba: Uint8ClampedArray, width: number, height: number): Grey {
  const grey = toGrey(rgba, width, height);
  const quad = findPage(rgba, width, height);
  const flat = quad ? unwarp(grey, quad) : deskew(grey);
  return flattenShading(flat);
}

export function toGrey(rgba: Uint8ClampedArray, width: number, height: number): Grey {
  const data = new Uint8Array(width * height);
  for (let i = 0, j = 0; j < data.length; i += 4, j++) {
    data[j] = ((rgba[i] ?? 0) * 77 + (rgba[i + 1] ?? 0) * 150 + (rgba[i + 2] ?? 0) * 29) >> 8;
  }
  return { data, width, height };
}

export function toPgm(grey: Grey): Uint8Array {
  const header = Buffer.from(`P5\n${grey.width} ${grey.height}\n255\n`, 'latin1');
  const pgm = new Uint8Array(header.length + grey.data.length);
  pgm.set(header);
  pgm.set(grey.data, header.length);
  return pgm;
}

type Point = { x: number; y: number };
/** Corners of the page in the photo: top left, top right, bottom right, bottom left. */
type Quad = [Point, Point, Point, Point];

/**
 * Paper is grey (white, shaded, printed black or blue), a desk or floor is coloured (wood, carpet) or
 * far darker: the page is the largest paper-coloured region, and its corners the points furthest out
 * along the diagonals.
 */
function findPage(rgba: Uint8ClampedArray, width: number, height: number): Quad | undefined {
  const step = Math.max(1, Math.round(Math.max(width, height) / 400));
  const w = Math.floor(width / step);
  const h = Math.floor(height / step);
  const paper = new Uint8Array(w * h);
  let background = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = (y * step * width + x * step) * 4;
      const r = rgba[i] ?? 0;
      const b = rgba[i + 2] ?? 0;
      const isPaper = r - b < Math.max(12, 0.1 * r) && Math.max(r, b) > 40;
      paper[y * w + x] = isPaper ? 1 : 0;
      if (!isPaper) background++;
    }
  }
  // A photo that is all paper (a close-up, a scan) has no edges to find.
  if (background < 0.03 * w * h) return undefined;
  const region = largestRegion(paper, w, h);
  if (region.length < MIN_PAGE_SHARE * w * h) return undefined;
  let tl = region[0] as number;
  let tr = tl;
  let br = tl;
  let bl = tl;
  const at = (p: number) => ({ x: p % w, y: Math.floor(p / w) });
  for (const p of region) {
    const { x, y } = at(p);
    const score = (q: number, f: (pt: Point) => number) => f(at(q));
    if (x + y < score(tl, (c) => c.x + c.y)) tl = p;
    if (x - y > score(tr, (c) => c.x - c.y)) tr = p;
    if (x + y > score(br, (c) => c.x + c.y)) br = p;
    if (y - x > score(bl, (c) => c.y - c.x)) bl = p;
  }
  const scale = (p: number): Point => ({ x: (at(p).x + 0.5) * step, y: (at(p).y + 0.5) * step });
  const quad: Quad = [scale(tl), scale(tr), scale(br), scale(bl)];
  // Corners found on a region that is not a quadrilateral (a torn edge, a hand) make a skewed page.
  if (quadArea(quad) < 0.8 * region.length * step * step) return undefined;
  return quad;
}

function largestRegion(mask: Uint8Array, w: number, h: number): number[] {
  const seen = new Uint8Array(w * h);
  let best: number[] = [];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const region: number[] = [];
    seen[start] = 1;
    stack.push(start);
    while (stack.length > 0) {
      const p = stack.pop() as number;
      region.push(p);
      const x = p % w;
      const next = [x > 0 ? p - 1 : -1, x < w - 1 ? p + 1 : -1, p - w, p + w];
      for (const q of next) {
        if (q < 0 || q >= mask.length || !mask[q] || seen[q]) continue;
        seen[q] = 1;
        stack.push(q);
      }
    }
    if (region.length > best.length) best = region;
  }
  return best;
}

function quadArea(q: Quad): number {
  let area = 0;
  for (let i = 0; i < 4; i++) {
    const a = q[i] as Point;
    const b = q[(i + 1) % 4] as Point;
    area += a.x * b.y - b.x * a.y;
  }
  return Math.abs(area) / 2;
}

const dist = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);

/** Output size for a page of the given size in the photo: enlarged for small print, capped in pixels. */
function outputSize(pageWidth: number, pageHeight: number): { width: number; height: number } {
  let scale = Math.max(1, MIN_PAGE_WIDTH / pageWidth);
  scale = Math.min(scale, Math.sqrt(MAX_PAGE_PIXELS / (pageWidth * pageHeight)));
  return { width: Math.round(pageWidth * scale), height: Math.round(pageHeight * scale) };
}

/** Draws the page inside `quad` as a flat rectangle (a perspective warp, sampled bilinearly). */
function unwarp(grey: Grey, quad: Quad): Grey {
  const [tl, tr, br, bl] = quad;
  const size = outputSize((dist(tl, tr) + dist(bl, br)) / 2, (dist(tl, bl) + dist(tr, br)) / 2);
  // Maps the unit square onto the quad; output pixel (u, v) is read at H(u / width, v / height).
  const h = squareToQuad(quad);
  const out = new Uint8Array(size.width * size.height);
  for (let y = 0; y < size.height; y++) {
    const v = (y + 0.5) / size.height;
    for (let x = 0; x < size.width; x++) {
      const u = (x + 0.5) / size.width;
      const z = h[6] * u + h[7] * v + 1;
      const sx = (h[0] * u + h[1] * v + h[2]) / z;
      const sy = (h[3] * u + h[4] * v + h[5]) / z;
      out[y * size.width + x] = sample(grey, sx - 0.5, sy - 0.5);
    }
  }
  return { data: out, width: size.width, height: size.height };
}

/** Heckbert's closed form for the projective map of the unit square onto a quadrilateral. */
function squareToQuad(q: Quad): [number, number, number, number, number, number, number, number] {
  const [p0, p1, p2, p3] = q;
  const dx1 = p1.x - p2.x;
  const dx2 = p3.x - p2.x;
  const dy1 = p1.y - p2.y;
  const dy2 = p3.y - p2.y;
  const sx = p0.x - p1.x + p2.x - p3.x;
  const sy = p0.y - p1.y + p2.y - p3.y;
  const den = dx1 * dy2 - dx2 * dy1;
  const g = den === 0 ? 0 : (sx * dy2 - dx2 * sy) / den;
  const hh = den === 0 ? 0 : (dx1 * sy - sx * dy1) / den;
  return [
    p1.x - p0.x + g * p1.x,
    p3.x - p0.x + hh * p3.x,
    p0.x,
    p1.y - p0.y + g * p1.y,
    p3.y - p0.y + hh * p3.y,
    p0.y,
    g,
    hh,
  ];
}

function sample(grey: Grey, x: number, y: number): number {
  const { data, width, height } = grey;
  const x0 = Math.max(0, Math.min(width - 1, Math.floor(x)));
  const y0 = Math.max(0, Math.min(height - 1, Math.floor(y)));
  const x1 = Math.min(width - 1, x0 + 1);
  const y1 = Math.min(height - 1, y0 + 1);
  const fx = Math.max(0, Math.min(1, x - x0));
  const fy = Math.max(0, Math.min(1, y - y0));
  const a = (data[y0 * width + x0] ?? 0) * (1 - fx) + (data[y0 * width + x1] ?? 0) * fx;
  const b = (data[y1 * width + x0] ?? 0) * (1 - fx) + (data[y1 * width + x1] ?? 0) * fx;
  return a * (1 - fy) + b * fy;
}

/**
 * The skew of the text in degrees (clockwise positive): the angle at which the dark pixels' row sums
 * vary most, that is where lines of text and the gaps between them line up with the rows.
 */
export function skewOf(grey: Grey): number {
  const step = Math.max(1, Math.round(Math.max(grey.width, grey.height) / 800));
  const w = Math.floor(grey.width / step);
  const h = Math.floor(grey.height / step);
  const ink: number[] = [];
  let sum = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) sum += grey.data[y * step * grey.width + x * step] ?? 0;
  const mean = sum / (w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if ((grey.data[y * step * grey.width + x * step] ?? 255) < mean * 0.75) ink.push(x - w / 2, y - h / 2);
    }
  }
  const variance = (degrees: number) => {
    const t = Math.tan((degrees * Math.PI) / 180);
    const rows = new Float64Array(Math.ceil(h + w * Math.abs(t)) + 2);
    const offset = rows.length / 2;
    for (let i = 0; i < ink.length; i += 2) {
      const row = Math.floor((ink[i + 1] as number) - (ink[i] as number) * t + offset);
      rows[row] = (rows[row] ?? 0) + 1;
    }
    let s = 0;
    for (const r of rows) s += r * r;
    return s;
  };
  let best = 0;
  let bestScore = -1;
  for (let a = -MAX_SKEW; a <= MAX_SKEW; a += 1) {
    const score = variance(a);
    if (score > bestScore) [best, bestScore] = [a, score];
  }
  const coarse = best;
  for (let a = coarse - 1; a <= coarse + 1; a += 0.1) {
    const score = variance(a);
    if (score > bestScore) [best, bestScore] = [a, score];
  }
  return best;
}

/** Turns the image upright by its skew (and enlarges small print), filling the corners with white. */
export function deskew(grey: Grey): Grey {
  const angle = skewOf(grey);
  const size = outputSize(grey.width, grey.height);
  const scale = size.width / grey.width;
  if (Math.abs(angle) < 0.2 && scale === 1) return grey;
  const t = (-angle * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const out = new Uint8Array(size.width * size.height);
  const cx = grey.width / 2;
  const cy = grey.height / 2;
  for (let y = 0; y < size.height; y++) {
    const dy = (y + 0.5) / scale - cy;
    for (let x = 0; x < size.width; x++) {
      const dx = (x + 0.5) / scale - cx;
      const sx = cx + dx * cos + dy * sin;
      const sy = cy - dx * sin + dy * cos;
      const inside = sx >= 0 && sy >= 0 && sx < grey.width && sy < grey.height;
      out[y * size.width + x] = inside ? sample(grey, sx - 0.5, sy - 0.5) : 255;
    }
  }
  return { data: out, width: size.width, height: size.height };
}

/**
 * Divides out uneven light: each pixel over the brightest paper around it (a local maximum, smoothed),
 * so shaded paper turns white and print keeps its contrast against it.
 */
export function flattenShading(grey: Grey): Grey {
  const { data, width, height } = grey;
  const cell = Math.max(8, Math.round(Math.max(width, height) / 60));
  const cw = Math.ceil(width / cell);
  const ch = Math.ceil(height / cell);
  // The paper's brightness per cell: a high percentile, so print does not darken it.
  const cells = new Float64Array(cw * ch);
  const histogram = new Uint32Array(256);
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      histogram.fill(0);
      let n = 0;
      for (let y = cy * cell; y < Math.min(height, (cy + 1) * cell); y += 2) {
        for (let x = cx * cell; x < Math.min(width, (cx + 1) * cell); x += 2) {
          histogram[data[y * width + x] ?? 0] = (histogram[data[y * width + x] ?? 0] ?? 0) + 1;
          n++;
        }
      }
      let seen = 0;
      let level = 255;
      while (level > 0 && seen + (histogram[level] ?? 0) < n * 0.1) seen += histogram[level--] ?? 0;
      cells[cy * cw + cx] = level;
    }
  }
  // Cells that are all print (a dark banner) take the paper of their neighbours: a max over 3×3, then
  // a blur, so the light varies smoothly.
  const spread = (source: Float64Array, pick: (values: number[]) => number) => {
    const result = new Float64Array(source.length);
    for (let cy = 0; cy < ch; cy++) {
      for (let cx = 0; cx < cw; cx++) {
        const values: number[] = [];
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            const x = cx + dx;
            const y = cy + dy;
            if (x >= 0 && y >= 0 && x < cw && y < ch) values.push(source[y * cw + x] ?? 0);
          }
        }
        result[cy * cw + cx] = pick(values);
      }
    }
    return result;
  };
  const average = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const light = spread(
    spread(
      spread(cells, (v) => Math.max(...v)),
      average,
    ),
    average,
  );
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(ch - 1, Math.max(0, (y + 0.5) / cell - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(ch - 1, y0 + 1);
    const ty = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(cw - 1, Math.max(0, (x + 0.5) / cell - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(cw - 1, x0 + 1);
      const tx = fx - x0;
      const l =
        ((light[y0 * cw + x0] ?? 255) * (1 - tx) + (light[y0 * cw + x1] ?? 255) * tx) * (1 - ty) +
        ((light[y1 * cw + x0] ?? 255) * (1 - tx) + (light[y1 * cw + x1] ?? 255) * tx) * ty;
      const v = ((data[y * width + x] ?? 0) * 255) / Math.max(32, l);
      out[y * width + x] = tone(v);
    }
  }
  return { data: out, width, height };
}

/**
 * Paper at or above this (after the light is divided out) is white; print at or below INK is black.
 * Photographed print is soft and light grey labels fade: stretching the tones between gives the engine's
 * own thresholding clear strokes to find, where binarising here would eat thin strokes.
 */
const PAPER = 225;
const INK = 110;
const tone = (v: number) => Math.max(0, Math.min(255, Math.round(((v - INK) * 255) / (PAPER - INK))));
