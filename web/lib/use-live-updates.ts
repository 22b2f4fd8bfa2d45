import { useEffect } from 'react';
import { useSWRConfig } from 'swr';
import { useServices } from './app-context.tsx';
import { connectLive, isStaleKey } from './live.ts';

/** While the shell is open, answers the server reports as changed are fetched again. */
export function useLiveUpdates(): void {
  const { config, auth } = useServices();
  const { mutate } = useSWRConfig();
  useEffect(() => {
    const live = connectLive({
      url: config.wsUrl,
      getToken: () => auth.getAccessToken(),
      onMessage: (message) => {
        const keys = message.keys ?? [];
        if (keys.length > 0) void mutate((key) => isStaleKey(key, keys));
      },
    });
    return () => live.close();
  }, [config.wsUrl, auth, mutate]);
}
