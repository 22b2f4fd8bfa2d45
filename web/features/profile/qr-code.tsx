import { encode } from 'uqr';

/**
 * One SVG path for the dark modules of a QR matrix, one unit square per module, so the browser scales
 * the code crisply to any size.
 */
export function qrPath(modules: readonly (readonly boolean[])[]): string {
  const parts: string[] = [];
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x} ${y}h1v1h-1z`);
    });
  });
  return parts.join('');
}

/** The modules of a QR code for `text`, with the quiet zone scanners need around it. */
export function qrModules(text: string): boolean[][] {
  return encode(text, { ecc: 'M', border: 4 }).data;
}

export function QrCode({ text, size = 200, label }: { text: string; size?: number; label: string }) {
  const modules = qrModules(text);
  const n = modules.length;
  return (
    <svg
      viewBox={`0 0 ${n} ${n}`}
      width={size}
      height={size}
      role="img"
      aria-label={label}
      shapeRendering="crispEdges"
      style={{ background: '#fff' }}
    >
      <path d={qrPath(modules)} fill="#000" />
    </svg>
  );
}
