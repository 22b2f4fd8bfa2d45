import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2, Context } from 'aws-lambda';
import { isApiOnly } from '../../../shared/access/route-access.ts';
import { loadCaller } from '../../core/access/caller-service.ts';
import { tokenVerifier } from '../../core/adapters/token-verifier.ts';
import { createLogger } from '../../core/lib/logger.ts';
import { removeConnection, saveConnection } from '../../core/live/live-connection-repository.ts';

/** `$connect` carries the query string, which the WebSocket event type of aws-lambda leaves out. */
type LiveEvent = APIGatewayProxyWebsocketEventV2 & {
  queryStringParameters?: Record<string, string | undefined>;
};

const log = createLogger({ service: 'voltfolio', fn: 'live' });

const reply = (statusCode: number, body?: unknown): APIGatewayProxyResultV2 => ({
  statusCode,
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/**
 * The live connection: browsers connect with their access token as a query parameter (browsers cannot
 * set headers on a WebSocket), ping every 30 s, and receive change messages that workers publish.
 */
export async function handler(event: LiveEvent, _context?: Context): Promise<APIGatewayProxyResultV2> {
  const { routeKey, connectionId } = event.requestContext;
  switch (routeKey) {
    case '$connect': {
      const token = event.queryStringParameters?.token;
      if (!token) return reply(401, { message: 'Missing token' });
      try {
        const verified = await tokenVerifier().verify(token);
        const caller = await loadCaller(verified.sub, verified.groups, {
          ...(verified.issuedAt === undefined ? {} : { issuedAt: verified.issuedAt }),
        });
        // Live updates are the application's; an API-only user's session reaches their profile only.
        if (isApiOnly({ ...caller, via: 'token' })) {
          log.info('live connection refused', { connectionId, reason: 'API-only user' });
          return reply(403, { message: 'Forbidden' });
        }
        await saveConnection({
          connectionId,
          sub: caller.sub,
          companyId: caller.companyId,
          connectedAt: new Date().toISOString(),
        });
        log.info('live connected', { connectionId, sub: caller.sub, companyId: caller.companyId });
        return reply(200);
      } catch (err) {
        log.info('live connection refused', {
          connectionId,
          reason: err instanceof Error ? err.message : String(err),
        });
        return reply(401, { message: 'Unauthorised' });
      }
    }
    case '$disconnect':
      await removeConnection(connectionId);
      return reply(200);
    case 'ping':
      return reply(200, { type: 'pong', at: new Date().toISOString() });
    default:
      return reply(400, { type: 'error', message: 'Unknown action' });
  }
}
