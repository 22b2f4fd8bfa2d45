import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prefetchWhenIdle, sidebarPages } from '../../web/app/prefetch.ts';
import { API_ONLY, ASSET_ONLY, OWNER } from './access-fixtures.ts';

describe('fetching pages ahead', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('covers the pages the user’s sidebar leads to, and nothing for API-only users', () => {
    expect(sidebarPages(OWNER)).toContain('dashboard');
    expect(sidebarPages(ASSET_ONLY)).toContain('dashboard');
    expect(sidebarPages(API_ONLY)).toEqual([]);
    expect(new Set(sidebarPages(OWNER)).size).toBe(sidebarPages(OWNER).length);
  });

  it('waits until the first page has had its moment, and shrugs off failures', async () => {
    const load = vi.fn(() => [Promise.resolve('page'), Promise.reject(new Error('gone'))]);
    prefetchWhenIdle(load, 1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
