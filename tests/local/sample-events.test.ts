import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  S3Event,
  SQSEvent,
} from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3ObjectsOf } from '../../functions/core/lib/s3-event.ts';
import { parseQueueMessage } from '../../functions/core/middleware/queue-function.ts';
import { handler as emailIntake } from '../../functions/handlers/queue/email-intake.ts';
import { handler as live } from '../../functions/handlers/ws/live.ts';
import { apiGatewayEvent } from '../../infra/local/api-event.ts';
import { localBucketName } from '../../infra/local/environment.ts';
import { REPO_ROOT } from '../../infra/local/options.ts';
import { connectEvent } from '../../infra/local/ws-event.ts';
import { BUCKETS, FUNCTIONS } from '../../shared/system/functions.ts';
import { MAIL_RECEIPTS, QUEUE_DECLS } from '../../shared/system/pipeline.ts';
import { RouteTable } from '../../shared/system/route-match.ts';
import { HTTP_ROUTES } from '../../shared/system/routes.ts';
import { lambdaContext } from '../support/http-events.ts';
import { type LocalStackHandle, startLocalStack } from '../support/local-stack.ts';

/** The samples in events/ are what AWS hands the functions; these tests keep them and the code in step. */
const sample = <T>(name: string): T =>
  JSON.parse(readFileSync(join(REPO_ROOT, 'events', `${name}.json`), 'utf8')) as T;

const keysOf = (o: object) => Object.keys(o).sort();

let local: LocalStackHandle;
beforeAll(async () => {
  local = await startLocalStack({ pollers: false });
});
afterAll(() => local?.stop());

describe('events/s3-put.json', () => {
  const event = sample<S3Event>('s3-put');

  it('names an object where SES stores the mail whose receipt reaches a declared queue', () => {
    const [object] = s3ObjectsOf(JSON.stringify(event));
    expect(object).toMatchObject({ bucket: 'voltfolio-inbox', size: 48213 });
    const bucket = BUCKETS.find((b) => localBucketName(b) === object?.bucket);
    const routed = MAIL_RECEIPTS.filter((s) => s.bucket === bucket && object?.key.startsWith(s.prefix));
    expect(routed.map((s) => s.queue)).toEqual(['email-intake']);
  });
});

describe('events/ses-inbound.json', () => {
  const event = sample<{
    Records: { ses: { mail: { messageId: string; destination: string[] } } }[];
  }>('ses-inbound');

  it('is the mail whose stored copy the S3 sample announces, sent to the capture domain', () => {
    const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as {
      context: Record<string, string>;
    };
    const mail = event.Records[0]?.ses.mail;
    expect(mail?.destination[0]?.endsWith(`@${cdkJson.context['voltfolio:mailCaptureDomain']}`)).toBe(true);
    const [stored] = s3ObjectsOf(JSON.stringify(sample<S3Event>('s3-put')));
    expect(stored?.key.endsWith(`/${mail?.messageId}.eml`)).toBe(true);
  });
});

describe('events/sqs-batch.json', () => {
  const event = sample<SQSEvent>('sqs-batch');

  it("comes from a declared queue and carries SES receipts its consumer's parser reads", () => {
    for (const record of event.Records) {
      const queue = record.eventSourceARN.split(':').pop();
      const decl = QUEUE_DECLS.find((q) => q.name === queue);
      expect(decl?.consumer, queue).toBe('email-intake');
      expect(parseQueueMessage('email-intake', record.body)).toMatchObject({ ok: true });
    }
  });

  it('is consumed by the e-mail intake worker, which reports only the records it could not process', async () => {
    const objects = event.Records.map((r) => {
      const action = (
        JSON.parse(r.body) as { receipt: { action: { bucketName: string; objectKey: string } } }
      ).receipt.action;
      return { bucket: action.bucketName, key: action.objectKey };
    });
    const [first] = objects;
    if (!first) throw new Error('no object in the sample');
    await local.stack.messaging.s3.send(
      new PutObjectCommand({
        Bucket: first.bucket,
        Key: first.key,
        Body: 'From: billing@supplier.example\r\nTo: nobody@capture.voltfolio.example\r\nSubject: Bill\r\n\r\nhello',
      }),
    );
    try {
      expect(await emailIntake(event)).toEqual({
        batchItemFailures: [],
      });
    } finally {
      await local.stack.messaging.s3.send(new DeleteObjectCommand({ Bucket: first.bucket, Key: first.key }));
    }
    // With the stored mail gone, the same record fails alone and is left for a retry.
    const again = await emailIntake(event);
    expect(again).toEqual({ batchItemFailures: [{ itemIdentifier: event.Records[0]?.messageId }] });
  });
});

