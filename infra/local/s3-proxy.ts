import { type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { S3Client } from '@aws-sdk/client-s3';
import { BUCKETS } from '../../shared/system/functions.ts';
import { LOCAL_CREDENTIALS, localBucketName } from './environment.ts';
import { EntityTooLarge, largePut, needsLargePut } from './s3-large-put.ts';
import { checkS3Signature, type LocalCredentials } from './s3-signature.ts';

export const S3_PATH = '/s3';

/** Query parameters with which a (presigned) GET asks S3 to override response headers. */
const RESPONSE_OVERRIDES: Record<string, string> = {
  'response-content-type': 'content-type',
  'response-content-disposition': 'content-disposition',
  'response-content-language': 'content-language',
  'response-content-encoding': 'content-encoding',
  'response-cache-control': 'cache-control',
  'response-expires': 'expires',
};

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
]);

const decode = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return '';
  }
};

function s3Error(res: ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

/**
 * S3 as the product sees it, path-style under `/s3/<bucket>/<key>`: browsers use it on the app's own
 * origin (presigned URLs are same-origin, as CloudFront makes them in AWS) and the functions use it as
 * their S3 endpoint. Requests and answers stream through unchanged, except a PUT larger than the
 * emulator takes in one request, which is stored in parts. Only the product's buckets are reachable (the
 * emulator also serves SQS on its port). The emulator checks no signatures, so this front does, as S3
 * does: a request must be signed with the local stack's credentials (in the Authorization header, as the
 * SDK signs, or in a presigned URL's query, which also expires), so a URL's key, method or signed
 * Content-Length cannot be edited and nothing is listed or read without credentials.
 */
export function s3Proxy(
  emulatorEndpoint: string,
  allowedOrigin: string,
  emulator: S3Client,
  credentials: LocalCredentials = LOCAL_CREDENTIALS,
) {
  const upstream = new URL(emulatorEndpoint);
  const buckets = new Set<string>(BUCKETS.map(localBucketName));

  return function proxy(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://local');
    const path = url.pathname.slice(S3_PATH.length) || '/';
    const [, bucketPart = '', ...keyParts] = path.split('/');
    const bucket = decode(bucketPart);
    const key = decode(keyParts.join('/'));
    const cors: Record<string, string> = {
      'access-control-allow-origin': allowedOrigin,
      'access-control-expose-headers': 'etag, x-amz-request-id, x-amz-version-id, content-length',
      vary: 'origin',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'GET, HEAD, PUT, POST, DELETE',
        'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? '*'),
        'access-control-max-age': '3600',
      });
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    if (!buckets.has(bucket)) {
      s3Error(res, 404, 'NoSuchBucket', 'The specified bucket does not exist');
      return;
    }
    const refused = checkS3Signature(req, credentials);
    if (refused) {
      // The body is not read: S3 answers and closes, and so does this front.
      res.setHeader('connection', 'close');
      s3Error(res, refused.status, refused.code, refused.message);
      req.resume();
      return;
    }
    if (needsLargePut(req, url, key)) {
      largePut(emulator, req, bucket, key).then(
        (etag) => {
          res.writeHead(200, { etag, 'content-length': '0' });
          res.end();
        },
        (err: unknown) => {
          if (err instanceof EntityTooLarge) {
            s3Error(res, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
          } else {
            s3Error(res, 500, 'InternalError', 'The object could not be stored');
          }
        },
      );
      return;
    }
    // The emulator answers `Expect: 100-continue` itself; passing it on would only delay the body.
    const { expect: _expect, ...forwarded } = req.headers;
    const out = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: `${path}${url.search}`,
        headers: { ...forwarded, host: upstream.host },
      },
      (answer) => {
        const responseHeaders: Record<string, string | string[]> = {};
        for (const [name, value] of Object.entries(answer.headers)) {
          if (value !== undefined && !HOP_BY_HOP.has(name)) responseHeaders[name] = value;
        }
        if ((req.method === 'GET' || req.method === 'HEAD') && (answer.statusCode ?? 500) < 300) {
          for (const [param, header] of Object.entries(RESPONSE_OVERRIDES)) {
            const value = url.searchParams.get(param);
            if (value !== null) responseHeaders[header] = value;
          }
        }
        res.writeHead(answer.statusCode ?? 502, responseHeaders);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) s3Error(res, 502, 'BadGateway', 'The S3 emulator did not answer');
      else res.destroy();
    });
    req.on('error', () => out.destroy());
    req.pipe(out);
  };
}
