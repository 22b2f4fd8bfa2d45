import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** One breach of the web layering rules, pointing at its file and line. */
export interface RuleBreach {
  file: string;
  line: number;
  rule:
    | 'swr-hook-in-component'
    | 'raw-api-call-in-component'
    | 'api-client-in-component'
    | 'cross-feature-import';
  text: string;
}

const SWR_IMPORT = /import\s+(?:type\s+)?([^;]*?)\s+from\s+['"]swr(?:\/[^'"]*)?['"]/g;
const SWR_HOOK = /\buseSWR\w*\b/;
const RAW_API_CALL = /\bapi\s*\.\s*(?:get|post|put|patch|del|request)\s*[<(]/;
const USE_API_IMPORT = /import\s*\{[^}]*\buseApi\b[^}]*\}\s*from\s*['"][^'"]*app-context(?:\.tsx?)?['"]/;
const IMPORT_PATH = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

const lineOf = (source: string, index: number) => source.slice(0, index).split('\n').length;

/**
 * Components read and write through endpoint hooks only: no SWR hooks, no api client, no raw calls.
 * `file` is the path relative to the repository root, with forward slashes.
 */
export function componentBreaches(file: string, source: string): RuleBreach[] {
  if (!file.endsWith('.tsx')) return [];
  const breaches: RuleBreach[] = [];
  for (const match of source.matchAll(SWR_IMPORT)) {
    if (SWR_HOOK.test(match[1] ?? '') || /^\w+$/.test((match[1] ?? '').trim())) {
      breaches.push({
        file,
        line: lineOf(source, match.index),
        rule: 'swr-hook-in-component',
        text: match[0],
      });
    }
  }
  const useApi = USE_API_IMPORT.exec(source);
  if (useApi) {
    breaches.push({
      file,
      line: lineOf(source, useApi.index),
      rule: 'api-client-in-component',
      text: useApi[0],
    });
  }
  source.split('\n').forEach((text, index) => {
    if (RAW_API_CALL.test(text)) {
      breaches.push({ file, line: index + 1, rule: 'raw-api-call-in-component', text: text.trim() });
    }
  });
  return breaches;
}

/** The feature folder a repository path sits in (`web/features/<name>/…`), if any. */
function featureOf(path: string): string | undefined {
  const parts = path.split('/');
  return parts[0] === 'web' && parts[1] === 'features' && parts.length > 3 ? parts[2] : undefined;
}

/** A feature imports only itself, `web/components`, `web/lib` and `shared/`; common parts live there. */
export function featureImportBreaches(file: string, source: string): RuleBreach[] {
  const own = featureOf(file);
  if (!own) return [];
  const breaches: RuleBreach[] = [];
  for (const match of source.matchAll(IMPORT_PATH)) {
    const specifier = match[1] ?? '';
    if (!specifier.startsWith('.')) continue;
    const target = join(dirname(file), specifier).split(sep).join('/');
    const other = featureOf(target);
    if (other && other !== own) {
      breaches.push({
        file,
        line: lineOf(source, match.index),
        rule: 'cross-feature-import',
        text: match[0],
      });
    }
  }
  return breaches;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'dist' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every breach in the web app under `root` (the repository root). */
export function webBreaches(root: string): RuleBreach[] {
  return sourceFiles(resolve(root, 'web')).flatMap((path) => {
    const file = relative(root, path).split(sep).join('/');
    const source = readFileSync(path, 'utf8');
    return [...componentBreaches(file, source), ...featureImportBreaches(file, source)];
  });
}
