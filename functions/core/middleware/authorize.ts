import type { MiddlewareObj } from '@middy/core';
import { routeDecision } from '../../../shared/access/route-rules.ts';
import { enforceItemCheck } from '../access/item-access-service.ts';
import { forbidden, notFound } from '../lib/errors.ts';
import type { ApiContext, HttpEvent, HttpResult } from './api-context.ts';

/**
 * The route's rules, checked before any work: credential kind, permission, what an API-only user's
 * session may call, a company named in the path (another company's is 404), and the declared item check.
 * The generic resource operations check items where they load them, by the same rule, so the check is not
 * read twice; either way an item the caller may not read answers 404, like one that does not exist, and
 * one they may not change 403.
 */
export function authorizeRoute(): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'authorize-route',
    before: async (request) => {
      const { route, caller, params } = request.context.api;
      if (!route || !caller) throw forbidden();
      const decision = routeDecision(route, caller, params);
      if (!decision.ok) throw decision.status === 404 ? notFound() : forbidden(decision.reason);
      if (route.item && !route.op.startsWith('generic.')) await enforceItemCheck(route.item, caller, params);
    },
  };
}
