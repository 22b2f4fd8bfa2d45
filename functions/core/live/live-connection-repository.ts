/**
 * | pattern                                  | key condition                                               | index |
 * | ---------------------------------------- | ----------------------------------------------------------- | ----- |
 * | one connection by id                     | pk = WS#{connectionId}, sk = connection                     | table |
 * | write / remove a connection (both items) | WS#{connectionId} and C#{companyId}#live, sk = connectionId | table |
 * | every connection of a company            | pk = C#{companyId}#live                                     | table |
 */
import { deleteRaw, getRaw, putRaw, queryAll } from '../data/item-repository.ts';
import { keys } from '../data/keys.ts';

export interface LiveConnection {
  connectionId: string;
  sub: string;
  companyId: string;
  connectedAt: string;
}

/** Connections expire with the API's two-hour WebSocket limit; `ttl` lets DynamoDB drop stale ones in AWS. */
const CONNECTION_TTL_SECONDS = 2 * 60 * 60;

export async function saveConnection(connection: LiveConnection): Promise<void> {
  const ttl = Math.floor(Date.now() / 1000) + CONNECTION_TTL_SECONDS;
  const { pk, sk } = keys.liveConnection(connection.connectionId);
  await putRaw({ pk, sk, _id: connection.connectionId, ...connection, ttl });
  // A second item under the company lets a worker find every connection of a company with one Query.
  await putRaw({
    pk: keys.liveConnectionsOfCompany(connection.companyId),
    sk: connection.connectionId,
    _id: connection.connectionId,
    ...connection,
    ttl,
  });
}

export async function removeConnection(connectionId: string): Promise<void> {
  const { pk, sk } = keys.liveConnection(connectionId);
  const existing = await getRaw(pk, sk);
  await deleteRaw(pk, sk);
  if (typeof existing?.companyId === 'string') {
    await deleteRaw(keys.liveConnectionsOfCompany(existing.companyId), connectionId);
  }
}

export async function connectionsOfCompany(companyId: string): Promise<LiveConnection[]> {
  const items = await queryAll(keys.liveConnectionsOfCompany(companyId));
  const now = Math.floor(Date.now() / 1000);
  return items
    .filter((i) => typeof i.ttl !== 'number' || i.ttl > now)
    .map((i) => ({
      connectionId: String(i.connectionId),
      sub: String(i.sub),
      companyId: String(i.companyId),
      connectedAt: String(i.connectedAt),
    }));
}
