/**
 * Wraps a loader (an AWS SDK and its client, say) so it runs on the first call and its result is shared
 * by every later one: most requests of a function need none of them, and its cold start should not pay
 * for loading them. A load that failed is not kept, so the next call tries again.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    if (loaded) return loaded;
    const loading = load();
    loaded = loading;
    loading.catch(() => {
      if (loaded === loading) loaded = undefined;
    });
    return loading;
  };
}
