import { useEffect, useRef, useState } from 'react';
import { useSWRConfig } from 'swr';
import { useServices } from './app-context.tsx';
import { connectLive, isStaleKey, type LiveConnection, type LiveStatus } from './live.ts';

export interface LiveState {
  status: LiveStatus;
  /** After the reconnect error: try again with a fresh count of attempts. */
  retry: () => void;
}

/**
 * While the shell is open, answers the server reports as changed are fetched again. After a lost
 * connection comes back, every cached answer is fetched again: messages sent meanwhile were missed.
 */
export function useLiveUpdates(): LiveState {
  const { config, auth } = useServices();
  const { mutate } = useSWRConfig();
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const connection = useRef<LiveConnection | null>(null);
  useEffect(() => {
    const live = connectLive({
      url: config.wsUrl,
      getToken: () => auth.getAccessToken(),
      onStatus: setStatus,
      onOpen: (again) => {
        if (again) void mutate(() => true);
      },
      onMessage: (message) => {
        const keys = message.keys ?? [];
        if (keys.length > 0) void mutate((key) => isStaleKey(key, keys));
      },
    });
    connection.current = live;
    return () => {
      connection.current = null;
      live.close();
    };
  }, [config.wsUrl, auth, mutate]);
  return { status, retry: () => connection.current?.retry() };
}
