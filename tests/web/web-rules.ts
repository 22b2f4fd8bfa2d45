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
    | 'cross-feature-import'
    | 'response-type-declared'
    | 'response-type-from-web'
    | 'response-type-inline';
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

/**
 * Where the web's types of the server's answers may come from.
 *
 * A hook module is a `.ts` file under web/ that reads or calls the API naming the answer's type: a read
 * `useSWR…<T>(…)` or a call `api.get|post|put|patch|del|request<T>(…)`. In a hook module:
 *  - `response-type-declared`: no `interface`, and no `type` alias whose right-hand side holds an object
 *    type literal (`{ … }`), is declared, exported or not, unless it is in CLIENT_SHAPES (as `file#Name`) (shapes the
 *    browser makes itself, never an answer). An answer's shape is written once in shared/ (the area's view
 *    or `shared/schemas/responses/<area>.ts`), where the server's mapper is typed with it too.
 *  - `response-type-from-web`: the type argument of a read or call (`useSWR…<T>`, `api.get<T>`, …) names no
 *    type imported from another web/ module, so a shape cannot move next door and be hand-copied there.
 *  - `response-type-inline`: nor does it write an object type in place (`useSWR<{ url: string }>`).
 */
export const CLIENT_SHAPES: ReadonlySet<string> = new Set([
  /** What a read hook hands a component (data, error, loading), not an answer. */
  'web/features/assets/api.ts#Read',
  /** A parent picker's option, made from the entity tree. */
  'web/features/entities/api.ts#EntityOption',
  /** A cached read a write makes stale. */
  'web/lib/endpoint.ts#Stale',
  /** Several sites' analytics answers, put together in the browser. */
  'web/features/analytics/api.ts#SiteAnswer',
  /** The query of the drill-down call, made into its key. */
  'web/features/analytics/provenance-api.ts#ProvenanceAsk',
  /** The choices of the add-a-widget form. */
  'web/features/dashboard/widgets-api.ts#WidgetChoice',
  /** The body of the portfolio writes. */
  'web/features/portfolios/api.ts#GroupBody',
  /** The filters of the benchmark tables, made into their keys. */
  'web/features/benchmarks/api.ts#BenchmarkFilters',
  /** The body of a pathway set upload. */
  'web/features/benchmarks/api.ts#PathwayUpload',
  /** The form of a building type's energy figures, sent as a benchmark write. */
  'web/features/benchmarks/api.ts#EnergyFiguresInput',
  /** A grant picker's item, labelled in the browser. */
  'web/features/company/api.ts#GrantableItem',
  /** The calls a named-record form is given. */
  'web/features/company/api.ts#NamedRecordCalls',
  /** The header search: results grouped, its states and its debounced runner. */
  'web/lib/search.ts#GroupedResults',
  'web/lib/search.ts#SearchState',
  'web/lib/search.ts#SearchOptions',
  'web/lib/search.ts#Search',
  /** The session the pages share, made of three answers, and its loader. */
  'web/lib/session.ts#Session',
  'web/lib/session.ts#SessionLoaderDeps',
  'web/lib/session.ts#SessionLoader',
  /** The query of a notifications page, the timers the bells share, and what a dismissal names. */
  'web/lib/notifications-api.ts#NotificationQuery',
  'web/lib/notifications-api.ts#SharedSchedule',
  'web/lib/notifications-api.ts#SeenTarget',
  /** The body of a report request. */
  'web/features/reports/api.ts#ReportRequestBody',
  /** The body of an automation write. */
  'web/features/automation/api.ts#AutomationBody',
]);

const TYPE_ARGUMENT_OF_CALL =
  /\b(?:useSWR(?:Infinite|Immutable)?|api\s*\.\s*(?:get|post|put|patch|del|request))\s*</g;
const INTERFACE = /^[ \t]*(?:export\s+)?(?:declare\s+)?interface\s+(\w+)/gm;
const TYPE_ALIAS = /^[ \t]*(?:export\s+)?type\s+(\w+)\s*(?:<[^=]*>)?\s*=/gm;
const NAMED_IMPORT = /import\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;

/** Whether the file reads or calls the API with a type for the answer (see `responseTypeBreaches`). */
export const isHookModule = (file: string, source: string): boolean =>
  file.startsWith('web/') && file.endsWith('.ts') && new RegExp(TYPE_ARGUMENT_OF_CALL.source).test(source);

/** The text from `start` to the `;` (or, for a type argument, the `>`) that closes it at depth 0. */
function balancedFrom(source: string, start: number, closer: ';' | '>'): string {
  let depth = 0;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (c === '=' && source[i + 1] === '>') {
      i++;
      continue;
    }
    if (c === '{' || c === '(' || c === '[' || (closer === '>' && c === '<')) depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    else if (c === '>' && closer === '>') {
      if (depth === 0) return source.slice(start, i);
      depth--;
    } else if (c === ';' && depth === 0 && closer === ';') return source.slice(start, i);
  }
  return source.slice(start);
}

/** Names imported from each relative module of the web, by local name. */
function webImports(file: string, source: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const match of source.matchAll(NAMED_IMPORT)) {
    const specifier = match[3] ?? '';
    if (!specifier.startsWith('.')) continue;
    const target = join(dirname(file), specifier).split(sep).join('/');
    if (!target.startsWith('web/')) continue;
    for (const part of (match[2] ?? '').split(',')) {
      const local = part
        .replace(/^\s*type\s+/, '')
        .split(/\s+as\s+/)
        .pop()
        ?.trim();
      if (local) names.set(local, target);
    }
  }
  return names;
}

/** Breaches of the rule on answer types (above) in one file. */
export function responseTypeBreaches(file: string, source: string): RuleBreach[] {
  if (!isHookModule(file, source)) return [];
  const breaches: RuleBreach[] = [];
  for (const match of source.matchAll(INTERFACE)) {
    const name = match[1] ?? '';
    if (CLIENT_SHAPES.has(`${file}#${name}`)) continue;
    const line = lineOf(source, match.index);
    breaches.push({ file, line, rule: 'response-type-declared', text: `interface ${name}` });
  }
  for (const match of source.matchAll(TYPE_ALIAS)) {
    const name = match[1] ?? '';
    if (CLIENT_SHAPES.has(`${file}#${name}`)) continue;
    const body = balancedFrom(source, match.index + match[0].length, ';');
    if (!body.includes('{')) continue;
    const line = lineOf(source, match.index);
    breaches.push({ file, line, rule: 'response-type-declared', text: `type ${name}` });
  }
  const fromWeb = webImports(file, source);
  for (const match of source.matchAll(TYPE_ARGUMENT_OF_CALL)) {
    const argument = balancedFrom(source, match.index + match[0].length, '>');
    if (argument.includes('{')) {
      const line = lineOf(source, match.index);
      breaches.push({ file, line, rule: 'response-type-inline', text: `<${argument.trim()}>` });
    }
    for (const name of argument.match(/\b[A-Z]\w*/g) ?? []) {
      if (!fromWeb.has(name)) continue;
      const line = lineOf(source, match.index);
      breaches.push({
        file,
        line,
        rule: 'response-type-from-web',
        text: `${name} from ${fromWeb.get(name)}`,
      });
    }
  }
  return breaches;
}

/** Every breach of the answer-type rule under web/. */
export function webResponseTypeBreaches(root: string): RuleBreach[] {
  return sourceFiles(resolve(root, 'web')).flatMap((path) => {
    const file = relative(root, path).split(sep).join('/');
    return responseTypeBreaches(file, readFileSync(path, 'utf8'));
  });
}
