/** The notification calls, used by the header bell, the notifications page and the dashboard. */
import { useEffect } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import {
  NOTIFICATIONS_DROPDOWN_SIZE,
  NOTIFICATIONS_FIRST_FETCH_MS,
  NOTIFICATIONS_REFRESH_MS,
} from '../../shared/constants.ts';
import { useApi } from './app-context.tsx';
import { isStaleKey } from './live.ts';

export type {
  AppNotification,
  NotificationList,
} from '../../shared/schemas/responses/notifications.ts';

import type { NotificationList } from '../../shared/schemas/responses/notifications.ts';

export const NOTIFICATIONS_PATH = '/users/me/notifications';

export interface NotificationQuery {
  /** false: the unseen ones only, picked by the server. */
  isSeen?: boolean;
  limit?: number;
  skip?: number;
}

/** The SWR key (and path) of one page of the list. */
export function notificationsKey(query: NotificationQuery = {}): string {
  const params = new URLSearchParams();
  if (query.isSeen !== undefined) params.set('isSeen', String(query.isSeen));
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.skip) params.set('skip', String(query.skip));
  const search = params.toString();
  return search ? `${NOTIFICATIONS_PATH}?${search}` : NOTIFICATIONS_PATH;
}

/** What the bell and the dashboard show: the 5 latest unseen (01 §2.3, §9). */
export const LATEST_UNSEEN: NotificationQuery = { isSeen: false, limit: NOTIFICATIONS_DROPDOWN_SIZE };

/**
 * Calls `fetchNow` after `firstAfterMs`, then every `everyMs`, until the returned stop is called.
 * The schedule of 01 §7: the first fetch 1 second after load, then every 10 minutes.
 */
export function scheduleNotificationFetches(
  fetchNow: () => void,
  { firstAfterMs, everyMs }: { firstAfterMs: number; everyMs: number },
): () => void {
  let every: ReturnType<typeof setInterval> | undefined;
  const first = setTimeout(() => {
    fetchNow();
    every = setInterval(fetchNow, everyMs);
  }, firstAfterMs);
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}

export interface SharedSchedule {
  users: number;
  firstAfterMs: number;
  fired: boolean;
  stop: () => void;
}

const SHARED_SCHEDULES = new Map<string, SharedSchedule>();

/**
 * Everyone who shows the same page of the list (the dashboard widget and the header bell both show the 5
 * latest unseen) shares one schedule, so the list is fetched once per tick, not once per user of it. The
 * schedule starts with its earliest user's first fetch: the dashboard's at once serves the bell too.
 */
export function joinNotificationSchedule(
  key: string,
  fetchNow: () => void,
  { firstAfterMs, everyMs }: { firstAfterMs: number; everyMs: number },
  schedules: Map<string, SharedSchedule> = SHARED_SCHEDULES,
): () => void {
  const start = (first: number): SharedSchedule => {
    const shared: SharedSchedule = { users: 0, firstAfterMs: first, fired: false, stop: () => undefined };
    shared.stop = scheduleNotificationFetches(
      () => {
        shared.fired = true;
        fetchNow();
      },
      { firstAfterMs: first, everyMs },
    );
    schedules.set(key, shared);
    return shared;
  };
  let shared = schedules.get(key);
  if (!shared) shared = start(firstAfterMs);
  else if (!shared.fired && firstAfterMs < shared.firstAfterMs) {
    // A user who wants the list sooner than the schedule's first fetch moves that fetch forward.
    const { users } = shared;
    shared.stop();
    shared = start(firstAfterMs);
    shared.users = users;
  }
  shared.users++;
  let left = false;
  return () => {
    if (left) return;
    left = true;
    const current = schedules.get(key);
    if (!current) return;
    current.users--;
    if (current.users > 0) return;
    current.stop();
    schedules.delete(key);
  };
}

/**
 * One page of the user's notifications, fetched on the schedule of 01 §7. `delayed` is for the
 * header bell: its first fetch waits 1 second so it does not compete with the page's own first calls.
 * Where the list is the content the user opened (the notifications page, the dashboard widget) the
 * first fetch is at once; every use then refreshes every 10 minutes, once per page of the list however
 * many parts of the screen show it.
 */
export function useNotifications(query: NotificationQuery = {}, options: { delayed?: boolean } = {}) {
  const key = notificationsKey(query);
  const { mutate } = useSWRConfig();
  const firstAfterMs = options.delayed ? NOTIFICATIONS_FIRST_FETCH_MS : 0;
  // A new key (another page of the list) joins that key's schedule.
  useEffect(
    () =>
      joinNotificationSchedule(key, () => void mutate(key), {
        firstAfterMs,
        everyMs: NOTIFICATIONS_REFRESH_MS,
      }),
    [key, mutate, firstAfterMs],
  );
  // The schedule does the fetching; SWR keeps the answer and shares it between the users of a key.
  return useSWR<NotificationList>(key, { revalidateOnMount: false, revalidateIfStale: false });
}

export type SeenTarget = { id: string } | { all: true };

/** Marks one notification (a click) or all of them (Dismiss All) seen, then refreshes every list. */
export function useMarkSeen() {
  const api = useApi();
  const { mutate } = useSWRConfig();
  return async (target: SeenTarget) => {
    await api.post('/users/me/seen-notification', target);
    await mutate((key) => isStaleKey(key, [NOTIFICATIONS_PATH]));
  };
}
