import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import * as z from 'zod';
import {
  type BundleResult,
  bundleFunctions,
  HTTP_BUNDLE_LIMIT_BYTES,
  REPO_ROOT,
} from '../../infra/build/bundle-functions.ts';
import { FUNCTIONS, HTTP_FUNCTIONS } from '../../shared/system/functions.ts';
import { HTTP_ROUTES } from '../../shared/system/routes.ts';
import { httpEvent, lambdaContext, parseResult } from '../support/http-events.ts';

describe('function bundles', () => {
  const outRoot = join(REPO_ROOT, '.build', 'tests', `bundle-${process.pid}`);
  let results: BundleResult[];
  beforeAll(() => {
    results = bundleFunctions({ outDir: join(outRoot, 'functions') });
    // The tests below check bundle by bundle: with none they would check nothing.
    if (results.length === 0) throw new Error('No function was bundled');
  });
  afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

  /** The source files a function's cold start loads: its entry file's and those of the chunks it imports statically. */
  const loadedAtStart = (name: string) => {
    const r = results.find((b) => b.name === name);
    const meta = JSON.parse(readFileSync(r?.metafile ?? '', 'utf8')) as {
      outputs: Record<string, { imports: { path: string; kind: string }[]; inputs: Record<string, unknown> }>;
    };
    const seen = new Set<string>();
    const visit = (k: string | undefined) => {
      if (!k || seen.has(k)) return;
      seen.add(k);
      for (const i of meta.outputs[k]?.imports ?? []) if (i.kind === 'import-statement') visit(i.path);
    };
    visit(Object.keys(meta.outputs).find((k) => join(REPO_ROOT, k) === r?.outfile));
    return [...seen].flatMap((k) => Object.keys(meta.outputs[k]?.inputs ?? {}));
  };

  /** A function's start loads `first` and none of `later` (loaded on the first call that needs them). */
  const expectStart = (name: string, first: string, later: string[]) => {
    const loaded = loadedAtStart(name);
    expect(loaded).toContain(first);
    for (const file of later) expect(loaded, name).not.toContain(file);
  };

  it('bundles every declared function into its own folder', () => {
    expect(results.map((r) => r.name)).toEqual(FUNCTIONS.map((f) => f.name));
    for (const r of results) {
      expect(r.outfile).toBe(join(outRoot, 'functions', r.name, 'index.mjs'));
      // What a cold start reads: the entry file and, with it, the chunks it imports statically.
      expect(r.bytes).toBeGreaterThanOrEqual(readFileSync(r.outfile).byteLength);
    }
  });

  it(`keeps every HTTP function at most ${HTTP_BUNDLE_LIMIT_BYTES / 1024} KB`, () => {
    const http = results.filter((r) => r.kind === 'http');
    expect(http.length).toBeGreaterThan(0);
    for (const r of http) expect(r.bytes, r.name).toBeLessThanOrEqual(HTTP_BUNDLE_LIMIT_BYTES);
  });

  it('leaves the AWS SDK to the runtime', () => {
    for (const r of results) {
      const meta = JSON.parse(readFileSync(r.metafile, 'utf8')) as { inputs: Record<string, unknown> };
      expect(
        Object.keys(meta.inputs).filter((p) => p.includes('node_modules/@aws-sdk/')),
        r.name,
      ).toEqual([]);
      expect(r.runtimeModules.required, r.name).toContain('@aws-sdk/lib-dynamodb');
    }
  });

  it('loads the SDK and Node built-ins at start with require, not ESM imports that cost a cold start more', () => {
    for (const r of results) {
      expect(r.runtimeModules.imported, r.name).toEqual([]);
      expect(readFileSync(r.outfile, 'utf8'), r.name).not.toMatch(/from\s*"(@aws-sdk\/|node:)/);
    }
  });

  it("starts the assets function with the site list's code, leaving its other operations to their first call", () => {
    expectStart('assets', 'functions/assets/asset-list-service.ts', [
      'functions/analytics/analytics-service.ts',
      'functions/assets/asset-wizard-service.ts',
      'functions/assets/asset-write-service.ts',
      'functions/assets/external-data-service.ts',
      'functions/core/adapters/public-data.ts',
    ]);
  });

  it("starts the templates and automation functions without the template editor's, the automations' and the imports' code", () => {
    // Their most frequent calls read suppliers and the lists of imports and automations; the rest loads on
    // its first call.
    expectStart('templates', 'functions/suppliers/supplier-service.ts', [
      'functions/suppliers/template-service.ts',
      'functions/suppliers/template-sample-service.ts',
      'shared/capture/template-engine.ts',
      'shared/schemas/templates.ts',
    ]);
    expectStart('automation', 'functions/core/resources/resource-service.ts', [
      'functions/automation/automation-service.ts',
      'functions/automation/scraper-run-service.ts',
      'functions/imports/import-service.ts',
      'functions/imports/record-import.ts',
      'shared/imports/import-mapping.ts',
      'shared/schemas/register-imports.ts',
      'shared/schemas/automation.ts',
    ]);
  });

  it('keeps clients imported on first use out of the start', () => {
    const queued = results.filter((r) => r.runtimeModules.onDemand.includes('@aws-sdk/client-sqs'));
    expect(queued.length).toBeGreaterThan(0);
    for (const r of queued) {
      expect(r.runtimeModules.required, r.name).not.toContain('@aws-sdk/client-sqs');
    }
  });

  it("builds in a function only its own resources' schemas, not every resource's", () => {
    // Neither function's own code reads another area's schemas; each schema module costs a cold start.
    const schemasIn = (name: string) => {
      const r = results.find((b) => b.name === name);
      const meta = JSON.parse(readFileSync(r?.metafile ?? '', 'utf8')) as { inputs: Record<string, unknown> };
      return Object.keys(meta.inputs).filter((p) => p.startsWith('shared/schemas/'));
    };
    expect(schemasIn('insights')).toContain('shared/schemas/insights.ts');
    expect(schemasIn('companies')).toContain('shared/schemas/company.ts');
    const others = ['asset', 'account', 'invoice', 'account-inputs', 'asset-tenants', 'register-imports'];
    for (const [name, notLoaded] of [
      ['insights', [...others, 'company']],
      ['companies', [...others, 'insights']],
      // One resource's schema module holds only that resource's schemas, so a neighbour's stay out.
      ['accounts', ['asset', 'project', 'recommendation', 'templates', 'user']],
    ] as const) {
      for (const other of notLoaded) {
        expect(schemasIn(name), name).not.toContain(`shared/schemas/${other}.ts`);
      }
    }
  });

  it.each(['invoices', 'invoice-validation', 'accounts'])(
    "starts the %s bundle without building a schema of zod's full build",
    (name) => {
      // Its schemas are built on the first call that parses with one: zod's full build costs a cold start
      // a one-time setup with its first schema, and more with each.
      const r = results.find((b) => b.name === name);
      const counted = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `let full = 0, mini = 0;
globalThis.__zod_globalConfig = { postProcessor: (s) => (s._zod.traits.has('ZodType') ? full++ : mini++) };
await import(${JSON.stringify(pathToFileURL(r?.outfile ?? '').href)});
process.stdout.write(JSON.stringify({ full, mini }));`,
        ],
        { env: { ...process.env, AWS_REGION: 'eu-west-2' }, encoding: 'utf8' },
      );
      expect(counted.stderr).toBe('');
      const { full, mini } = JSON.parse(counted.stdout) as { full: number; mini: number };
      expect(full).toBe(0);
      expect(mini).toBeGreaterThan(0);
    },
  );

  /** Every HTTP function's start reads zod's small build (`zod/mini`) alone, none of its full build. */
  const START_WITHOUT_FULL_ZOD = [...HTTP_FUNCTIONS];

  /**
   * The first of our modules (breadth-first from the handler) that a function's start reads and that imports
   * zod's full build, with the chain of imports that brings it in; none when the start reads none of it.
   */
  const fullZodAtStart = (name: string) => {
    const r = results.find((b) => b.name === name);
    const meta = JSON.parse(readFileSync(r?.metafile ?? '', 'utf8')) as {
      inputs: Record<string, { imports: { path: string; kind: string }[] }>;
      outputs: Record<string, { entryPoint?: string }>;
    };
    const atStart = new Set(loadedAtStart(name));
    // Its JSON Schema writer too, which only the full build's schemas and the schema call use.
    const isFull = (p: string) =>
      /node_modules\/zod\/v4\/(classic\/|core\/(to-json-schema|json-schema-processors)\.js)/.test(p);
    const staticImports = (p: string) =>
      (meta.inputs[p]?.imports ?? []).filter((i) => i.kind === 'import-statement');
    const inZod = (p: string) => p.includes('node_modules/zod/');
    /** A module of zod that is, or leads within zod to, its full build (`zod`, `zod/v4`, …). */
    const leadsToFull = (p: string, seen = new Set<string>()): boolean => {
      if (isFull(p) && atStart.has(p)) return true;
      if (seen.has(p)) return false;
      seen.add(p);
      return staticImports(p).some((i) => inZod(i.path) && leadsToFull(i.path, seen));
    };
    // A file of the full build's schemas first, when there is one: it names the build better.
    const full = [...atStart]
      .filter(isFull)
      .sort((a, b) => Number(!a.includes('/classic/')) - Number(!b.includes('/classic/')));
    if (full.length === 0) return undefined;
    const entryKey = Object.keys(meta.outputs).find((k) => join(REPO_ROOT, k) === r?.outfile) ?? '';
    const entry = meta.outputs[entryKey]?.entryPoint ?? '';
    const before = new Map<string, string>();
    const queue = [entry];
    for (const at of queue) {
      if (!inZod(at) && staticImports(at).some((i) => inZod(i.path) && leadsToFull(i.path))) {
        const chain = [at];
        for (let p = before.get(at); p; p = before.get(p)) chain.unshift(p);
        return { importer: at, chain: chain.join(' -> '), full: full[0] };
      }
      for (const i of staticImports(at))
        if (i.path !== entry && !before.has(i.path)) {
          before.set(i.path, at);
          queue.push(i.path);
        }
    }
    return { importer: 'none of our modules', chain: '', full: full[0] };
  };

  it.each(START_WITHOUT_FULL_ZOD)("starts the %s function without zod's full build", (name) => {
    // Reading zod's full build costs a cold start ~3 ms even when none of its schemas is built; the schemas
    // of writes that need it load on their first call.
    const found = fullZodAtStart(name);
    expect(
      found,
      found &&
        `${name} reads zod's full build at start (${found.full}): imported by ${found.importer} (${found.chain})`,
    ).toBeUndefined();
  });

  it("answers a resource's schema call from a bundle, its JSON Schema writer loaded on that call", async () => {
    const r = results.find((b) => b.name === 'entities');
    const meta = JSON.parse(readFileSync(r?.metafile ?? '', 'utf8')) as {
      outputs: Record<string, { entryPoint?: string }>;
    };
    const chunk = Object.keys(meta.outputs).find(
      (k) => meta.outputs[k]?.entryPoint === 'functions/core/resources/resource-json-schema.ts',
    );
    expect(chunk).toBeDefined();
    expect(loadedAtStart('entities')).not.toContain('functions/core/resources/resource-json-schema.ts');
    const { inputJsonSchema } = (await import(pathToFileURL(join(REPO_ROOT, chunk ?? '')).href)) as {
      inputJsonSchema: (schema: unknown) => Record<string, unknown>;
    };
    expect(
      inputJsonSchema(z.object({ name: z.string().min(1), floors: z.number().int().optional() })),
    ).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string', minLength: 1 }, floors: { type: 'integer' } },
      required: ['name'],
    });
  });

  it('produces ES modules that load in Node and export the handler', async () => {
    for (const r of results) {
      const loaded = (await import(pathToFileURL(r.outfile).href)) as { handler?: unknown };
      expect(typeof loaded.handler, r.name).toBe('function');
    }
    // Thirty-odd bundles are imported one after another; on two shared cores this alone can pass 20 s.
  }, 60_000);

  it('serves requests from each HTTP bundle: one without a token is refused', async () => {
    // As the CDK app configures them; nothing is reached, since the request stops at the token check.
    vi.stubEnv('COGNITO_USER_POOL_ID', 'eu-west-2_bundletest');
    vi.stubEnv('AUTH_CLIENT_ID', 'bundle-test');
    vi.stubEnv('TABLE_NAME', 'voltfolio-bundle-test');
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    const http = results.filter((b) => b.kind === 'http');
    expect(http.length).toBeGreaterThan(0);
    for (const r of http) {
      const route = HTTP_ROUTES.find((x) => x.fn === r.name && x.method === 'GET');
      expect(route, r.name).toBeDefined();
      const loaded = (await import(pathToFileURL(r.outfile).href)) as {
        handler: (event: unknown, context: unknown) => Promise<Parameters<typeof parseResult>[0]>;
      };
      const event = httpEvent({ method: 'GET', path: (route?.path ?? '').replace(/\{[^}]+\}/g, 'x') });
      const response = parseResult(await loaded.handler(event, lambdaContext(r.name)));
      expect(response.status, `${r.name} ${route?.path}`).toBe(401);
    }
  });
});
