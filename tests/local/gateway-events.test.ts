import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { apiGatewayEvent, gatewayResponse } from '../../infra/local/api-event.ts';
import { type Component, healthOf } from '../../infra/local/health.ts';
import { apiRoute } from '../../infra/local/http-gateway.ts';
import { unsupportedNodeMessage } from '../../infra/local/node-version.ts';
import { messagesToDelete } from '../../infra/local/queue-pollers.ts';
import { encodeEventKey } from '../../infra/local/s3-notification.ts';
import { connectEvent, selectRoute } from '../../infra/local/ws-event.ts';
import { routePrefixes } from '../../shared/system/routes.ts';

const request = (url: string, rawHeaders: string[], body = '') => ({
  method: 'POST',
  url,
  httpVersion: '1.1',
  rawHeaders,
  body: Buffer.from(body),
  sourceIp: '127.0.0.1',
  requestId: 'abc=',
  now: new Date('2026-03-12T19:03:58.000Z'),
});

describe('the API Gateway event (payload 2.0)', () => {
  it('keeps query parameters named as what every object inherits as parameters', () => {
    const query = 'constructor=a&constructor=b&__proto__=x&toString=y';
    const e = apiGatewayEvent(request(`/api/assets?${query}`, []), { routeKey: 'ANY /api/assets' });
    expect(Object.entries(e.queryStringParameters ?? {})).toEqual([
      ['constructor', 'a,b'],
      ['__proto__', 'x'],
      ['toString', 'y'],
    ]);
    const info = { connectionId: 'c', connectedAt: 0, domainName: 'd', sourceIp: 'ip', userAgent: 'ua' };
    const ws = connectEvent({ ...info, rawHeaders: [] }, new URLSearchParams(query));
    expect(Object.entries(ws.multiValueQueryStringParameters ?? {})).toEqual([
      ['constructor', ['a', 'b']],
      ['__proto__', ['x']],
      ['toString', ['y']],
    ]);
  });

  it('has the fields API Gateway fills in', () => {
    const e = apiGatewayEvent(
      request(
        '/api/assets/a1?tag=x&tag=y&q=hello+world%21&empty',
        [
          'Host',
          'localhost:3000',
          'X-Multi',
          'one',
          'x-multi',
          'two',
          'Cookie',
          'a=1; b=2',
          'User-Agent',
          'ua',
        ],
        '{"x":1}',
      ),
      { routeKey: 'ANY /api/assets/{proxy+}', proxy: 'a1' },
    );
    expect(e).toMatchObject({
      version: '2.0',
      routeKey: 'ANY /api/assets/{proxy+}',
      rawPath: '/api/assets/a1',
      rawQueryString: 'tag=x&tag=y&q=hello+world%21&empty',
      cookies: ['a=1', 'b=2'],
      headers: { host: 'localhost:3000', 'x-multi': 'one,two', 'user-agent': 'ua' },
      queryStringParameters: { tag: 'x,y', q: 'hello world!', empty: '' },
      pathParameters: { proxy: 'a1' },
      body: '{"x":1}',
      isBase64Encoded: false,
      requestContext: {
        domainName: 'localhost',
        http: {
          method: 'POST',
          path: '/api/assets/a1',
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: 'ua',
        },
        requestId: 'abc=',
        stage: '$default',
        time: '12/Mar/2026:19:03:58 +0000',
        timeEpoch: Date.parse('2026-03-12T19:03:58.000Z'),
      },
    });
    expect(e.headers.cookie).toBeUndefined();
  });

  it('base64-encodes binary bodies and leaves out what the request did not have', () => {
    const e = apiGatewayEvent(request('/api/invoices', ['content-type', 'application/pdf'], '%PDF'), {
      routeKey: 'ANY /api/invoices',
    });
    expect(e.isBase64Encoded).toBe(true);
    expect(Buffer.from(e.body ?? '', 'base64').toString()).toBe('%PDF');
    expect(e.queryStringParameters).toBeUndefined();
    expect(e.cookies).toBeUndefined();
    expect(e.pathParameters).toBeUndefined();
  });

  it('goes to the function serving the path prefix, or to the session function for an unknown one', () => {
    const prefixes = routePrefixes();
    expect(apiRoute('/api/asset-groups/g%201/members', prefixes)).toEqual({
      fn: 'asset-groups',
      route: { routeKey: 'ANY /api/asset-groups/{proxy+}', proxy: 'g 1/members' },
    });
    expect(apiRoute('/api/invoices', prefixes)).toEqual({
      fn: 'invoices',
      route: { routeKey: 'ANY /api/invoices' },
    });
    expect(apiRoute('/api/nope/1', prefixes).fn).toBe('session');
  });

  it('maps results back: cookies, base64 bodies, and a bare object as a 200 JSON body', () => {
    const r = gatewayResponse({
      statusCode: 201,
      headers: { 'x-a': 'b' },
      cookies: ['s=1; Path=/', 't=2'],
      body: Buffer.from('hi').toString('base64'),
      isBase64Encoded: true,
    });
    expect(r.statusCode).toBe(201);
    expect(r.headers).toEqual([
      ['x-a', 'b'],
      ['set-cookie', 's=1; Path=/'],
      ['set-cookie', 't=2'],
    ]);
    expect(r.body.toString()).toBe('hi');
    const bare = gatewayResponse({ ok: true });
    expect(bare.statusCode).toBe(200);
    expect(JSON.parse(bare.body.toString())).toEqual({ ok: true });
  });
});

