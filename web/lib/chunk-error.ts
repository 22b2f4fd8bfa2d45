import { CHUNK_LOAD_TIMEOUT_MS } from '../../shared/constants.ts';

/** A lazily loaded part of the app that could not be fetched in time, or at all. */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/** A lazily loaded part that cannot be fetched usually means a newer build replaced the old chunks. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'ChunkLoadError') return true;
  return /dynamically imported module|module script failed|error loading dynamically imported|importing a module script failed/i.test(
    error.message,
  );
}

type Listener = () => void;
let newVersion = false;
const listeners = new Set<Listener>();

/** Whether a part of the app failed to load: the 'new version available' box is then shown (01 §2.3). */
export const newVersionStore = {
  getSnapshot: () => newVersion,
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  set(): void {
    if (newVersion) return;
    newVersion = true;
    for (const listener of listeners) listener();
  },
  /** For tests. */
  reset(): void {
    newVersion = false;
  },
};

/**
 * Loads a lazy part of the app, giving up after 120 s (01 §9). A part that fails to load raises the
 * new-version box and rejects with a ChunkLoadError, which error reporting leaves out.
 */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ChunkLoadError(`A part of the app did not load within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  return Promise.race([load(), timeout])
    .catch((error: unknown) => {
      if (!isChunkLoadError(error)) throw error;
      newVersionStore.set();
      throw error instanceof ChunkLoadError ? error : new ChunkLoadError((error as Error).message);
    })
    .finally(() => clearTimeout(timer));
}
