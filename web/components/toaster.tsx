import { Notification, Stack } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import { toastStore } from './toast-store.ts';

const COLORS = { success: 'teal', error: 'red', info: 'blue' } as const;

export function Toaster() {
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.getSnapshot);
  if (toasts.length === 0) return null;
  return (
    <Stack gap="xs" pos="fixed" bottom={16} right={16} w={340} style={{ zIndex: 1000 }} aria-live="polite">
      {toasts.map((toast) => (
        <Notification
          key={toast.id}
          color={COLORS[toast.tone]}
          withBorder
          onClose={() => toastStore.dismiss(toast.id)}
          role={toast.tone === 'error' ? 'alert' : 'status'}
        >
          {toast.message}
        </Notification>
      ))}
    </Stack>
  );
}
