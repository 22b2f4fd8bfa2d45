import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Why S3 refuses a request, as its XML error says it. */
export interface SignatureRefusal {
  status: number;
  code: string;
  message: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** S3 refuses presigned URLs valid for longer than a week. */
const MAX_EXPIRES_SECONDS = 604_800;
/** S3 refuses a header-signed request dated more than 15 minutes from its clock. */
const MAX_SKEW_MS = 15 * 60 * 1000;

const refusal = (status: number, code: string, message: string): SignatureRefusal => ({
  status,
  code,
  message,
});
const accessDenied = () => refusal(403, 'AccessDenied', 'Access Denied');
const mismatch = () =>
  refusal(
    403,
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
  );

/** RFC 3986 encoding, as SigV4 wants it: encodeURIComponent leaves !'()* alone. */
const uriEncode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

const decodeOrRaw = (value: string) => {
  try {
    return decodeURIComponent(value.replace(/\+/g, '%20'));
  } catch {
    return value;
  }
};

/** `yyyymmddThhmmssZ` as a time, or undefined. */
function amzTime(value: string | undefined): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');
const hmac = (key: Buffer | string, value: string) => createHmac('sha256', key).update(value).digest();

interface SignedParts {
  accessKeyId: string;
  /** `yyyymmdd/region/service/aws4_request` */
  scope: string;
  date: string;
  amzDate: string;
  signedHeaders: string[];
  signature: string;
  payloadHash: string;
  /** The query pairs that are signed: all but the signature itself. */
  query: [string, string][];
}

function queryPairs(rawQuery: string): [string, string][] {
  if (rawQuery === '') return [];
  return rawQuery.split('&').map((part) => {
    const at = part.indexOf('=');
    return at < 0
      ? [decodeOrRaw(part), '']
      : [decodeOrRaw(part.slice(0, at)), decodeOrRaw(part.slice(at + 1))];
  });
}

function credentialParts(
  credential: string,
): { accessKeyId: string; scope: string; date: string } | undefined {
  const [accessKeyId, date, region, service, terminator, ...rest] = credential.split('/');
  if (
    !accessKeyId ||
    !date ||
    !region ||
    service !== 's3' ||
    terminator !== 'aws4_request' ||
    rest.length > 0
  )
    return undefined;
  return { accessKeyId, date, scope: [date, region, service, terminator].join('/') };
}

/**
 * The signature of a request to S3 checked as S3 checks it (Signature Version 4, in the query of a
 * presigned URL or in the Authorization header the SDK sends): the canonical request over the method,
 * the path as sent, the query and the signed headers, signed with the secret of the credential it names.
 * A presigned URL also expires. A request signed neither way is refused, as S3 refuses anonymous access
 * to a private bucket. The payload hash is taken as the request states it; the body is not hashed.
 * Undefined means the request may go on.
 */
export function checkS3Signature(
  req: IncomingMessage,
  credentials: LocalCredentials,
  now = Date.now(),
): SignatureRefusal | undefined {
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const rawPath = q < 0 ? rawUrl : rawUrl.slice(0, q);
  const pairs = queryPairs(q < 0 ? '' : rawUrl.slice(q + 1));
  const param = (name: string) => pairs.find(([k]) => k === name)?.[1];

  let parts: SignedParts;
  const authorization = req.headers.authorization;
  if (param('X-Amz-Signature') !== undefined || param('X-Amz-Algorithm') !== undefined) {
    if (param('X-Amz-Algorithm') !== ALGORITHM)
      return refusal(
        400,
        'AuthorizationQueryParametersError',
        'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"',
      );
    const credential = credentialParts(param('X-Amz-Credential') ?? '');
    const amzDate = param('X-Amz-Date') ?? '';
    const signed = amzTime(amzDate);
    const expires = Number(param('X-Amz-Expires'));
    const signature = param('X-Amz-Signature');
    const signedHeaders = param('X-Amz-SignedHeaders');
    if (!credential || signed === undefined || !signature || !signedHeaders || !Number.isInteger(expires))
      return refusal(
        400,
        'AuthorizationQueryParametersError',
        'Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.',
      );
    if (expires < 1 || expires > MAX_EXPIRES_SECONDS)
      return refusal(
        400,
        'AuthorizationQueryParametersError',
        'X-Amz-Expires must be less than a week (in seconds) that is 604800',
      );
    if (now > signed + expires * 1000) return refusal(403, 'AccessDenied', 'Request has expired');
    parts = {
      ...credential,
      amzDate,
      signedHeaders: signedHeaders.split(';'),
      signature,
      payloadHash: param('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
      query: pairs.filter(([k]) => k !== 'X-Amz-Signature'),
    };
  } else if (authorization) {
    const m =
      /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]+)$/.exec(
        authorization.trim(),
      );
    const credential = credentialParts(m?.[1] ?? '');
    const amzDate = String(req.headers['x-amz-date'] ?? '');
    const signed = amzTime(amzDate);
    if (!m || !credential || signed === undefined)
      return refusal(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed');
    if (Math.abs(now - signed) > MAX_SKEW_MS)
      return refusal(
        403,
        'RequestTimeTooSkewed',
        'The difference between the request time and the current time is too large.',
      );
    parts = {
      ...credential,
      amzDate,
      signedHeaders: (m[2] ?? '').split(';'),
      signature: m[3] ?? '',
      payloadHash: String(req.headers['x-amz-content-sha256'] ?? ''),
      query: pairs,
    };
    if (!parts.payloadHash)
      return refusal(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  } else {
    return accessDenied();
  }

  if (parts.accessKeyId !== credentials.accessKeyId)
    return refusal(
      403,
      'InvalidAccessKeyId',
      'The AWS Access Key Id you provided does not exist in our records.',
    );
  if (!parts.amzDate.startsWith(parts.date)) return mismatch();
  if (!parts.signedHeaders.includes('host')) return accessDenied();

  const canonicalHeaders = parts.signedHeaders
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalQuery = parts.query
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    req.method ?? 'GET',
    rawPath,
    canonicalQuery,
    canonicalHeaders,
    parts.signedHeaders.join(';'),
    parts.payloadHash,
  ].join('\n');
  const stringToSign = [ALGORITHM, parts.amzDate, parts.scope, sha256Hex(canonicalRequest)].join('\n');
  const [date = '', region = '', service = ''] = parts.scope.split('/');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, date), region), service),
    'aws4_request',
  );
  const expected = createHmac('sha256', key).update(stringToSign).digest();
  const given = Buffer.from(parts.signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return mismatch();
  return undefined;
}
