import type { ComponentType } from 'react';

/** The kiosk admin page, its own chunk. */
export const KIOSK_PAGES = {
  'kiosk-admin': () => import('./kiosk-admin-page.tsx').then((m) => ({ Component: m.KioskAdminPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type KioskPageKey = keyof typeof KIOSK_PAGES;
