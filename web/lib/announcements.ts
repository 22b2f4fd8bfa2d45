import type { Language } from './i18n.ts';

/**
 * Dated notices shown above every page of the shell. Each is data: a text per language and the days it
 * is shown. `from` and `until` are calendar days in the user's time zone; `until` is the first day it is
 * no longer shown.
 */
export interface Announcement {
  id: string;
  text: { en: string } & Partial<Record<Language, string>>;
  from?: string;
  until: string;
}

export const ANNOUNCEMENTS: readonly Announcement[] = [
  {
    id: 'two-factor-2025-08-18',
    text: {
      en: 'Two-factor authentication (SMS or authenticator app) is enabled for all users on 18 Aug 2025',
      fr: "L'authentification à deux facteurs (SMS ou application d'authentification) est activée pour tous les utilisateurs le 18 août 2025",
    },
    until: '2025-08-19',
  },
];

/** Local midnight at the start of a YYYY-MM-DD day. */
function startOfDay(day: string): number {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y ?? 0, (m ?? 1) - 1, d ?? 1).getTime();
}

/** The announcements to show at `now`, leaving out the ones the user has closed. */
export function activeAnnouncements(
  list: readonly Announcement[],
  now: Date,
  dismissed: ReadonlySet<string> = new Set(),
): Announcement[] {
  const t = now.getTime();
  return list.filter(
    (a) =>
      !dismissed.has(a.id) && t < startOfDay(a.until) && (a.from === undefined || t >= startOfDay(a.from)),
  );
}

export function announcementText(announcement: Announcement, language: Language): string {
  return announcement.text[language] ?? announcement.text.en;
}

const DISMISSED_KEY = 'voltfolio.dismissedAnnouncements';

export function readDismissed(storage: Pick<Storage, 'getItem'>): Set<string> {
  try {
    const value: unknown = JSON.parse(storage.getItem(DISMISSED_KEY) ?? '[]');
    return new Set(Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
  } catch {
    return new Set();
  }
}

export function writeDismissed(storage: Pick<Storage, 'setItem'>, ids: ReadonlySet<string>): void {
  try {
    storage.setItem(DISMISSED_KEY, JSON.stringify([...ids]));
  } catch {
    // Storage may be full or off: the notice then comes back on the next visit, which is harmless.
  }
}
