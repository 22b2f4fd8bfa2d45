import { randomUUID } from 'node:crypto';
import { createLogger } from '../../../functions/core/lib/logger.ts';
import type { Operations } from '../../../functions/core/middleware/api-context.ts';
import { type Caller, EMPTY_GRANTS } from '../../../shared/access/caller.ts';
import { HTTP_ROUTES } from '../../../shared/system/routes.ts';

/**
 * The seed calls the API's own operations, with the context the HTTP handler would build: the route the
 * operation serves, its path parameters and body, and a caller of the kind that would make the call.
 * Route-level permission checks belong to the handler and are not repeated; the callers below hold what
 * those routes require.
 */

const log = createLogger({ component: 'seed' }, 'warn');

/** The demo company's owner (or another company user) as the caller service would describe them. */
export function companyUser(
  companyId: string,
  user: { sub: string; email: string; name: string },
  role: { name: string; permissions: Caller['permissions'] },
): Caller {
  return {
    kind: 'user',
    sub: user.sub,
    email: user.email,
    name: user.name,
    companyId,
    isAdmin: false,
    permissions: role.permissions,
    grants: EMPTY_GRANTS,
    roles: [role.name],
  };
}

/** Staff, acting from the company named (staff calls that are not about a company use any). */
export function staffUser(companyId: string, user: { sub: string; email: string; name: string }): Caller {
  return {
    ...companyUser(companyId, user, { name: 'staff', permissions: ['admin'] }),
    isAdmin: true,
    roles: [],
  };
}

/** Runs one API operation as `caller` and answers its response body; a refused call fails the seed. */
export async function callOperation<T>(
  operations: Operations,
  op: string,
  caller: Caller,
  input: { params?: Record<string, string>; body?: unknown } = {},
): Promise<T> {
  const route = HTTP_ROUTES.find((r) => r.op === op);
  const operation = operations[op];
  if (!route || !operation) throw new Error(`No API operation ${op}`);
  try {
    const result = await operation({
      route,
      params: input.params ?? {},
      query: {},
      body: input.body,
      headers: {},
      caller,
      log,
      correlationId: randomUUID(),
    });
    return result.body as T;
  } catch (error) {
    const detail = (error as { formMessages?: unknown }).formMessages;
    throw new Error(
      `The seed's ${op} call was refused: ${error instanceof Error ? error.message : String(error)}` +
        (detail ? ` ${JSON.stringify(detail)}` : ''),
    );
  }
}
