import {
  ApiGatewayManagementApiClient,
  GoneException,
  PostToConnectionCommand,
} from '@aws-sdk/client-apigatewaymanagementapi';
import { config, liveEndpoint } from '../config.ts';
import type { Logger } from '../lib/logger.ts';
import { connectionsOfCompany, removeConnection } from '../repositories/live-connection-repository.ts';

let client: ApiGatewayManagementApiClient | undefined;
function managementClient(): ApiGatewayManagementApiClient {
  client ??= new ApiGatewayManagementApiClient({ region: config().region, endpoint: liveEndpoint() });
  return client;
}

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
  const data = new TextEncoder().encode(JSON.stringify(message));
  let sent = 0;
  await Promise.all(
    connections.map(async (c) => {
      try {
        await managementClient().send(
          new PostToConnectionCommand({ ConnectionId: c.connectionId, Data: data }),
        );
        sent++;
      } catch (err) {
        if (
          err instanceof GoneException ||
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
