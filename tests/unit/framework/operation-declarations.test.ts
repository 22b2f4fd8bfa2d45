import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../functions/core/middleware/api-context.ts';
import type { HttpRoute } from '../../../shared/system/routes.ts';

/**
 * Every operation says what it reads of a request: the path parameters by name and the schema of its
 * query (`operation` in functions/core/middleware/operation.ts), so it receives them typed and a bad query
 * value is refused with 400 before it runs. Nothing may read the request's text as it came.
 */

const root = new URL('../../../', import.meta.url).pathname;
const functionsDir = join(root, 'functions');
/** The framework itself, which turns a request into the typed context. */
const FRAMEWORK = join(functionsDir, 'core', 'middleware');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return path === FRAMEWORK ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** Where a rule is broken: `file:line  text`. */
function offences(pattern: RegExp): string[] {
  return sourceFiles(functionsDir).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${relative(root, file)}:${i + 1}  ${line.trim()}`] : [])),
  );
}

describe('operations declare what they read', () => {
  it('every route of every HTTP function is served by an operation that declares its parameters and query', async () => {
    const dir = new URL('../../../functions/handlers/http/', import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const undeclared: string[] = [];
    let served = 0;
    for (const f of files) {
      const { handler } = (await import(new URL(f, dir).href)) as {
        handler: { routes: readonly HttpRoute[]; allOperations: () => Promise<Record<string, Operation>> };
      };
      const operations = await handler.allOperations();
      for (const r of handler.routes) {
        served += 1;
        if (!operations[r.op]?.spec) undeclared.push(`${f}: ${r.method} ${r.path} (${r.op})`);
      }
    }
    expect(served).toBeGreaterThan(500);
    expect(undeclared).toEqual([]);
  });

  it('no function outside the framework takes a request context whose parameters and query are plain text', () => {
    // An operation written as `async (ctx: OpContext) => ...` declares nothing; helpers take the part of
    // the context they use (`WithParams<'id'>`, `AnyOpContext`, `Pick<OpContext, 'caller'>`).
    expect(offences(/\(\s*\w+\s*:\s*OpContext\s*\)/)).toEqual([]);
  });

  it('no operation casts a path parameter or a query value', () => {
    expect(offences(/\bctx\.(params|query)\.\$?\w+ as [A-Za-z{]/)).toEqual([]);
  });
});

describe('queue workers', () => {
  it('each read their messages through queueFunction, which parses every body with its queue schema', () => {
    const dir = join(functionsDir, 'handlers', 'queue');
    const workers = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(workers.length).toBeGreaterThan(5);
    const unparsed = workers.filter((f) => {
      const text = readFileSync(join(dir, f), 'utf8');
      return !/export const handler = queueFunction\(/.test(text) || /JSON\.parse|\.body\b/.test(text);
    });
    expect(unparsed).toEqual([]);
  });
});
