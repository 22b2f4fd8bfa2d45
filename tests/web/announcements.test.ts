import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ANNOUNCEMENTS,
  type Announcement,
  activeAnnouncements,
  announcementText,
  readDismissed,
  writeDismissed,
} from '../../web/lib/announcements.ts';

const ids = (list: Announcement[]) => list.map((a) => a.id);
const shownAt = (list: readonly Announcement[]) => ids(activeAnnouncements(list, new Date()));

describe('the two-factor announcement', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says two-factor authentication is enabled for all users on 18 Aug 2025', () => {
    const [notice] = ANNOUNCEMENTS;
    expect(notice && announcementText(notice, 'en')).toBe(
      'Two-factor authentication (SMS or authenticator app) is enabled for all users on 18 Aug 2025',
    );
  });

  it('is shown until 19 Aug 2025 and not from then on', () => {
    vi.setSystemTime(new Date(2025, 7, 1, 9, 0));
    expect(shownAt(ANNOUNCEMENTS)).toEqual(['two-factor-2025-08-18']);
    vi.setSystemTime(new Date(2025, 7, 18, 23, 59, 59));
    expect(shownAt(ANNOUNCEMENTS)).toEqual(['two-factor-2025-08-18']);
    vi.setSystemTime(new Date(2025, 7, 19, 0, 0, 0));
    expect(shownAt(ANNOUNCEMENTS)).toEqual([]);
    vi.setSystemTime(new Date(2026, 10, 22));
    expect(shownAt(ANNOUNCEMENTS)).toEqual([]);
  });
});

describe('dated announcements', () => {
  const list: Announcement[] = [
    { id: 'maintenance', text: { en: 'Maintenance on Saturday' }, from: '2026-03-02', until: '2026-03-08' },
  ];

  it('start on their first day', () => {
    expect(ids(activeAnnouncements(list, new Date(2026, 2, 1, 23, 59)))).toEqual([]);
    expect(ids(activeAnnouncements(list, new Date(2026, 2, 2, 0, 0)))).toEqual(['maintenance']);
    expect(ids(activeAnnouncements(list, new Date(2026, 2, 8, 0, 0)))).toEqual([]);
  });

  it('stay closed once the user closed them', () => {
    const storage = new Map<string, string>();
    const store = {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
    };
    writeDismissed(store, new Set(['maintenance']));
    expect(activeAnnouncements(list, new Date(2026, 2, 3), readDismissed(store))).toEqual([]);
    storage.set('voltfolio.dismissedAnnouncements', 'not json');
    expect(readDismissed(store)).toEqual(new Set());
  });

  it('fall back to English where a language has no text', () => {
    expect(announcementText(list[0] as Announcement, 'fr')).toBe('Maintenance on Saturday');
  });
});
