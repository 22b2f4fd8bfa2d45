/** Saves bytes as a file through a temporary link; the object URL is released once the click has started. */
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * The chart of a figure as standalone SVG markup: the chart's own SVG with the hatch patterns it refers
 * to (kept in a sibling SVG on the page) copied in, on a white background.
 */
export function chartSvgMarkup(
  figure: HTMLElement,
): { markup: string; width: number; height: number } | undefined {
  const svg = figure.querySelector<SVGSVGElement>('svg:not([data-chart-defs])');
  if (!svg) return undefined;
  const box = svg.viewBox.baseVal;
  const width = box?.width || svg.clientWidth || 640;
  const height = box?.height || svg.clientHeight || 260;
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', SVG_NS);
  copy.setAttribute('width', String(width));
  copy.setAttribute('height', String(height));
  const defs = figure.querySelector('svg[data-chart-defs] defs');
  if (defs) copy.prepend(defs.cloneNode(true));
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', '#ffffff');
  copy.insertBefore(background, defs ? (copy.children[1] ?? null) : copy.firstChild);
  return { markup: new XMLSerializer().serializeToString(copy), width, height };
}

/** Draws the figure's chart on a canvas at twice its size and saves it as a PNG. */
export async function downloadChartPng(figure: HTMLElement, filename: string): Promise<void> {
  const svg = chartSvgMarkup(figure);
  if (!svg) throw new Error('There is no chart to export');
  const url = URL.createObjectURL(new Blob([svg.markup], { type: 'image/svg+xml;charset=utf-8' }));
  try {
    const image = new Image();
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('The chart could not be drawn'));
      image.src = url;
    });
    const scale = 2;
    const canvas = document.createElement('canvas');
    canvas.width = svg.width * scale;
    canvas.height = svg.height * scale;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('The chart could not be drawn');
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, svg.width, svg.height);
    const png = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
    if (!png) throw new Error('The chart could not be drawn');
    downloadBlob(filename, png);
  } finally {
    URL.revokeObjectURL(url);
  }
}
