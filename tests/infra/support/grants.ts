import { type FunctionDecl, QUEUES, type QueueDecl } from '../../../shared/system/functions.ts';
import {
  isRecord,
  type Located,
  referencedResources,
  resourcesOfType,
  type Synthesized,
  tag,
} from './synth.ts';

export interface Statement {
  /** The stack whose template holds the statement, where its references resolve. */
  stack: string;
  effect: string;
  actions: string[];
  resource: unknown;
}

const list = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];

export function functionResource(synth: Synthesized, name: string): Located {
  const matches = resourcesOfType(synth, 'AWS::Lambda::Function').filter(
    (f) => tag(f.resource, 'voltfolio:function') === name,
  );
  if (matches.length !== 1 || !matches[0])
    throw new Error(`Expected one Lambda function ${name}, found ${matches.length}`);
  return matches[0];
}

/** The statements of every policy attached to the function's execution role. */
export function roleStatements(synth: Synthesized, fn: Located): Statement[] {
  const [role] = referencedResources(synth, fn.stack, fn.resource.Properties?.Role);
  if (!role) throw new Error(`${fn.logicalId} has no role`);
  const documents: { stack: string; doc: unknown }[] = [];
  for (const policy of resourcesOfType(synth, 'AWS::IAM::Policy')) {
    const roles = referencedResources(synth, policy.stack, policy.resource.Properties?.Roles);
    if (roles.some((r) => r.stack === role.stack && r.logicalId === role.logicalId)) {
      documents.push({ stack: policy.stack, doc: policy.resource.Properties?.PolicyDocument });
    }
  }
  for (const inline of list(role.resource.Properties?.Policies)) {
    if (isRecord(inline)) documents.push({ stack: role.stack, doc: inline.PolicyDocument });
  }
  return documents.flatMap(({ stack, doc }) =>
    list(isRecord(doc) ? doc.Statement : undefined).map((s) => {
      const statement = isRecord(s) ? s : {};
      return {
        stack,
        effect: String(statement.Effect),
        actions: list(statement.Action).map(String),
        resource: statement.Resource,
      };
    }),
  );
}

/** Managed policies of the function's role, by name (the last part of their ARN). */
export function managedPolicyNames(synth: Synthesized, fn: Located): string[] {
  const [role] = referencedResources(synth, fn.stack, fn.resource.Properties?.Role);
  return list(role?.resource.Properties?.ManagedPolicyArns).map((arn) => {
    const text = JSON.stringify(arn);
    return text.slice(text.lastIndexOf('/') + 1).replace(/[^A-Za-z0-9-]/g, '');
  });
}

const S3_READ = /^s3:(Get|List)/;
const TABLE_READ = new Set([
  'dynamodb:BatchGetItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
  'dynamodb:GetItem',
  'dynamodb:GetRecords',
  'dynamodb:GetShardIterator',
  'dynamodb:Query',
  'dynamodb:Scan',
]);
const SQS_SEND = new Set(['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl']);
const SQS_CONSUME = new Set([
  'sqs:ReceiveMessage',
  'sqs:DeleteMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueAttributes',
  'sqs:GetQueueUrl',
]);

/** The one KMS action a function's portal-secrets grant names. */
const kmsActionOf = (decl: FunctionDecl): string | undefined =>
  decl.grants.portalSecrets === 'seal'
    ? 'kms:Encrypt'
    : decl.grants.portalSecrets === 'open'
      ? 'kms:Decrypt'
      : undefined;

function describe(target: Located): string {
  return (
    tag(target.resource, 'voltfolio:bucket') ??
    tag(target.resource, 'voltfolio:queue') ??
    `${target.resource.Type} ${target.logicalId}`
  );
}

/**
 * What the function's role allows beyond its declaration: one line per action and resource it should
 * not have. Consuming the queue of which the function is the declared consumer counts as declared.
 */
