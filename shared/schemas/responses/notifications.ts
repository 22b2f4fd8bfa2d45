import type { ListPage } from './common.ts';

/** Answers of the notification calls (`/users/me/notifications`), as the browser reads them. */

/** A notification of 01 §3. */
export interface AppNotification {
  _id: string;
  isSeen: boolean;
  route?: string;
  icon?: string;
  content: string;
  createdAt: string;
}

/** GET /users/me/notifications: a page, and how many of the user's notifications are unseen. */
export interface NotificationList extends Required<ListPage<AppNotification>> {
  unseenCount: number;
}
