import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as zm from 'zod/mini';
import { analyticsQuerySchema } from '../../../functions/analytics/index.ts';
import { ApiError, badRequest, formError } from '../../../functions/core/lib/errors.ts';
import { createLogger } from '../../../functions/core/lib/logger.ts';
import type { ApiContext, HttpEvent, HttpResult } from '../../../functions/core/middleware/api-context.ts';
import { errorHandler, GENERIC_MESSAGE } from '../../../functions/core/middleware/error-handler.ts';
import { correlation } from '../../../functions/core/middleware/request-context.ts';

/** A handler that fails with `error`, behind the same correlation and error middleware as every HTTP function. */
async function failWith(error: unknown) {
  const lines: string[] = [];
  const handler = middy<HttpEvent, HttpResult, Error, ApiContext>()
    .use(correlation(createLogger({}, 'info', (l) => lines.push(l))))
    .use(errorHandler())
    .handler(async () => {
      throw error;
    });
  const event = {
    rawPath: '/api/x',
    headers: { 'x-correlation-id': 'corr-12345678' },
    requestContext: { http: { method: 'GET' } },
  } as unknown as HttpEvent;
  const result = (await handler(event, {} as Context as ApiContext)) as HttpResult;
  const body = JSON.parse(String(result.body)) as Record<string, unknown>;
  return { result, body, raw: String(result.body), logs: lines.join('\n') };
}

describe('error handler', () => {
  it('answers a thrown Error with 500 INTERNAL_ERROR, a generic message and no stack, and logs it', async () => {
    const { result, body, raw, logs } = await failWith(new Error('connect ECONNREFUSED 10.0.0.7:8000'));
    expect(result.statusCode).toBe(500);
    expect(body).toEqual({
      status: 500,
      code: 'INTERNAL_ERROR',
      message: GENERIC_MESSAGE,
      correlationId: 'corr-12345678',
    });
    expect(raw).not.toMatch(/ECONNREFUSED|at .*\.ts|stack/);
    expect(result.headers?.['x-correlation-id']).toBe('corr-12345678');
    expect(logs).toContain('ECONNREFUSED');
  });

  it('hides the message of an ApiError at 500 or above and logs it instead', async () => {
    const { result, body, logs } = await failWith(
      new ApiError(502, 'UPSTREAM_ERROR', 'postcodes.io answered 503 for EC3N 1DL', {
        formMessages: { postcode: 'internal detail' },
      }),
    );
    expect(result.statusCode).toBe(502);
    expect(body).toEqual({
      status: 502,
      code: 'UPSTREAM_ERROR',
      message: GENERIC_MESSAGE,
      correlationId: 'corr-12345678',
    });
    expect(logs).toContain('postcodes.io answered 503');
  });

  it('shows the message and form messages below 500', async () => {
    const plain = await failWith(badRequest('limit must be a whole number'));
    expect(plain.result.statusCode).toBe(400);
    expect(plain.body.message).toBe('limit must be a whole number');
    const form = await failWith(formError({ name: 'This field is required' }));
    expect(form.body).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      formMessages: { name: 'This field is required' },
    });
  });

  it("answers a value refused by zod/mini's schemas or one built on first use as a form error, not a 500", async () => {
    const thrown = (parse: () => unknown) => {
      try {
        parse();
      } catch (err) {
        return err;
      }
      throw new Error('the value was not refused');
    };
    const mini = await failWith(thrown(() => zm.object({ name: zm.string() }).parse({ name: 5 })));
    expect(mini.result.statusCode).toBe(400);
    expect(mini.body).toMatchObject({ code: 'VALIDATION_ERROR', formMessages: { name: 'Must be text' } });
    const firstUse = await failWith(thrown(() => analyticsQuerySchema.parse({ granularity: 'fortnightly' })));
    expect(firstUse.result.statusCode).toBe(400);
    expect(firstUse.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      formMessages: { granularity: expect.stringMatching(/^Must be one of halfhourly, hourly, daily/) },
    });
  });

  it('answers something thrown that is not an Error with the same generic 500', async () => {
    const { result, body } = await failWith('a string');
    expect(result.statusCode).toBe(500);
    expect(body.message).toBe(GENERIC_MESSAGE);
  });
});
