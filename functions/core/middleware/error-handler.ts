import type { MiddlewareObj } from '@middy/core';
import { $ZodError } from 'zod/v4/core';
import { ApiError } from '../lib/errors.ts';
import { formMessagesOf } from '../lib/validation.ts';
import type { ApiContext, HttpEvent, HttpResult } from './api-context.ts';
import { jsonResponse } from './json-response.ts';

/** What a caller reads for any failure at 500 or above, whatever the error said. */
export const GENERIC_MESSAGE = 'Something went wrong. Please try again.';

/**
 * The one place errors become responses. Below 500 the caller sees the message (and `formMessages`
 * for form errors); at 500 and above they see a generic message and the correlation id, never a stack trace.
 */
export function errorHandler(): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'error-handler',
    onError: (request) => {
      const err = request.error;
      const api = request.context.api;
      const correlationId = api?.correlationId ?? 'unknown';
      if (err instanceof ApiError) {
        const shown = err.status < 500;
        if (shown) api?.log.info('request refused', { status: err.status, code: err.code });
        // The message of a failure on our side (or a service behind us) may name internals: it is logged only.
        else api?.log.error('request failed', { status: err.status, code: err.code, error: err.message });
        request.response = jsonResponse(
          err.status,
          {
            status: err.status,
            code: err.code,
            message: shown ? err.message : GENERIC_MESSAGE,
            ...(shown && err.formMessages ? { formMessages: err.formMessages } : {}),
            correlationId,
          },
          { ...err.headers, 'x-correlation-id': correlationId },
        );
        return;
      }
      // zod's full build and zod/mini (the schemas built on first use) both throw a $ZodError.
      if (err instanceof $ZodError) {
        request.response = jsonResponse(
          400,
          {
            status: 400,
            code: 'VALIDATION_ERROR',
            message: 'Form validation error',
            formMessages: formMessagesOf(err),
            correlationId,
          },
          { 'x-correlation-id': correlationId },
        );
        return;
      }
      api?.log.error('unhandled error', {
        error:
          err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err),
      });
      request.response = jsonResponse(
        500,
        {
          status: 500,
          code: 'INTERNAL_ERROR',
          message: GENERIC_MESSAGE,
          correlationId,
        },
        { 'x-correlation-id': correlationId },
      );
    },
  };
}
