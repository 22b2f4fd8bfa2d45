import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { LOGO_MAX_PIXELS } from '../constants.ts';
import {
  cellText,
  formatNumber,
  type ReportChart,
  type ReportDocument,
  type ReportTable,
} from './report-document.ts';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const FOOTER = 30;
const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
const TOP = PAGE.height - MARGIN;
const BOTTOM = MARGIN + FOOTER;

const INK = rgb(0.13, 0.16, 0.2);
const MUTED = rgb(0.42, 0.46, 0.52);
const RULE = rgb(0.82, 0.85, 0.88);
const HEADER_FILL = rgb(0.91, 0.94, 0.97);
const ACCENT = rgb(0.05, 0.42, 0.55);
const SERIES = [
  rgb(0.05, 0.42, 0.55),
  rgb(0.93, 0.55, 0.13),
  rgb(0.36, 0.62, 0.25),
  rgb(0.6, 0.33, 0.63),
  rgb(0.85, 0.3, 0.3),
  rgb(0.5, 0.5, 0.5),
];

const ROW_HEIGHT = 14;
const TABLE_SIZE = 8.5;

/** What the standard fonts can encode (WinAnsi): anything else would stop the document being written. */
const WIN_ANSI_EXTRAS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
const SUBSCRIPTS: Readonly<Record<string, string>> = { '₂': '2', '₄': '4', '₀': '0', '₁': '1', '₃': '3' };

function winAnsi(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 63;
    if ((code >= 32 && code <= 126) || (code >= 160 && code <= 255) || WIN_ANSI_EXTRAS.includes(ch))
      out += ch;
    else if (ch === '\n' || ch === '\t') out += ' ';
    else out += SUBSCRIPTS[ch] ?? '?';
  }
  return out;
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Lays blocks out page after page, a new page whenever the next piece would run into the footer. */
class Layout {
  readonly pages: PDFPage[] = [];
  page!: PDFPage;
  y = TOP;

  readonly pdf: PDFDocument;
  readonly fonts: Fonts;

  constructor(pdf: PDFDocument, fonts: Fonts) {
    this.pdf = pdf;
    this.fonts = fonts;
  }

  newPage(): void {
    this.page = this.pdf.addPage([PAGE.width, PAGE.height]);
    this.pages.push(this.page);
    this.y = TOP;
  }

  /** Room for `height` more points on this page, else a fresh page; answers whether a page was added. */
  ensure(height: number): boolean {
    if (this.y - height >= BOTTOM) return false;
    this.newPage();
    return true;
  }

  text(text: string, x: number, y: number, size: number, font: PDFFont = this.fonts.regular, color = INK) {
    this.page.drawText(winAnsi(text), { x, y, size, font, color });
  }
}

