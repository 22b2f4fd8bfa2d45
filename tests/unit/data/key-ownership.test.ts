import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Table keys are built only by repositories: a service that builds keys couples itself to the table's layout,
 * and one that reads stored items without a repository gets untyped records. This guard keeps new code from
 * reaching for the key builder directly.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const KEYS_FILE = join(ROOT, 'functions/core/data/keys.ts');
const SCANNED = ['functions', 'infra'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'cdk.out' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g;

function importsKeys(file: string): boolean {
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? '';
    if (spec.startsWith('.') && resolve(dirname(file), spec) === KEYS_FILE) return true;
  }
  return false;
}

const mayBuildKeys = (path: string) =>
  path.endsWith('-repository.ts') || path.startsWith('functions/core/data/');

const importers = SCANNED.flatMap((dir) => sourceFiles(join(ROOT, dir)))
  .filter(importsKeys)
  .map((file) => relative(ROOT, file));

describe('who builds table keys', () => {
  it('finds the key builder imported somewhere (the scan itself works)', () => {
    expect(importers).toContain('functions/core/data/item-repository.ts');
  });

  it('lets only repositories and the data layer import the key builder', () => {
    const offenders = importers.filter((path) => !mayBuildKeys(path));
    expect(offenders).toEqual([]);
  });
});
