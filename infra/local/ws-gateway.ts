import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { WS_ROUTES } from '../../shared/system/functions.ts';
import { type FunctionLoad, invoke, type LoadedFunction } from './lambda.ts';
import type { Log } from './options.ts';
import {
  connectEvent,
  disconnectEvent,
  gatewayId,
  messageEvent,
  selectRoute,
  type WsConnectionInfo,
} from './ws-event.ts';

export const WS_PATH = '/ws';
/** API Gateway's limits: 128 KB per message, 10 minutes idle, 2 hours per connection. */
export const WS_MAX_MESSAGE_BYTES = 128 * 1024;
const IDLE_MS = 10 * 60 * 1000;
const MAX_CONNECTION_MS = 2 * 60 * 60 * 1000;

interface Connection {
  info: WsConnectionInfo;
  ws: WebSocket;
  lastActiveAt: number;
  /** Messages of one connection are handled in order. */
  queue: Promise<void>;
  idle?: NodeJS.Timeout;
  lifetime: NodeJS.Timeout;
}

export interface WsGateway {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** API Gateway's management API: `POST|GET|DELETE /@connections/{connectionId}`. */
  handleManagement(req: IncomingMessage, res: ServerResponse, connectionId: string): void;
  connectionCount(): number;
  /** Cuts every open connection without a closing handshake, as a network failure would; answers how many. */
  dropAll(): number;
  stop(): Promise<void>;
}

const statusOf = (result: unknown): number => {
  const code = (result as { statusCode?: unknown } | null | undefined)?.statusCode;
  return typeof code === 'number' ? code : 200;
};

function awsError(res: ServerResponse, status: number, type: string, message: string | null) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type });
  res.end(JSON.stringify({ message }));
}

/**
 * The WebSocket API: `$connect` may refuse the upgrade, messages are routed on their `action`, `$disconnect`
 * follows every close. Functions reach connections through the management endpoint on the same origin.
 */
