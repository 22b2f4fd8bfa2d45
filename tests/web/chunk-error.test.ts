import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, isChunkLoadError, loadChunk, newVersionStore } from '../../web/lib/chunk-error.ts';

describe('a part of the app that cannot be loaded', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    newVersionStore.reset();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is told apart from other errors so the new-version notice shows', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/chunk-X.js')),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new ChunkLoadError('timed out'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });

  it('raises the new-version notice when its file is gone', async () => {
    const listener = vi.fn();
    const unsubscribe = newVersionStore.subscribe(listener);
    const failed = loadChunk(() =>
      Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/chunk-OLD.js')),
    );
    await expect(failed).rejects.toBeInstanceOf(ChunkLoadError);
    expect(newVersionStore.getSnapshot()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
  });

  it('gives up after 120 seconds', async () => {
    const never = loadChunk(() => new Promise(() => undefined));
    const outcome = never.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(119_999);
    expect(newVersionStore.getSnapshot()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBeInstanceOf(ChunkLoadError);
    expect(newVersionStore.getSnapshot()).toBe(true);
  });

  it('passes a loaded part through, and other failures without the notice', async () => {
    await expect(loadChunk(() => Promise.resolve({ Page: 1 }))).resolves.toEqual({ Page: 1 });
    await expect(loadChunk(() => Promise.reject(new Error('bad code')))).rejects.toThrow('bad code');
    expect(newVersionStore.getSnapshot()).toBe(false);
  });
});
