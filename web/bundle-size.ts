import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Metafile } from 'esbuild';

export interface Size {
  raw: number;
  gzip: number;
}

export interface BundleReport {
  /** JS the browser fetches before the signed-in dashboard shows: the entry, its static chunks, the page. */
  dashboardInitialJs: Size;
  /** The same files' CSS (all styles are bundled with the entry). */
  css: Size;
  /** Every JS file of the build, lazy pages included. */
  totalJs: Size;
  jsFiles: number;
}

/** The outputs one output pulls in with static imports (lazy `import()` chunks are left out). */
export function staticClosure(metafile: Metafile, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imp of metafile.outputs[file]?.imports ?? []) {
      if (imp.kind === 'import-statement' && !imp.external) stack.push(imp.path);
    }
  }
  return seen;
}

/** The JS output built from a source entry (or a lazily imported module), keyed as in the metafile. */
export function outputOf(metafile: Metafile, entryPoint: string): string | undefined {
  return Object.keys(metafile.outputs).find(
    (file) => file.endsWith('.js') && metafile.outputs[file]?.entryPoint === entryPoint,
  );
}

async function sizeOf(files: Iterable<string>, root: string): Promise<Size> {
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = await readFile(path.resolve(root, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzip };
}

export async function measureBundle(
  metafile: Metafile,
  root: string,
  entry: string,
  dashboardPage: string,
): Promise<BundleReport> {
  const main = outputOf(metafile, entry);
  const dashboard = outputOf(metafile, dashboardPage);
  if (!main || !dashboard) throw new Error('The entry or the dashboard page is missing from the build');
  const initial = new Set([...staticClosure(metafile, main), ...staticClosure(metafile, dashboard)]);
  const css = [...initial].map((f) => metafile.outputs[f]?.cssBundle).filter((f): f is string => Boolean(f));
  const allJs = Object.keys(metafile.outputs).filter((f) => f.endsWith('.js'));
  return {
    dashboardInitialJs: await sizeOf(initial, root),
    css: await sizeOf(new Set(css), root),
    totalJs: await sizeOf(allJs, root),
    jsFiles: allJs.length,
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatReport(report: BundleReport): string {
  return [
    `dashboard initial JS: ${kb(report.dashboardInitialJs.gzip)} gzipped (${kb(report.dashboardInitialJs.raw)} raw)`,
    `CSS: ${kb(report.css.gzip)} gzipped (${kb(report.css.raw)} raw)`,
    `all JS (${report.jsFiles} files): ${kb(report.totalJs.gzip)} gzipped (${kb(report.totalJs.raw)} raw)`,
  ].join('\n');
}