describe('events/http-request.json', () => {
  const event = sample<APIGatewayProxyEventV2>('http-request');

  it('has the shape the local gateway builds for the same request', () => {
    const built = apiGatewayEvent(
      {
        method: event.requestContext.http.method,
        url: `${event.rawPath}?${event.rawQueryString}`,
        httpVersion: '1.1',
        rawHeaders: [
          ...Object.entries(event.headers).flatMap(([k, v]) => [k, v ?? '']),
          'cookie',
          (event.cookies ?? []).join('; '),
        ],
        body: Buffer.alloc(0),
        sourceIp: event.requestContext.http.sourceIp,
        requestId: event.requestContext.requestId,
        now: new Date(event.requestContext.timeEpoch),
      },
      { routeKey: event.routeKey },
    );
    expect(keysOf(built)).toEqual(keysOf(event));
    expect(keysOf(built.requestContext)).toEqual(keysOf(event.requestContext));
    expect(built.queryStringParameters).toEqual(event.queryStringParameters);
    expect(built.cookies).toEqual(event.cookies);
    expect(built.requestContext.time).toBe(event.requestContext.time);
  });

  it('reaches a declared route of the function it names, which refuses its made-up token', async () => {
    const path = event.rawPath.replace(/^\/api/, '');
    const match = new RouteTable(HTTP_ROUTES).match(event.requestContext.http.method, path);
    if (!match) throw new Error(`no route for ${path}`);
    const decl = FUNCTIONS.find((f) => f.name === match.route.fn);
    const mod = (await import(join(REPO_ROOT, decl?.entry ?? ''))) as {
      handler: (e: APIGatewayProxyEventV2, c: unknown) => Promise<APIGatewayProxyStructuredResultV2>;
    };
    const result = await mod.handler(event, lambdaContext(match.route.fn));
    // 401, not 404: the route was found before the token was checked.
    expect(result.statusCode).toBe(401);
    expect(JSON.parse(String(result.body))).toMatchObject({ code: 'UNAUTHORISED' });
    expect(result.headers?.['x-correlation-id']).toBe(event.headers['x-correlation-id']);
  });
});

describe('events/ws-connect.json', () => {
  type WsEvent = Parameters<typeof live>[0];
  type WsSample = WsEvent & {
    headers: Record<string, string>;
    requestContext: WsEvent['requestContext'] & { identity: { sourceIp: string; userAgent: string } };
  };
  const event = sample<WsSample>('ws-connect');
  const connect = async (e: WsEvent) => (await live(e)) as APIGatewayProxyStructuredResultV2;

  it('has the shape the local WebSocket gateway builds for a connection', () => {
    const built = connectEvent(
      {
        connectionId: event.requestContext.connectionId,
        connectedAt: event.requestContext.connectedAt,
        domainName: event.requestContext.domainName,
        sourceIp: event.requestContext.identity.sourceIp,
        userAgent: event.requestContext.identity.userAgent,
        rawHeaders: Object.entries(event.headers).flat(),
      },
      new URLSearchParams(event.queryStringParameters as Record<string, string>),
    );
    expect(keysOf(built)).toEqual(keysOf(event));
    expect(keysOf(built.requestContext)).toEqual(keysOf(event.requestContext));
    expect(built.requestContext.stage).toBe(event.requestContext.stage);
  });

  it('is refused by the live function for its made-up token, and for none', async () => {
    expect((await connect(event)).statusCode).toBe(401);
    const bare = { ...event, queryStringParameters: undefined };
    expect(await connect(bare)).toMatchObject({
      statusCode: 401,
      body: JSON.stringify({ message: 'Missing token' }),
    });
  });
});
