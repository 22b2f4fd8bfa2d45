import type { MiddlewareObj } from '@middy/core';
import { canUseRoute } from '../../shared/access/route-access.ts';
import { forbidden } from '../lib/errors.ts';
import type { ApiContext, HttpEvent, HttpResult } from './api-context.ts';

/**
 * The route's permission, checked before any work. Per-item checks (the route's `item`) run where the
 * item is loaded, so that an item the caller may not read answers 404 like one that does not exist.
 */
export function authorizeRoute(): MiddlewareObj<HttpEvent, HttpResult, Error, ApiContext> {
  return {
    name: 'authorize-route',
    before: (request) => {
      const { route, caller } = request.context.api;
      if (!route || !caller) throw forbidden();
      if (!canUseRoute(route.permission, caller)) throw forbidden();
    },
  };
}
