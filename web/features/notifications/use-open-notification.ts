import { useNavigate } from 'react-router';
import { showToast } from '../../components/toast-store.ts';
import type { AppNotification } from '../../lib/notifications-api.ts';
import { useMarkSeen } from '../../lib/notifications-api.ts';

/** A click marks the notification seen and follows its route, if it has one. */
export function useOpenNotification() {
  const markSeen = useMarkSeen();
  const navigate = useNavigate();
  return async (notification: AppNotification) => {
    if (!notification.isSeen) {
      await markSeen({ id: notification._id }).catch((error: unknown) => {
        showToast(error instanceof Error ? error.message : 'Could not update the notification', 'error');
      });
    }
    if (notification.route?.startsWith('/')) navigate(notification.route);
  };
}
