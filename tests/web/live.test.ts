import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectLive, isStaleKey, type LiveStatus, type SocketLike } from '../../web/lib/live.ts';

class FakeSocket implements SocketLike {
  sent: string[] = [];
  closed = false;
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  readonly url: string;
  constructor(url: string) {
    this.url = url;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
    this.onclose?.({});
  }
  /** The server side: accept, drop, or send. */
  accept() {
    this.onopen?.({});
  }
  drop() {
    this.onclose?.({});
  }
  deliver(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) });
  }
}

function setup(token: string | null = 'tok 1') {
  const sockets: FakeSocket[] = [];
  const statuses: LiveStatus[] = [];
  const onMessage = vi.fn();
  const live = connectLive({
    url: 'ws://localhost:3000/ws',
    getToken: async () => token,
    onMessage,
    onStatus: (s) => statuses.push(s),
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
  });
  const last = () => {
    const socket = sockets.at(-1);
    if (!socket) throw new Error('no socket');
    return socket;
  };
  return { live, sockets, statuses, onMessage, last };
}

describe('the live connection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('connects with the token as a query parameter and pings every 30 seconds', async () => {
    const { last, live } = setup();
    await vi.advanceTimersByTimeAsync(0);
    expect(last().url).toBe('ws://localhost:3000/ws?token=tok%201');
    last().accept();
    await vi.advanceTimersByTimeAsync(29_999);
    expect(last().sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(last().sent).toEqual(['{"action":"ping"}']);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(last().sent).toHaveLength(2);
    live.close();
  });

  it('reconnects 3 seconds after a loss, 5 times, then reports a reconnect error', async () => {
    const { sockets, statuses, last } = setup();
    await vi.advanceTimersByTimeAsync(0);
    last().accept();
    for (let attempt = 1; attempt <= 5; attempt++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(2_999);
      expect(sockets).toHaveLength(attempt);
      await vi.advanceTimersByTimeAsync(1);
      expect(sockets).toHaveLength(attempt + 1);
    }
    last().drop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(6);
    expect(statuses.at(-1)).toBe('reconnect-error');
  });

  it('starts a fresh count once a reconnection succeeds', async () => {
    const { sockets, last } = setup();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 4; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(3_000);
    }
    last().accept();
    for (let i = 0; i < 5; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(3_000);
    }
    expect(sockets).toHaveLength(1 + 4 + 5);
  });

  it('hands change messages on and keeps pongs to itself', async () => {
    const { last, onMessage } = setup();
    await vi.advanceTimersByTimeAsync(0);
    last().accept();
    last().deliver({ type: 'pong', at: 'now' });
    last().deliver({ type: 'invoice.validated', keys: ['/invoices/abc'] });
    last().onmessage?.({ data: 'not json' });
    expect(onMessage).toHaveBeenCalledTimes(1);
    expect(onMessage).toHaveBeenCalledWith({ type: 'invoice.validated', keys: ['/invoices/abc'] });
  });

  it('stays closed once closed, and does not connect when signed out', async () => {
    const open = setup();
    await vi.advanceTimersByTimeAsync(0);
    open.last().accept();
    open.live.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(open.sockets).toHaveLength(1);
    expect(open.last().closed).toBe(true);

    const signedOut = setup(null);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(signedOut.sockets).toHaveLength(0);
    expect(signedOut.statuses.at(-1)).toBe('closed');
  });
});

describe('the live connection after a loss', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function connect() {
    const sockets: FakeSocket[] = [];
    const statuses: LiveStatus[] = [];
    const opened: boolean[] = [];
    const live = connectLive({
      url: 'ws://localhost:3000/ws',
      getToken: async () => 'tok',
      onMessage: () => undefined,
      onStatus: (s) => statuses.push(s),
      onOpen: (again) => opened.push(again),
      createSocket: (url) => {
        const socket = new FakeSocket(url);
        sockets.push(socket);
        return socket;
      },
    });
    const last = () => sockets.at(-1) as FakeSocket;
    return { live, sockets, statuses, opened, last };
  }

  it('tells a reconnection apart from the first connection, so missed changes are fetched', async () => {
    const { last, opened } = connect();
    await vi.advanceTimersByTimeAsync(0);
    last().accept();
    last().drop();
    await vi.advanceTimersByTimeAsync(3_000);
    last().accept();
    expect(opened).toEqual([false, true]);
  });

  it('starts again with a fresh count when the user asks after the reconnect error', async () => {
    const { live, last, sockets, statuses } = connect();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 6; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(3_000);
    }
    expect(statuses.at(-1)).toBe('reconnect-error');
    expect(sockets).toHaveLength(6);
    live.retry();
    await vi.advanceTimersByTimeAsync(0);
    expect(sockets).toHaveLength(7);
    last().accept();
    expect(statuses.at(-1)).toBe('open');
    // A fresh count: five more attempts after the next loss.
    for (let i = 0; i < 5; i++) {
      last().drop();
      await vi.advanceTimersByTimeAsync(3_000);
    }
    expect(sockets).toHaveLength(12);
  });

  it('ignores a retry while it is still connected or trying', async () => {
    const { live, last, sockets } = connect();
    await vi.advanceTimersByTimeAsync(0);
    last().accept();
    live.retry();
    last().drop();
    live.retry();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(sockets).toHaveLength(2);
  });
});

describe('stale answers', () => {
  it('match the path, its queries and the items below it', () => {
    expect(isStaleKey('/invoices?status=failed', ['/invoices'])).toBe(true);
    expect(isStaleKey('/invoices/abc', ['/invoices'])).toBe(true);
    expect(isStaleKey('/invoices-archive', ['/invoices'])).toBe(false);
    expect(isStaleKey(['/invoices'], ['/invoices'])).toBe(false);
  });
});
