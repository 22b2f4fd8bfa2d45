import type { MiddlewareObj } from '@middy/core';
import { type TokenVerifier, tokenVerifier } from '../adapters/token-verifier.ts';
import { unauthorized } from '../lib/errors.ts';
import { loadCaller } from '../services/caller-service.ts';
import type { ApiContext, HttpEvent, HttpResult } from './api-context.ts';

function bearerToken(event: HttpEvent): string | undefined {
  const value = event.headers?.authorization ?? event.headers?.Authorization;
  if (!value) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(value);
  return match?.[1];
}

/**
 * Establishes the caller from verified credentials only. Missing or invalid credentials are 401; why a
 * token failed is logged (without the token), not told to the caller.
 */
export function authenticate(
  verifier: () => TokenVerifier = tokenVerifier,
): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'authenticate',
    before: async (request) => {
      const api = request.context.api;
      const token = bearerToken(request.event);
      if (!token) throw unauthorized('Missing bearer token');
      let verified: Awaited<ReturnType<TokenVerifier['verify']>>;
      try {
        verified = await verifier().verify(token);
      } catch (err) {
        api.log.info('token refused', { reason: err instanceof Error ? err.message : String(err) });
        throw unauthorized('Invalid or expired token');
      }
      api.caller = await loadCaller(verified.sub, verified.groups);
      api.log = api.log.child({ sub: verified.sub, companyId: api.caller.companyId });
    },
  };
}
