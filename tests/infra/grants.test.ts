import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemDecl } from '../../infra/cdk/system.ts';
import { FUNCTIONS, type FunctionDecl, QUEUES } from '../../shared/system/functions.ts';
import { QUEUE_DECLS } from '../../shared/system/pipeline.ts';
import {
  excessGrants,
  functionResource,
  managedPolicyNames,
  missingGrants,
  roleStatements,
} from './support/grants.ts';
import { referencedResources, resourcesOfType, type Synthesized, synthesize, tag } from './support/synth.ts';

describe('function permissions', () => {
  let synth: Synthesized;
  beforeAll(() => {
    synth = synthesize();
  });
  afterAll(() => synth?.cleanup());

  const actionsOf = (name: string) =>
    roleStatements(synth, functionResource(synth, name)).flatMap((s) =>
      s.effect === 'Allow' ? s.actions : [],
    );

  for (const decl of FUNCTIONS) {
    it(`grants ${decl.name} exactly what its declaration names`, () => {
      const statements = roleStatements(synth, functionResource(synth, decl.name));
      expect(excessGrants(synth, decl, QUEUE_DECLS, statements)).toEqual([]);
      expect(missingGrants(synth, decl, statements)).toEqual([]);
    });
  }

  it('gives no S3 action to a function declared without buckets', () => {
    const withoutBuckets = FUNCTIONS.filter((f) => Object.keys(f.grants.buckets ?? {}).length === 0);
    expect(withoutBuckets.length).toBeGreaterThan(0);
    for (const decl of withoutBuckets) {
      expect(
        actionsOf(decl.name).filter((a) => a.startsWith('s3:')),
        decl.name,
      ).toEqual([]);
    }
  });

  it('lets only functions with liveConnections post to WebSocket connections', () => {
    for (const decl of FUNCTIONS) {
      expect(actionsOf(decl.name).includes('execute-api:ManageConnections'), decl.name).toBe(
        decl.grants.liveConnections === true,
      );
    }
  });

  it('lets only functions with userPool manage sign-in identities', () => {
    for (const decl of FUNCTIONS) {
      const cognito = actionsOf(decl.name).filter((a) => a.startsWith('cognito-idp:'));
      expect(cognito.length > 0, decl.name).toBe(decl.grants.userPool === true);
      if (decl.grants.userPool) expect(cognito).toContain('cognito-idp:AdminCreateUser');
    }
  });

  it('lets only functions with sendEmail send e-mail', () => {
    for (const decl of FUNCTIONS) {
      expect(
        actionsOf(decl.name).some((a) => a.startsWith('ses:')),
        decl.name,
      ).toBe(decl.grants.sendEmail === true);
    }
  });

  it('lets only the function that stores portal passwords seal them, and only the scraper open them', () => {
    const kmsOf = (name: string) => actionsOf(name).filter((a) => a.startsWith('kms:'));
    expect(kmsOf('companies')).toEqual(['kms:Encrypt']);
    expect(kmsOf('scraper')).toEqual(['kms:Decrypt']);
    for (const decl of FUNCTIONS.filter((f) => !f.grants.portalSecrets)) {
      expect(kmsOf(decl.name), decl.name).toEqual([]);
    }
  });

  it('tells the functions granted portal secrets which key seals them, and no other function', () => {
    const [key] = resourcesOfType(synth, 'AWS::KMS::Key');
    if (!key) throw new Error('no KMS key');
    for (const decl of FUNCTIONS) {
      const fn = functionResource(synth, decl.name);
      const variables = fn.resource.Properties?.Environment as { Variables?: Record<string, unknown> };
      const keyId = variables.Variables?.PORTAL_SECRET_KMS_KEY_ID;
      if (!decl.grants.portalSecrets) {
        expect(keyId, decl.name).toBeUndefined();
        continue;
      }
      const named = referencedResources(synth, fn.stack, keyId);
      expect(
        named.map((r) => r.logicalId),
        decl.name,
      ).toEqual([key.logicalId]);
      expect(variables.Variables?.PORTAL_SECRET_KEY_FILE, decl.name).toBeUndefined();
    }
  });

  it('tells the staff overview every queue and dead-letter queue, and lets it read their depths', () => {
    const depthReaders = FUNCTIONS.filter((f) => f.grants.queueDepths);
    expect(depthReaders.map((f) => f.name)).toEqual(['util']);
    const fn = functionResource(synth, 'util');
    const variables =
      (fn.resource.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)
        ?.Variables ?? {};
    const statements = roleStatements(synth, fn).filter(
      (s) => s.effect === 'Allow' && s.actions.includes('sqs:GetQueueAttributes'),
    );
    const readable = new Set(
      statements.flatMap((s) =>
        referencedResources(synth, s.stack, s.resource).map((t) => tag(t.resource, 'voltfolio:queue')),
      ),
    );
    const gaps: string[] = [];
    for (const queue of QUEUES.flatMap((q) => [q, `${q}-dlq`])) {
      // The variable admin-service's queueCounts reads, naming the queue of that tag.
      const variable = `QUEUE_URL_${queue.toUpperCase().replaceAll('-', '_')}`;
      const named = referencedResources(synth, fn.stack, variables[variable]);
      const [target] = named;
      if (named.length !== 1 || !target || tag(target.resource, 'voltfolio:queue') !== queue)
        gaps.push(`${variable} does not name ${queue}`);
      if (!readable.has(queue)) gaps.push(`no sqs:GetQueueAttributes on ${queue}`);
    }
    expect(gaps).toEqual([]);
  });

  it('attaches no managed policy beyond basic Lambda logging', () => {
    for (const decl of FUNCTIONS) {
      expect(managedPolicyNames(synth, functionResource(synth, decl.name)), decl.name).toEqual([
        'AWSLambdaBasicExecutionRole',
      ]);
    }
  });
});

describe('the permission check itself', () => {
  let synth: Synthesized;
  const declared = FUNCTIONS.find((f) => !f.grants.buckets && !f.grants.liveConnections);
  beforeAll(() => {
    if (!declared) throw new Error('Every function has buckets or live connections; pick another example');
    // Deploy the function with more than its declaration names, then judge it by the declaration.
    const widened: FunctionDecl = {
      ...declared,
      grants: { ...declared.grants, buckets: { reports: 'read' }, liveConnections: true },
    };
    const system = systemDecl();
    synth = synthesize({
      system: { ...system, functions: system.functions.map((f) => (f === declared ? widened : f)) },
    });
  });
  afterAll(() => synth?.cleanup());

  it('reports grants the declaration does not name', () => {
    if (!declared) throw new Error('no example function');
    const statements = roleStatements(synth, functionResource(synth, declared.name));
    const excess = excessGrants(synth, declared, QUEUE_DECLS, statements);
    expect(excess).toContain('s3:GetObject* on undeclared reports');
    expect(excess).toContain('execute-api:ManageConnections without liveConnections');
  });
});