describe('S3 event keys', () => {
  it('are form-encoded like S3 does, with slashes kept', () => {
    expect(encodeEventKey('mail/2026/a b+c.eml')).toBe('mail/2026/a+b%2Bc.eml');
    expect(encodeEventKey("x/(draft)!'é.pdf")).toBe('x/%28draft%29%21%27%C3%A9.pdf');
  });
});

describe('batch results of queue consumers', () => {
  const records = ['m1', 'm2', 'm3'].map((messageId) => ({ messageId }) as SQSRecord);
  const ids = (list: SQSRecord[]) => list.map((r) => r.messageId);

  it('delete everything but the reported failures', () => {
    expect(
      ids(messagesToDelete(records, { result: { batchItemFailures: [{ itemIdentifier: 'm2' }] } })),
    ).toEqual(['m1', 'm3']);
    expect(ids(messagesToDelete(records, { result: undefined }))).toEqual(['m1', 'm2', 'm3']);
  });

  it('keep the whole batch when the handler threw or named an unknown message', () => {
    expect(messagesToDelete(records, { error: new Error('boom') })).toEqual([]);
    expect(messagesToDelete(records, { result: { batchItemFailures: [{ itemIdentifier: 'zz' }] } })).toEqual(
      [],
    );
  });
});

describe('WebSocket route selection', () => {
  const keys = new Set(['$connect', '$disconnect', '$default', 'ping']);
  it('uses the action of a JSON message, else $default', () => {
    expect(selectRoute(Buffer.from('{"action":"ping"}'), false, keys)).toBe('ping');
    expect(selectRoute(Buffer.from('{"action":"other"}'), false, keys)).toBe('$default');
    expect(selectRoute(Buffer.from('{"action":"$connect"}'), false, keys)).toBe('$default');
    expect(selectRoute(Buffer.from('not json'), false, keys)).toBe('$default');
  });
});

describe('the Node version check', () => {
  it('refuses Node before 24 with the way to start it instead', () => {
    expect(unsupportedNodeMessage('22.18.0', '/usr/bin/node')).toMatch(
      /needs Node 24 or newer.*22\.18\.0[\s\S]*npm start/,
    );
    expect(unsupportedNodeMessage('24.0.0', '/x/node')).toBeUndefined();
    expect(unsupportedNodeMessage('25.1.0', '/x/node')).toBeUndefined();
  });
});

describe('health', () => {
  it('is 503 while starting or when a part failed, 200 only when all is up', () => {
    const up = new Map<string, Component>([['dynamodb', { status: 'up' }]]);
    expect(healthOf(false, up).status).toBe(503);
    expect(healthOf(true, up)).toMatchObject({ status: 200, body: { status: 'ok' } });
    const failed = new Map<string, Component>([...up, ['oidc', { status: 'failed', detail: 'no module' }]]);
    expect(healthOf(true, failed)).toMatchObject({
      status: 503,
      body: { status: 'degraded', services: { oidc: { status: 'failed', detail: 'no module' } } },
    });
  });
});
