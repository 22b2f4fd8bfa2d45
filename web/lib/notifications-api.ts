/** The notification calls, used by the header bell, the notifications page and the dashboard. */
import { useEffect, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { NOTIFICATIONS_FIRST_FETCH_MS, NOTIFICATIONS_REFRESH_MS } from '../../shared/constants.ts';
import { useApi } from './app-context.tsx';

/** A notification of 01 §3. */
export interface AppNotification {
  _id: string;
  isSeen: boolean;
  route?: string;
  icon?: string;
  content: string;
  createdAt: string;
}

export interface NotificationList {
  data: AppNotification[];
  total: number;
  limit: number;
  skip: number;
  unseenCount: number;
}

export const NOTIFICATIONS_KEY = '/users/me/notifications';

/** The latest unseen notifications, newest first (the list is answered newest first). */
export function latestUnseen(list: NotificationList | undefined, count: number): AppNotification[] {
  return (list?.data ?? []).filter((n) => !n.isSeen).slice(0, count);
}

/**
 * The user's notifications, refreshed every 10 minutes. With `delayed`, the first fetch waits 1 second
 * so the header does not compete with the page's own first calls (01 §7).
 */
export function useNotifications(options: { delayed?: boolean } = {}) {
  const [ready, setReady] = useState(!options.delayed);
  useEffect(() => {
    if (ready) return;
    const timer = setTimeout(() => setReady(true), NOTIFICATIONS_FIRST_FETCH_MS);
    return () => clearTimeout(timer);
  }, [ready]);
  return useSWR<NotificationList>(ready ? NOTIFICATIONS_KEY : null, {
    refreshInterval: NOTIFICATIONS_REFRESH_MS,
  });
}

export type SeenTarget = { id: string } | { all: true };

/** Marks one notification (a click) or all of them (Dismiss All) seen, then refreshes the list. */
export function useMarkSeen() {
  const api = useApi();
  const { mutate } = useSWRConfig();
  return async (target: SeenTarget) => {
    await api.post('/users/me/seen-notification', target);
    await mutate(NOTIFICATIONS_KEY);
  };
}
