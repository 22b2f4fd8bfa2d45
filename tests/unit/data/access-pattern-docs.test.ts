import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every repository opens with the table of the access patterns it serves, and docs/architecture.md repeats
 * each table under the repository's path: a key layout changed in code but not in the document (or the
 * other way round) would mislead whoever plans the next query from it.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const DOC = join(ROOT, 'docs/architecture.md');

function repositoryFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return repositoryFiles(path);
    return entry.name.endsWith('-repository.ts') ? [relative(ROOT, path)] : [];
  });
}

const HEADER = /^\|\s*pattern\s*\|\s*key condition\s*\|\s*index\s*\|$/;
const SEPARATOR = /^\|(\s*-+\s*\|){3}$/;

/** The rows of the table in the file's opening comment, header and separator included. */
function openingTable(source: string): string[] {
  if (!source.startsWith('/**')) return [];
  const comment = source.slice(0, source.indexOf('*/'));
  return comment
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trimEnd())
    .filter((line) => line.startsWith('|'));
}

/** The table under `### {path}` in the document, up to the next heading. */
function documentedTable(doc: string, path: string): string[] | undefined {
  const lines = doc.split('\n');
  const start = lines.indexOf(`### ${path}`);
  if (start < 0) return undefined;
  const rows: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('#')) break;
    if (line.startsWith('|')) rows.push(line.trimEnd());
  }
  return rows;
}

const files = repositoryFiles(join(ROOT, 'functions')).sort();
const doc = readFileSync(DOC, 'utf8');

describe('access pattern tables', () => {
  it('finds the repositories', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)('%s opens with its access pattern table', (file) => {
    const table = openingTable(readFileSync(join(ROOT, file), 'utf8'));
    expect(table[0], 'header row').toMatch(HEADER);
    expect(table[1], 'separator row').toMatch(SEPARATOR);
    expect(table.length, 'at least one pattern').toBeGreaterThan(2);
    for (const row of table.slice(2)) expect(row.split('|').length, row).toBe(5);
  });

  it.each(files)('docs/architecture.md repeats the table of %s', (file) => {
    const table = openingTable(readFileSync(join(ROOT, file), 'utf8'));
    expect(documentedTable(doc, file)).toEqual(table);
  });

  it('documents no repository that is gone', () => {
    const documented = [...doc.matchAll(/^### (functions\/\S+-repository\.ts)$/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(files);
  });
});
