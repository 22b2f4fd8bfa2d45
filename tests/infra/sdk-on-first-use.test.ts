import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BundleResult, bundleFunctions, REPO_ROOT } from '../../infra/build/bundle-functions.ts';

// Clients that most requests never use: each costs a cold start 15-30 ms when loaded with the function.
const ON_FIRST_USE = [
  'client-s3',
  's3-request-presigner',
  'client-sesv2',
  'client-cognito-identity-provider',
  'client-apigatewaymanagementapi',
  'client-sqs',
  'client-textract',
  'client-kms',
];

/** Every ES module of a bundle: the entry and its chunks, whether imported at start or later. */
function modulesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => join(dir, f));
}

describe('AWS SDK clients other than DynamoDB', () => {
  const outRoot = join(REPO_ROOT, '.build', 'tests', `sdk-first-use-${process.pid}`);
  let results: BundleResult[];
  beforeAll(() => {
    // The functions that reach S3, SES, Cognito and the live connections between them.
    results = bundleFunctions({
      outDir: join(outRoot, 'functions'),
      names: ['session', 'companies', 'invoices'],
    });
  });
  afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

  it('are loaded on first use, not with the function', () => {
    expect(results).toHaveLength(3);
    for (const r of results) {
      const code = modulesOf(r.dir).map((f) => readFileSync(f, 'utf8'));
      for (const sdk of ON_FIRST_USE) {
        // Named anywhere but in a dynamic import: a static import, or a require (however minified).
        const atStart = new RegExp(`(?<!import\\()"@aws-sdk/${sdk}"`);
        const loadedAtStart = code.some((c) => atStart.test(c));
        expect(loadedAtStart, `${r.name} loads ${sdk} at start`).toBe(false);
      }
      // The adapters still reach them, when a request needs them.
      expect(code.some((c) => c.includes('import("@aws-sdk/client-s3")'))).toBe(true);
    }
    // Storing a supplier-portal password seals it with KMS, loaded only when one is stored.
    const companies = results.find((r) => r.name === 'companies');
    const code = modulesOf(companies?.dir ?? '').map((f) => readFileSync(f, 'utf8'));
    expect(code.some((c) => c.includes('import("@aws-sdk/client-kms")'))).toBe(true);
  });
});
