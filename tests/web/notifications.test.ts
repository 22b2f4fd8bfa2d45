import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pageCount } from '../../web/features/notifications/notifications-page.tsx';
import {
  joinNotificationSchedule,
  LATEST_UNSEEN,
  notificationsKey,
  type SharedSchedule,
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

describe('when the dashboard and the bell both show the latest unseen', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const TEN_MINUTES = 10 * 60 * 1000;
  const join = (schedules: Map<string, SharedSchedule>, firstAfterMs: number, fetchNow = vi.fn()) => ({
    fetchNow,
    leave: joinNotificationSchedule('latest', fetchNow, { firstAfterMs, everyMs: TEN_MINUTES }, schedules),
  });

  it('fetches the list once at load and once every 10 minutes, not once for each', () => {
    const schedules = new Map<string, SharedSchedule>();
    const fetches = vi.fn();
    join(schedules, 1000, fetches); // the bell
    join(schedules, 0, fetches); // the dashboard, opened at the same time
    vi.advanceTimersByTime(0);
    expect(fetches).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(2000);
    expect(fetches).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(TEN_MINUTES);
    expect(fetches).toHaveBeenCalledTimes(2);
  });

  it('keeps fetching for the bell after the dashboard is left, and stops when both are gone', () => {
    const schedules = new Map<string, SharedSchedule>();
    const fetches = vi.fn();
    const bell = join(schedules, 1000, fetches);
    const dashboard = join(schedules, 0, fetches);
    vi.advanceTimersByTime(0);
    dashboard.leave();
    dashboard.leave();
    vi.advanceTimersByTime(TEN_MINUTES);
    expect(fetches).toHaveBeenCalledTimes(2);
    bell.leave();
    vi.advanceTimersByTime(3 * TEN_MINUTES);
    expect(fetches).toHaveBeenCalledTimes(2);
    expect(schedules.size).toBe(0);
  });

  it('lets a later bell join the running schedule without a fetch of its own', () => {
    const schedules = new Map<string, SharedSchedule>();
    const fetches = vi.fn();
    join(schedules, 0, fetches);
    vi.advanceTimersByTime(5000);
    join(schedules, 1000, fetches);
    vi.advanceTimersByTime(5000);
    expect(fetches).toHaveBeenCalledTimes(1);
  });
});
