import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

export interface TestRequest {
  method: string;
  path: string;
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** An API Gateway HTTP API (payload 2.0) event, as the gateway builds it for the `/api/*` routes. */
export function httpEvent(req: TestRequest): APIGatewayProxyEventV2 {
  const [rawPath = '/', rawQueryString = ''] = `/api${req.path}`.split('?');
  const query = new URLSearchParams(rawQueryString);
  const queryStringParameters: Record<string, string> = Object.fromEntries(
    [...new Set(query.keys())].map((key) => [key, query.getAll(key).join(',')]),
  );
  const prefix = rawPath.split('/')[2] ?? '';
  const body = req.rawBody ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  return {
    version: '2.0',
    routeKey: `ANY /api/${prefix}/{proxy+}`,
    rawPath,
    rawQueryString,
    headers: {
      'content-type': 'application/json',
      ...(req.token ? { authorization: `Bearer ${req.token}` } : {}),
      ...req.headers,
    },
    queryStringParameters: Object.keys(queryStringParameters).length ? queryStringParameters : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: 'vitest',
      },
      requestId: `req-${Math.random().toString(36).slice(2)}`,
      routeKey: `ANY /api/${prefix}/{proxy+}`,
      stage: '$default',
      time: new Date().toUTCString(),
      timeEpoch: Date.now(),
    },
    body,
    isBase64Encoded: false,
  };
}

export const lambdaContext = (name = 'test'): Context =>
  ({
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-west-2:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    awsRequestId: `req-${Math.random().toString(36).slice(2)}`,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;

export interface TestResponse {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

export function parseResult(
  result: APIGatewayProxyStructuredResultV2 | string | undefined | null,
): TestResponse {
  if (!result || typeof result === 'string') throw new Error('Expected a structured result');
  const text = typeof result.body === 'string' ? result.body : '';
  return {
    status: result.statusCode ?? 200,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
    headers: Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)])),
  };
}
