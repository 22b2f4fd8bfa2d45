import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageCount } from '../../web/features/notifications/notifications-page.tsx';
import {
  LATEST_UNSEEN,
  notificationsKey,
  scheduleNotificationFetches,
} from '../../web/lib/notifications-api.ts';

describe('when notifications are fetched (useNotifications)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const schedule = (firstAfterMs: number) => {
    const fetchNow = vi.fn();
    const stop = scheduleNotificationFetches(fetchNow, { firstAfterMs, everyMs: 10 * 60 * 1000 });
    return { fetchNow, stop };
  };

  it('fetches 1 second after load, then every 10 minutes', () => {
    const { fetchNow } = schedule(1000);
    vi.advanceTimersByTime(999);
    expect(fetchNow).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fetchNow).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * 60 * 1000 - 1);
    expect(fetchNow).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fetchNow).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(30 * 60 * 1000);
    expect(fetchNow).toHaveBeenCalledTimes(5);
  });

  it('fetches at once where the list is the page, and still every 10 minutes', () => {
    const { fetchNow } = schedule(0);
    vi.advanceTimersByTime(0);
    expect(fetchNow).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10 * 60 * 1000);
    expect(fetchNow).toHaveBeenCalledTimes(2);
  });

  it('stops when the bell or page goes away, before or after the first fetch', () => {
    const early = schedule(1000);
    early.stop();
    vi.advanceTimersByTime(60 * 60 * 1000);
    expect(early.fetchNow).not.toHaveBeenCalled();

    const late = schedule(1000);
    vi.advanceTimersByTime(1000);
    late.stop();
    vi.advanceTimersByTime(60 * 60 * 1000);
    expect(late.fetchNow).toHaveBeenCalledTimes(1);
  });
});

describe('the notification calls', () => {
  it('ask the server for the 5 latest unseen for the bell', () => {
    expect(notificationsKey(LATEST_UNSEEN)).toBe('/users/me/notifications?isSeen=false&limit=5');
  });

  it('page through the whole list', () => {
    expect(notificationsKey({ limit: 20, skip: 40 })).toBe('/users/me/notifications?limit=20&skip=40');
    expect(notificationsKey({ limit: 20, skip: 0 })).toBe('/users/me/notifications?limit=20');
    expect(pageCount(0)).toBe(1);
    expect(pageCount(20)).toBe(1);
    expect(pageCount(21)).toBe(2);
  });
});
