import { config, liveEndpoint } from '../config.ts';
import type { Logger } from '../lib/logger.ts';
import { connectionsOfCompany, removeConnection } from '../live/live-connection-repository.ts';
import { onFirstUse } from './on-first-use.ts';

/**
 * Loaded when a company first has open connections to message, not with every function that may publish.
 * Not kept when it failed (no endpoint configured, say), so a later message tries again.
 */
const management = onFirstUse(async () => {
  const lib = await import('@aws-sdk/client-apigatewaymanagementapi');
  return {
    lib,
    client: new lib.ApiGatewayManagementApiClient({ region: config().region, endpoint: liveEndpoint() }),
  };
});

/** A message to browsers: which data changed, so they revalidate those keys instead of polling. */
export interface LiveMessage {
  type: string;
  /** API paths whose cached answers are now stale, e.g. `/invoices/{id}`. */
  keys?: string[];
  data?: Record<string, unknown>;
}

/**
 * Sends a message to every open connection of a company (optionally one user's). A connection that is
 * gone is forgotten; other failures are logged and do not fail the caller, since polling remains.
 */
export async function publishToCompany(
  companyId: string,
  message: LiveMessage,
  log: Logger,
  onlySub?: string,
): Promise<number> {
  const connections = (await connectionsOfCompany(companyId)).filter((c) => !onlySub || c.sub === onlySub);
  if (connections.length === 0) return 0;
  let api: Awaited<ReturnType<typeof management>>;
  try {
    api = await management();
  } catch (err) {
    log.warn('live messages not delivered', { connections: connections.length, error: String(err) });
    return 0;
  }
  const { lib, client } = api;
  const data = new TextEncoder().encode(JSON.stringify(message));
  let sent = 0;
  await Promise.all(
    connections.map(async (c) => {
      try {
        await client.send(new lib.PostToConnectionCommand({ ConnectionId: c.connectionId, Data: data }));
        sent++;
      } catch (err) {
        if (
          err instanceof lib.GoneException ||
          (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 410
        ) {
          await removeConnection(c.connectionId);
        } else {
          log.warn('live message not delivered', { connectionId: c.connectionId, error: String(err) });
        }
      }
    }),
  );
  return sent;
}

/**
 * Closes one person's open connections to a company, when they are removed from it or sign out: what a
 * worker publishes next must not reach them. The records go too, so nothing is sent to them meanwhile.
 */
export async function closeConnectionsOf(companyId: string, sub: string, log: Logger): Promise<number> {
  const connections = (await connectionsOfCompany(companyId)).filter((c) => c.sub === sub);
  if (connections.length === 0) return 0;
  for (const c of connections) await removeConnection(c.connectionId);
  try {
    const { lib, client } = await management();
    await Promise.all(
      connections.map((c) =>
        client
          .send(new lib.DeleteConnectionCommand({ ConnectionId: c.connectionId }))
          .catch((err: unknown) => {
            // Already gone is what was wanted.
            if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== 410)
              log.warn('live connection not closed', { connectionId: c.connectionId, error: String(err) });
          }),
      ),
    );
  } catch (err) {
    log.warn('live connections not closed', { connections: connections.length, error: String(err) });
  }
  return connections.length;
}