/** The longest start of `text` that fits `width`, with an ellipsis when cut. */
function fitText(text: string, font: PDFFont, size: number, width: number): string {
  const clean = winAnsi(text);
  if (font.widthOfTextAtSize(clean, size) <= width) return clean;
  let lo = 0;
  let hi = clean.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (font.widthOfTextAtSize(`${clean.slice(0, mid)}…`, size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${clean.slice(0, lo)}…`;
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of winAnsi(text).split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

function drawParagraph(layout: Layout, text: string): void {
  const size = 10;
  for (const line of wrap(text, layout.fonts.regular, size, CONTENT_WIDTH)) {
    layout.ensure(14);
    layout.text(line, MARGIN, layout.y - size, size);
    layout.y -= 14;
  }
  layout.y -= 8;
}

function drawFigures(layout: Layout, items: readonly { label: string; value: string }[]): void {
  const perRow = 3;
  const gap = 10;
  const boxWidth = (CONTENT_WIDTH - gap * (perRow - 1)) / perRow;
  const boxHeight = 50;
  for (let i = 0; i < items.length; i += perRow) {
    layout.ensure(boxHeight + gap);
    items.slice(i, i + perRow).forEach((item, j) => {
      const x = MARGIN + j * (boxWidth + gap);
      const y = layout.y - boxHeight;
      layout.page.drawRectangle({ x, y, width: boxWidth, height: boxHeight, color: HEADER_FILL });
      layout.page.drawText(fitText(item.label, layout.fonts.regular, 8.5, boxWidth - 16), {
        x: x + 8,
        y: y + boxHeight - 16,
        size: 8.5,
        font: layout.fonts.regular,
        color: MUTED,
      });
      layout.page.drawText(fitText(item.value, layout.fonts.bold, 14, boxWidth - 16), {
        x: x + 8,
        y: y + 12,
        size: 14,
        font: layout.fonts.bold,
        color: INK,
      });
    });
    layout.y -= boxHeight + gap;
  }
  layout.y -= 6;
}

/** A round step for the value axis: 1, 2 or 5 times a power of ten, about five gridlines up to `max`. */
function axisStep(max: number): number {
  if (max <= 0) return 1;
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

/** A grouped bar chart drawn as vector paths: axes, gridlines with their values, bars, labels, legend. */
function drawChart(layout: Layout, chart: ReportChart): void {
  const height = 210;
  layout.ensure(height + 40);
  const { regular, bold } = layout.fonts;
  layout.text(chart.title, MARGIN, layout.y - 11, 11, bold);
  layout.y -= 22;
  const plotLeft = MARGIN + 52;
  const plotRight = MARGIN + CONTENT_WIDTH;
  const plotTop = layout.y - 6;
  const plotBottom = layout.y - height + 40;
  const max = Math.max(0, ...chart.bars.flatMap((b) => b.values));
  const step = axisStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const yOf = (v: number) => plotBottom + ((plotTop - plotBottom) * v) / top;
  for (let v = 0; v <= top + step / 2; v += step) {
    const y = yOf(v);
    layout.page.drawLine({
      start: { x: plotLeft, y },
      end: { x: plotRight, y },
      thickness: 0.5,
      color: RULE,
    });
    const label = formatNumber(v, step < 1 ? 2 : 0);
    layout.text(label, plotLeft - 4 - regular.widthOfTextAtSize(label, 7), y - 2.5, 7, regular, MUTED);
  }
  layout.text(chart.unit, MARGIN, plotTop + 4, 7, regular, MUTED);
  const groups = Math.max(1, chart.bars.length);
  const groupWidth = (plotRight - plotLeft) / groups;
  const series = Math.max(1, chart.series.length);
  const barWidth = Math.max(1, (groupWidth * 0.75) / series);
  const labelEvery = Math.max(1, Math.ceil((groups * 34) / (plotRight - plotLeft)));
  chart.bars.forEach((bar, g) => {
    const x0 = plotLeft + g * groupWidth + groupWidth * 0.125;
    bar.values.forEach((value, s) => {
      const h = Math.max(0, yOf(Math.max(0, value)) - plotBottom);
      if (h > 0)
        layout.page.drawRectangle({
          x: x0 + s * barWidth,
          y: plotBottom,
          width: barWidth,
          height: h,
          color: SERIES[s % SERIES.length],
        });
    });
    if (g % labelEvery === 0) {
      const label = fitText(bar.label, regular, 7, groupWidth * labelEvery - 2);
      layout.text(label, plotLeft + g * groupWidth + 1, plotBottom - 10, 7, regular, MUTED);
    }
  });
  layout.page.drawLine({
    start: { x: plotLeft, y: plotBottom },
    end: { x: plotRight, y: plotBottom },
    thickness: 0.8,
    color: INK,
  });
  let legendX = plotLeft;
  const legendY = plotBottom - 26;
  chart.series.forEach((name, s) => {
    layout.page.drawRectangle({
      x: legendX,
      y: legendY,
      width: 8,
      height: 8,
      color: SERIES[s % SERIES.length],
    });
    layout.text(name, legendX + 11, legendY + 1, 7.5);
    legendX += 11 + regular.widthOfTextAtSize(winAnsi(name), 7.5) + 14;
  });
  layout.y = legendY - 16;
}

/** A table across as many pages as it needs, its title and header repeated at the top of each. */
function drawTable(layout: Layout, table: ReportTable): void {
  const { regular, bold } = layout.fonts;
  const weights = table.columns.map((c) => c.width ?? 1);
  const sum = weights.reduce((a, b) => a + b, 0) || 1;
  const widths = weights.map((w) => (CONTENT_WIDTH * w) / sum);
  const xs = widths.map((_, i) => MARGIN + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const numeric = table.columns.map((c, i) =>
    c.format === 'text' ? false : table.rows.some((r) => typeof r[i] === 'number'),
  );

  const drawRow = (
    cells: readonly (string | number | null)[],
    font: PDFFont,
    fill?: ReturnType<typeof rgb>,
  ) => {
    if (fill)
      layout.page.drawRectangle({
        x: MARGIN,
        y: layout.y - ROW_HEIGHT,
        width: CONTENT_WIDTH,
        height: ROW_HEIGHT,
        color: fill,
      });
    cells.forEach((cell, i) => {
      const width = (widths[i] ?? 0) - 6;
      const text = fitText(cellText(cell, table.columns[i]), font, TABLE_SIZE, width);
      const x0 = xs[i] ?? MARGIN;
      const x = numeric[i] ? x0 + 3 + width - font.widthOfTextAtSize(text, TABLE_SIZE) : x0 + 3;
      layout.page.drawText(text, { x, y: layout.y - ROW_HEIGHT + 4, size: TABLE_SIZE, font, color: INK });
    });
    layout.y -= ROW_HEIGHT;
  };
  const header = (continued: boolean) => {
    layout.text(`${table.title}${continued ? ' (continued)' : ''}`, MARGIN, layout.y - 11, 11, bold);
    layout.y -= 18;
    drawRow(
      table.columns.map((c) => c.header),
      bold,
      HEADER_FILL,
    );
  };

  layout.ensure(18 + ROW_HEIGHT * 3);
  header(false);
  const rows = [...table.rows];
  rows.forEach((row, r) => {
    if (layout.ensure(ROW_HEIGHT)) header(true);
    drawRow(row, regular);
    if (r < rows.length - 1)
      layout.page.drawLine({
        start: { x: MARGIN, y: layout.y },
        end: { x: MARGIN + CONTENT_WIDTH, y: layout.y },
        thickness: 0.3,
        color: RULE,
      });
  });
  if (rows.length === 0) {
    layout.ensure(ROW_HEIGHT);
    layout.text(
      'No figures in this period.',
      MARGIN + 3,
      layout.y - ROW_HEIGHT + 4,
      TABLE_SIZE,
      regular,
      MUTED,
    );
    layout.y -= ROW_HEIGHT;
  }
  if (table.total) {
    if (layout.ensure(ROW_HEIGHT)) header(true);
    layout.page.drawLine({
      start: { x: MARGIN, y: layout.y },
      end: { x: MARGIN + CONTENT_WIDTH, y: layout.y },
      thickness: 0.8,
      color: INK,
    });
    drawRow(table.total, bold);
  }
  layout.y -= 14;
}

/**
 * A PNG's pixel count from its header chunk (IHDR), read before pdf-lib decodes the whole picture;
 * undefined for anything that is not a PNG (a JPEG is embedded as it is, without decoding).
 */
function pngPixels(bytes: Uint8Array): number | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || !signature.every((b, i) => bytes[i] === b)) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return view.getUint32(16) * view.getUint32(20);
}

async function embedLogo(pdf: PDFDocument, bytes: Uint8Array | undefined): Promise<PDFImage | undefined> {
  if (!bytes || bytes.length < 8) return undefined;
  // A logo stored before the ceiling held, too large to decode in the worker's memory, is left off.
  if ((pngPixels(bytes) ?? 0) > LOGO_MAX_PIXELS) return undefined;
  try {
    return bytes[0] === 0xff && bytes[1] === 0xd8 ? await pdf.embedJpg(bytes) : await pdf.embedPng(bytes);
  } catch {
    // A logo that is no image the PDF can hold leaves the cover without one rather than failing the report.
    return undefined;
  }
}

function drawCover(layout: Layout, doc: ReportDocument, logo: PDFImage | undefined): void {
  const { regular, bold } = layout.fonts;
  if (logo) {
    const scale = Math.min(160 / logo.width, 60 / logo.height, 1);
    layout.page.drawImage(logo, {
      x: MARGIN,
      y: TOP - logo.height * scale,
      width: logo.width * scale,
      height: logo.height * scale,
    });
  }
  layout.page.drawRectangle({ x: MARGIN, y: 470, width: 60, height: 4, color: ACCENT });
  let y = 430;
  for (const line of wrap(doc.title, bold, 28, CONTENT_WIDTH)) {
    layout.text(line, MARGIN, y, 28, bold);
    y -= 34;
  }
  for (const line of wrap(doc.subtitle, regular, 13, CONTENT_WIDTH)) {
    layout.text(line, MARGIN, y, 13, regular, MUTED);
    y -= 18;
  }
  y -= 24;
  layout.text(doc.companyName, MARGIN, y, 14, bold);
  layout.text(doc.periodLabel, MARGIN, y - 20, 11, regular);
  if (doc.factorSets.length > 0)
    layout.text(`Emission factors: ${doc.factorSets.join(', ')}`, MARGIN, y - 38, 9, regular, MUTED);
  layout.text(`Figures as at ${doc.dataDate.toISOString().slice(0, 10)}`, MARGIN, y - 52, 9, regular, MUTED);
}

function drawContents(page: PDFPage, fonts: Fonts, entries: readonly { heading: string; page: number }[]) {
  page.drawText('Contents', { x: MARGIN, y: TOP - 22, size: 20, font: fonts.bold, color: INK });
  let y = TOP - 60;
  for (const entry of entries) {
    const number = String(entry.page);
    const heading = fitText(entry.heading, fonts.regular, 11, CONTENT_WIDTH - 60);
    page.drawText(heading, { x: MARGIN, y, size: 11, font: fonts.regular, color: INK });
    const numberX = MARGIN + CONTENT_WIDTH - fonts.regular.widthOfTextAtSize(number, 11);
    const dotsFrom = MARGIN + fonts.regular.widthOfTextAtSize(heading, 11) + 6;
    page.drawLine({
      start: { x: dotsFrom, y: y + 2 },
      end: { x: numberX - 6, y: y + 2 },
      thickness: 0.6,
      color: RULE,
      dashArray: [1, 2],
    });
    page.drawText(number, { x: numberX, y, size: 11, font: fonts.regular, color: INK });
    y -= 20;
  }
}

/**
 * The report as a PDF: a cover (with the company's logo when it has one), contents, then each section
 * from a new page; page numbers in every page's footer. The document is dated with the data's date and
 * carries nothing else that changes between runs, so the same figures give the same bytes.
 */
export async function reportPdf(doc: ReportDocument): Promise<{ bytes: Uint8Array; pages: number }> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  pdf.setTitle(winAnsi(doc.title));
  pdf.setAuthor(winAnsi(doc.companyName));
  pdf.setSubject(winAnsi(`${doc.subtitle}, ${doc.periodLabel}`));
  pdf.setCreator('Voltfolio');
  pdf.setProducer('Voltfolio');
  pdf.setCreationDate(doc.dataDate);
  pdf.setModificationDate(doc.dataDate);
  const fonts: Fonts = {
    regular: await pdf.embedFont(StandardFonts.Helvetica),
    bold: await pdf.embedFont(StandardFonts.HelveticaBold),
  };
  const layout = new Layout(pdf, fonts);
  layout.newPage();
  drawCover(layout, doc, await embedLogo(pdf, doc.logoPng));
  layout.newPage();
  const contentsPage = layout.page;
  const entries: { heading: string; page: number }[] = [];
  for (const section of doc.sections) {
    layout.newPage();
    entries.push({ heading: section.heading, page: layout.pages.length });
    layout.text(section.heading, MARGIN, layout.y - 18, 18, fonts.bold);
    layout.y -= 34;
    for (const block of section.blocks) {
      if (block.kind === 'paragraph') drawParagraph(layout, block.text);
      else if (block.kind === 'figures') drawFigures(layout, block.items);
      else if (block.kind === 'chart') drawChart(layout, block.chart);
      else drawTable(layout, block.table);
    }
  }
  drawContents(contentsPage, fonts, entries);
  const total = layout.pages.length;
  const footer = fitText(`${doc.companyName} · ${doc.title}`, fonts.regular, 8, CONTENT_WIDTH - 80);
  layout.pages.forEach((page, i) => {
    const label = `Page ${i + 1} of ${total}`;
    page.drawLine({
      start: { x: MARGIN, y: MARGIN + 14 },
      end: { x: MARGIN + CONTENT_WIDTH, y: MARGIN + 14 },
      thickness: 0.5,
      color: RULE,
    });
    page.drawText(footer, { x: MARGIN, y: MARGIN, size: 8, font: fonts.regular, color: MUTED });
    page.drawText(label, {
      x: MARGIN + CONTENT_WIDTH - fonts.regular.widthOfTextAtSize(label, 8),
      y: MARGIN,
      size: 8,
      font: fonts.regular,
      color: MUTED,
    });
  });
  return { bytes: await pdf.save(), pages: total };
}
