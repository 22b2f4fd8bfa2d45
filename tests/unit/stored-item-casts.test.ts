import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Repositories are the only code that knows how records are stored, and they hand back typed records: a
 * service or operation that casts what it read (`as StoredItem`, `as StoredTemplate`, `as Record<string,
 * unknown>`) trusts a shape nothing checked. Such casts are counted in every file under functions/ that is
 * not a repository (a `*-repository.ts` file or functions/core/data/), and the count may only go down: read
 * a loose field with core/lib/stored-values.ts, or give the repository a typed mapper, instead.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CAST = / as (?:Stored\w*|Record<string, unknown>)/g;
/** The casts of stored items left in services and operations; lower it when one goes. */
const CEILING = 0;

const isRepository = (path: string) =>
  path.endsWith('-repository.ts') || path.startsWith('functions/core/data/');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

function castsIn(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        for (const _ of line.matchAll(CAST)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe('casts of stored items outside repositories', () => {
  const services = sourceFiles('functions').filter((f) => !isRepository(f));

  it(`are at most ${CEILING}, and the ceiling is lowered as they go`, () => {
    const casts = castsIn(services);
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(CEILING);
    // A ceiling left above the count would let new casts back in unnoticed.
    expect(CEILING, `lower CEILING to ${casts.length}`).toBe(casts.length);
  });

  it('sees the casts it counts, and none in repositories', () => {
    expect(services.length).toBeGreaterThan(100);
    expect(services.some((f) => f.includes('-repository'))).toBe(false);
    expect(' as StoredItem;'.match(CAST)).toHaveLength(1);
    expect(' as Record<string, unknown>[];'.match(CAST)).toHaveLength(1);
    expect(' as StoredContractFile | undefined'.match(CAST)).toHaveLength(1);
    expect(' as ResourceDecl;'.match(CAST)).toBeNull();
  });
});
