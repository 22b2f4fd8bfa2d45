import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore } from '../../web/components/toast-store.ts';

describe('toasts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('close by themselves after 3 seconds', () => {
    const store = createToastStore();
    store.show('Details updated successfully!', 'success');
    vi.advanceTimersByTime(2999);
    expect(store.getSnapshot().map((t) => t.message)).toEqual(['Details updated successfully!']);
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('can be closed earlier and tell their listeners', () => {
    const store = createToastStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const id = store.show('Saved');
    store.dismiss(id);
    expect(store.getSnapshot()).toEqual([]);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
