/** A lazily loaded part that cannot be fetched usually means a newer build replaced the old chunks. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|module script failed|error loading dynamically imported/i.test(
    error.message,
  );
}
