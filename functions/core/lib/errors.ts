/** Typed errors that the error middleware maps to responses. Messages are shown to callers only below 500. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly formMessages?: Record<string, string>;
  readonly headers?: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    extra?: { formMessages?: Record<string, string>; headers?: Record<string, string> },
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.formMessages = extra?.formMessages;
    this.headers = extra?.headers;
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') => new ApiError(400, code, message);

/** A form error: 400 with one message per field, as the client shows them beside its fields. */
export const formError = (formMessages: Record<string, string>, message = 'Form validation error') =>
  new ApiError(400, 'VALIDATION_ERROR', message, { formMessages });

export const unauthorized = (message = 'Unauthorised') => new ApiError(401, 'UNAUTHORISED', message);
export const FORBIDDEN_MESSAGE = 'You do not have permission to do this';
export const forbidden = (message = FORBIDDEN_MESSAGE) => new ApiError(403, 'FORBIDDEN', message);
/** Also the answer for items of another company or items the caller may not read: it never reveals existence. */
export const notFound = (message = 'Not found') => new ApiError(404, 'NOT_FOUND', message);
export const routeNotFound = (method: string, path: string) =>
  new ApiError(404, 'ROUTE_NOT_FOUND', `No route for ${method} ${path}`);
/** A call the route declares but refuses outright: the resource is only read here (`Allow: GET`). */
export const readOnly = (message: string) =>
  new ApiError(405, 'METHOD_NOT_ALLOWED', message, { headers: { Allow: 'GET' } });
export const conflict = (message: string) => new ApiError(409, 'CONFLICT', message);
export const payloadTooLarge = (limit: number) =>
  new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${limit} bytes`);
/**
 * An outside service (postcodes, police, EPC register, logo search) failed. 424 Failed Dependency rather
 * than 502 so the page's own message reaches the caller: messages at 500 and above are never shown.
 */
export const upstreamFailed = (message: string) => new ApiError(424, 'UPSTREAM_ERROR', message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, 'TOO_MANY_REQUESTS', 'Too many requests', {
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
