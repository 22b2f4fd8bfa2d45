import type { MiddlewareObj } from '@middy/core';
import { ZodError } from 'zod';
import { ApiError } from '../lib/errors.ts';
import { formMessagesOf } from '../lib/validation.ts';
import type { ApiContext, HttpEvent, HttpResult } from './api-context.ts';
import { jsonResponse } from './json-response.ts';

/**
 * The one place errors become responses. Below 500 the caller sees the message (and `formMessages`
 * for form errors); at 500 they see a generic message and the correlation id, never a stack trace.
 */
export function errorHandler(): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'error-handler',
    onError: (request) => {
      const err = request.error;
      const api = request.context.api;
      const correlationId = api?.correlationId ?? 'unknown';
      if (err instanceof ApiError) {
        api?.log.info('request refused', { status: err.status, code: err.code });
        request.response = jsonResponse(
          err.status,
          {
            status: err.status,
            code: err.code,
            message: err.message,
            ...(err.formMessages ? { formMessages: err.formMessages } : {}),
            correlationId,
          },
          { ...err.headers, 'x-correlation-id': correlationId },
        );
        return;
      }
      if (err instanceof ZodError) {
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
          message: 'Something went wrong. Please try again.',
          correlationId,
        },
        { 'x-correlation-id': correlationId },
      );
    },
  };
}
