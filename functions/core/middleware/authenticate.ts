import type { MiddlewareObj } from '@middy/core';
import { type Caller, EMPTY_GRANTS } from '../../../shared/access/caller.ts';
import {
  acceptsCredential,
  type CredentialKind,
  unauthorisedCode,
} from '../../../shared/access/route-rules.ts';
import type { HttpRoute } from '../../../shared/system/routes.ts';
import { loadCaller } from '../access/caller-service.ts';
import {
  callerFromApiKey,
  callerFromFeedToken,
  callerFromKioskKey,
  callerFromMachineKey,
} from '../access/credential-service.ts';
import { type TokenVerifier, tokenVerifier } from '../adapters/token-verifier.ts';
import { ApiError } from '../lib/errors.ts';
import type { ApiContext, HttpEvent, HttpResult } from './api-context.ts';

function header(event: HttpEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const wanted = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === wanted && v) return v;
  return undefined;
}

interface Presented {
  kind: CredentialKind;
  value: string | undefined;
}

/**
 * The one credential a request carries; a kiosk or machine header wins over an Authorization header. A
 * calendar-feed token is looked for only on routes that take one, as it travels in the URL.
 */
function presentedCredential(
  event: HttpEvent,
  route: HttpRoute,
  query: Record<string, string>,
): Presented | undefined {
  if (route.auth?.includes('feed') && query.token !== undefined) return { kind: 'feed', value: query.token };
  // A link route is reached from an e-mail, never with the reader's credentials: whatever else is sent.
  if (route.auth?.includes('link')) return { kind: 'link', value: query.token ?? '' };
  const kiosk = header(event, 'x-kiosk-key');
  if (kiosk !== undefined) return { kind: 'kiosk', value: kiosk };
  const authorization = header(event, 'authorization');
  const machine = header(event, 'x-key') ?? /^xkey\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (machine !== undefined) return { kind: 'machine', value: machine };
  const apiKey = header(event, 'x-api-key') ?? /^ApiKey\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (apiKey !== undefined) return { kind: 'apiKey', value: apiKey };
  if (authorization !== undefined)
    return { kind: 'token', value: /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] };
  return undefined;
}

/** Whoever follows a link: nobody in particular, in no company, holding nothing. */
const LINK_CALLER: Caller = {
  kind: 'user',
  sub: 'link',
  companyId: '',
  isAdmin: false,
  permissions: [],
  grants: EMPTY_GRANTS,
  roles: [],
  via: 'link',
};

const MISSING: Record<string, string> = {
  UNAUTHORISED: 'Missing bearer token',
  INVALID_AUTH: 'The kiosk key is missing or malformed',
  AUTH_ERROR: 'The machine key is missing or malformed',
};

/**
 * Establishes the caller from verified credentials only: a user's access token, an API key acting as its
 * user, a kiosk key or a machine key, each only on routes that accept it. Missing or invalid credentials
 * are 401; why a token failed is logged (without the token), not told to the caller.
 */
export function authenticate(
  verifier: () => TokenVerifier = tokenVerifier,
): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'authenticate',
    before: async (request) => {
      const api = request.context.api;
      const route = api.route as HttpRoute;
      const presented = presentedCredential(request.event, route, api.query);
      if (!presented || !acceptsCredential(route, presented.kind)) {
        const code = unauthorisedCode(route);
        throw new ApiError(401, code, MISSING[code] ?? 'Unauthorised');
      }
      if (presented.kind === 'token') {
        if (!presented.value) throw new ApiError(401, 'UNAUTHORISED', MISSING.UNAUTHORISED as string);
        let verified: Awaited<ReturnType<TokenVerifier['verify']>>;
        try {
          verified = await verifier().verify(presented.value);
        } catch (err) {
          api.log.info('token refused', { reason: err instanceof Error ? err.message : String(err) });
          throw new ApiError(401, 'UNAUTHORISED', 'Invalid or expired token');
        }
        const caller = await loadCaller(verified.sub, verified.groups, {
          ...(verified.issuedAt === undefined ? {} : { issuedAt: verified.issuedAt }),
        });
        api.caller = { ...caller, via: 'token' };
      } else if (presented.kind === 'apiKey') {
        api.caller = await callerFromApiKey(presented.value ?? '');
      } else if (presented.kind === 'link') {
        api.caller = LINK_CALLER;
      } else if (presented.kind === 'feed') {
        api.caller = await callerFromFeedToken(presented.value);
      } else if (presented.kind === 'kiosk') {
        const preview =
          api.query.preview === 'true' || header(request.event, 'x-kiosk-preview')?.toLowerCase() === 'true';
        api.caller = await callerFromKioskKey(presented.value, preview);
      } else {
        api.caller = await callerFromMachineKey(presented.value);
      }
      api.log = api.log.child({ sub: api.caller.sub, companyId: api.caller.companyId, via: presented.kind });
    },
  };
}