export function wsGateway(functions: FunctionLoad, log: Log): WsGateway {
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_MESSAGE_BYTES });
  const connections = new Map<string, Connection>();
  const routeKeys = new Set<string>(WS_ROUTES.map((r) => r.routeKey));
  const fnFor = (routeKey: string): LoadedFunction | undefined => {
    const route = WS_ROUTES.find((r) => r.routeKey === routeKey);
    return route ? functions.loaded.get(route.fn) : undefined;
  };
  const pendingDisconnects = new Set<Promise<unknown>>();

  const refuse = (socket: Duplex, status: number) => {
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
  };

  const touch = (c: Connection) => {
    c.lastActiveAt = Date.now();
    if (c.idle) clearTimeout(c.idle);
    c.idle = setTimeout(() => c.ws.close(1001, 'Going away'), IDLE_MS);
  };

  const onMessage = (c: Connection, data: Buffer, binary: boolean) => {
    touch(c);
    const routeKey = selectRoute(data, binary, routeKeys);
    const fn = fnFor(routeKey);
    if (!fn) return;
    c.queue = c.queue.then(async () => {
      try {
        const result = (await invoke(fn, messageEvent(c.info, routeKey, data, binary))) as {
          body?: unknown;
          isBase64Encoded?: boolean;
        } | null;
        if (typeof result?.body === 'string' && c.ws.readyState === c.ws.OPEN) {
          c.ws.send(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
        }
      } catch (err) {
        log('ws message failed', { connectionId: c.info.connectionId, routeKey, error: String(err) });
        if (c.ws.readyState === c.ws.OPEN) {
          c.ws.send(JSON.stringify({ message: 'Internal server error', connectionId: c.info.connectionId }));
        }
      }
    });
  };

  const accept = (ws: WebSocket, info: WsConnectionInfo) => {
    const c: Connection = {
      info,
      ws,
      lastActiveAt: Date.now(),
      queue: Promise.resolve(),
      lifetime: setTimeout(() => ws.close(1001, 'Going away'), MAX_CONNECTION_MS),
    };
    connections.set(info.connectionId, c);
    touch(c);
    // Protocol errors (e.g. a message over the size limit) close the socket; the close runs $disconnect.
    ws.on('error', (err) =>
      log('ws connection error', { connectionId: info.connectionId, error: String(err) }),
    );
    ws.on('message', (data, isBinary) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      onMessage(c, buf, isBinary);
    });
    ws.on('close', (code, reason) => {
      connections.delete(info.connectionId);
      clearTimeout(c.lifetime);
      if (c.idle) clearTimeout(c.idle);
      const fn = fnFor('$disconnect');
      if (!fn) return;
      const work = c.queue
        .then(() => invoke(fn, disconnectEvent(info, code, reason.toString('utf8'))))
        .catch((err: unknown) =>
          log('ws disconnect failed', { connectionId: info.connectionId, error: String(err) }),
        );
      pendingDisconnects.add(work);
      void work.finally(() => pendingDisconnects.delete(work));
    });
  };

  return {
    handleUpgrade(req, socket, head) {
      const url = new URL(req.url ?? '/', 'http://local');
      socket.on('error', () => socket.destroy());
      const connect = fnFor('$connect');
      if (!connect) {
        refuse(socket, 502);
        return;
      }
      const info: WsConnectionInfo = {
        connectionId: gatewayId(),
        connectedAt: Date.now(),
        domainName: (req.headers.host ?? 'localhost').split(':')[0] ?? 'localhost',
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        userAgent: req.headers['user-agent'] ?? '',
        rawHeaders: req.rawHeaders,
      };
      invoke(connect, connectEvent(info, url.searchParams))
        .then(statusOf, (err: unknown) => {
          log('ws connect failed', { error: String(err) });
          return 500;
        })
        .then((status) => {
          if (status < 200 || status > 299) {
            refuse(socket, status);
            return;
          }
          if (socket.destroyed) {
            // The client left while $connect ran: the connection it registered ends as in AWS.
            const disconnect = fnFor('$disconnect');
            if (disconnect) {
              invoke(disconnect, disconnectEvent(info, 1006, 'Client left before the upgrade')).catch(
                () => {},
              );
            }
            return;
          }
          wss.handleUpgrade(req, socket, head, (ws) => accept(ws, info));
        });
    },

    handleManagement(req, res, connectionId) {
      if (!/^AWS4-HMAC-SHA256 /.test(String(req.headers.authorization ?? ''))) {
        awsError(res, 403, 'ForbiddenException', 'Missing Authentication Token');
        return;
      }
      const c = connections.get(connectionId);
      if (req.method === 'GET' || req.method === 'DELETE') {
        if (!c) return awsError(res, 410, 'GoneException', null);
        if (req.method === 'DELETE') {
          c.ws.close(1000, 'Closed by the application');
          res.writeHead(204).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            connectedAt: new Date(c.info.connectedAt).toISOString(),
            identity: { sourceIp: c.info.sourceIp, userAgent: c.info.userAgent },
            lastActiveAt: new Date(c.lastActiveAt).toISOString(),
          }),
        );
        return;
      }
      if (req.method !== 'POST')
        return awsError(res, 403, 'ForbiddenException', 'Missing Authentication Token');
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size <= WS_MAX_MESSAGE_BYTES) chunks.push(chunk);
      });
      req.on('end', () => {
        if (size > WS_MAX_MESSAGE_BYTES)
          return awsError(res, 413, 'PayloadTooLargeException', 'Message too long');
        const target = connections.get(connectionId);
        if (!target || target.ws.readyState !== target.ws.OPEN)
          return awsError(res, 410, 'GoneException', null);
        target.ws.send(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200).end();
      });
    },

    connectionCount: () => connections.size,

    dropAll() {
      const open = [...connections.values()];
      for (const c of open) c.ws.terminate();
      return open.length;
    },

    async stop() {
      for (const c of connections.values()) c.ws.close(1001, 'Going away');
      // Give the closes a moment to complete so each connection's $disconnect runs.
      const deadline = Date.now() + 2000;
      while (connections.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const c of connections.values()) c.ws.terminate();
      await Promise.all([...pendingDisconnects]);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
