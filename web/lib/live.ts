import {
  LIVE_HEARTBEAT_MS,
  LIVE_RECONNECT_ATTEMPTS,
  LIVE_RECONNECT_DELAY_MS,
} from '../../shared/constants.ts';

/** A change message from the server: which API answers are stale (01 §4, ARCHITECTURE "Events"). */
export interface LiveMessage {
  type: string;
  /** API paths whose cached answers are now stale, e.g. `/invoices/{id}`. */
  keys?: string[];
  data?: Record<string, unknown>;
}

export type LiveStatus = 'connecting' | 'open' | 'reconnecting' | 'reconnect-error' | 'closed';

/** The part of the browser's WebSocket the connection uses. */
export interface SocketLike {
  send(data: string): void;
  close(): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface LiveOptions {
  url: string;
  /** A fresh token for every (re)connection; null means signed out, so no connection. */
  getToken: () => Promise<string | null>;
  onMessage: (message: LiveMessage) => void;
  onStatus?: (status: LiveStatus) => void;
  /** A connection opened; `again` after a loss, when messages sent meanwhile were missed. */
  onOpen?: (again: boolean) => void;
  createSocket?: (url: string) => SocketLike;
  attempts?: number;
  delayMs?: number;
  heartbeatMs?: number;
}

function parse(data: unknown): LiveMessage | undefined {
  if (typeof data !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(data);
    if (typeof value === 'object' && value !== null && typeof (value as LiveMessage).type === 'string') {
      return value as LiveMessage;
    }
  } catch {
    // Not JSON: not a message of ours.
  }
  return undefined;
}

export interface LiveConnection {
  /** After the reconnect error, starts again with a fresh count of attempts. */
  retry(): void;
  close(): void;
}

/**
 * Opens the live connection with the token as a query parameter (browsers cannot set headers on a
 * WebSocket), pings every 30 s, and on loss reconnects up to 5 times 3 s apart before giving up
 * (01 §4). A connection that opens again starts a fresh count.
 */
export function connectLive(options: LiveOptions): LiveConnection {
  const attempts = options.attempts ?? LIVE_RECONNECT_ATTEMPTS;
  const delayMs = options.delayMs ?? LIVE_RECONNECT_DELAY_MS;
  const heartbeatMs = options.heartbeatMs ?? LIVE_HEARTBEAT_MS;
  const create = options.createSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  let socket: SocketLike | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let stopped = false;
  let wasOpen = false;

  let last: LiveStatus = 'connecting';
  const status = (s: LiveStatus) => {
    last = s;
    options.onStatus?.(s);
  };

  function lost() {
    clearInterval(heartbeat);
    socket = undefined;
    if (stopped) return;
    if (failures >= attempts) {
      status('reconnect-error');
      return;
    }
    failures++;
    status('reconnecting');
    retry = setTimeout(() => {
      retry = undefined;
      void open();
    }, delayMs);
  }

  async function open() {
    if (stopped) return;
    status('connecting');
    const token = await options.getToken().catch(() => null);
    if (stopped) return;
    if (!token) {
      status('closed');
      return;
    }
    const separator = options.url.includes('?') ? '&' : '?';
    const current = create(`${options.url}${separator}token=${encodeURIComponent(token)}`);
    socket = current;
    current.onopen = () => {
      failures = 0;
      status('open');
      options.onOpen?.(wasOpen);
      wasOpen = true;
      heartbeat = setInterval(() => current.send(JSON.stringify({ action: 'ping' })), heartbeatMs);
    };
    current.onmessage = (event) => {
      const message = parse(event.data);
      if (message && message.type !== 'pong') options.onMessage(message);
    };
    current.onerror = () => undefined;
    current.onclose = () => {
      if (socket === current) lost();
    };
  }

  void open();
  return {
    retry() {
      if (stopped || (last !== 'reconnect-error' && last !== 'closed')) return;
      failures = 0;
      void open();
    },
    close() {
      stopped = true;
      clearTimeout(retry);
      clearInterval(heartbeat);
      socket?.close();
      socket = undefined;
      status('closed');
    },
  };
}

/** Whether an SWR key (an API path, maybe with a query) is one of the stale paths of a message. */
export function isStaleKey(key: unknown, stalePaths: readonly string[]): boolean {
  if (typeof key !== 'string') return false;
  const path = key.split('?')[0] ?? key;
  return stalePaths.some((stale) => path === stale || path.startsWith(`${stale}/`));
}