export function excessGrants(
  synth: Synthesized,
  decl: FunctionDecl,
  queues: readonly QueueDecl[],
  statements: Statement[],
): string[] {
  const excess: string[] = [];
  const buckets = decl.grants.buckets ?? {};
  const sends = new Set<string>(decl.grants.queues ?? []);
  const consumes = new Set<string>(queues.filter((q) => q.consumer === decl.name).map((q) => q.name));

  for (const statement of statements.filter((s) => s.effect === 'Allow')) {
    const targets = referencedResources(synth, statement.stack, statement.resource);
    for (const action of statement.actions) {
      const service = action.split(':')[0];
      const deny = (why: string) => excess.push(`${action} ${why}`);
      if (service === 'dynamodb') {
        if (targets.some((t) => t.resource.Type !== 'AWS::DynamoDB::Table'))
          deny('on something other than the table');
        if (decl.grants.table === 'read' && !TABLE_READ.has(action))
          deny('writes a table declared read-only');
      } else if (service === 's3') {
        for (const target of targets) {
          const name = tag(target.resource, 'voltfolio:bucket');
          const access = name ? buckets[name as keyof typeof buckets] : undefined;
          if (!access) deny(`on undeclared ${describe(target)}`);
          else if (S3_READ.test(action) ? access === 'write' : access === 'read')
            deny(`on ${name} (${access})`);
        }
        if (targets.length === 0) deny('on unnamed resources');
      } else if (service === 'sqs') {
        for (const target of targets) {
          const name = tag(target.resource, 'voltfolio:queue') ?? '';
          const allowed =
            (sends.has(name) && SQS_SEND.has(action)) ||
            (consumes.has(name) && SQS_CONSUME.has(action)) ||
            (decl.grants.queueDepths === true && name !== '' && action === 'sqs:GetQueueAttributes');
          if (!allowed) deny(`on ${describe(target)}`);
        }
        if (targets.length === 0) deny('on unnamed resources');
      } else if (action === 'execute-api:ManageConnections') {
        if (!decl.grants.liveConnections) deny('without liveConnections');
        if (!targets.some((t) => t.resource.Type === 'AWS::ApiGatewayV2::Api')) deny('on no WebSocket API');
      } else if (action === 'ses:SendEmail' || action === 'ses:SendRawEmail') {
        if (!decl.grants.sendEmail) deny('without sendEmail');
        if (!targets.every((t) => t.resource.Type === 'AWS::SES::EmailIdentity'))
          deny('beyond the sender identity');
      } else if (service === 'textract') {
        if (!decl.grants.textract) deny('without textract');
      } else if (service === 'kms') {
        const declared = kmsActionOf(decl);
        if (action !== declared)
          deny(decl.grants.portalSecrets ? `beyond ${declared}` : 'without portalSecrets');
        if (!targets.every((t) => t.resource.Type === 'AWS::KMS::Key') || targets.length === 0)
          deny('beyond the portal secrets key');
      } else if (service === 'cognito-idp') {
        if (!decl.grants.userPool) deny('without userPool');
        if (!targets.every((t) => t.resource.Type === 'AWS::Cognito::UserPool')) deny('beyond the user pool');
      } else {
        deny('is never declared');
      }
    }
  }
  return excess;
}

/** Declared grants the role lacks. */
export function missingGrants(synth: Synthesized, decl: FunctionDecl, statements: Statement[]): string[] {
  const allowed = statements.filter((s) => s.effect === 'Allow');
  const has = (action: string, accept: (t: Located) => boolean) =>
    allowed.some(
      (s) =>
        s.actions.includes(action) && referencedResources(synth, s.stack, s.resource).some((t) => accept(t)),
    );
  const missing: string[] = [];
  const tableWrite = decl.grants.table === 'readwrite';
  if (!has('dynamodb:Query', (t) => t.resource.Type === 'AWS::DynamoDB::Table')) missing.push('table read');
  if (tableWrite && !has('dynamodb:PutItem', (t) => t.resource.Type === 'AWS::DynamoDB::Table')) {
    missing.push('table write');
  }
  for (const [bucket, access] of Object.entries(decl.grants.buckets ?? {})) {
    const isBucket = (t: Located) => tag(t.resource, 'voltfolio:bucket') === bucket;
    if (access !== 'write' && !has('s3:GetObject*', isBucket)) missing.push(`${bucket} read`);
    if (access !== 'read' && !has('s3:PutObject', isBucket)) missing.push(`${bucket} write`);
  }
  for (const queue of decl.grants.queues ?? []) {
    if (!has('sqs:SendMessage', (t) => tag(t.resource, 'voltfolio:queue') === queue))
      missing.push(`${queue} send`);
  }
  if (decl.grants.queueDepths) {
    for (const queue of QUEUES.flatMap((q) => [q, `${q}-dlq`])) {
      if (!has('sqs:GetQueueAttributes', (t) => tag(t.resource, 'voltfolio:queue') === queue))
        missing.push(`${queue} depth`);
    }
  }
  if (decl.grants.liveConnections && !has('execute-api:ManageConnections', () => true)) {
    missing.push('live connections');
  }
  if (decl.grants.sendEmail && !has('ses:SendEmail', (t) => t.resource.Type === 'AWS::SES::EmailIdentity')) {
    missing.push('send e-mail');
  }
  const kmsAction = kmsActionOf(decl);
  if (kmsAction && !has(kmsAction, (t) => t.resource.Type === 'AWS::KMS::Key'))
    missing.push('portal secrets');
  if (decl.grants.textract && !allowed.some((s) => s.actions.includes('textract:StartExpenseAnalysis'))) {
    missing.push('textract');
  }
  return missing;
}
