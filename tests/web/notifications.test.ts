import { describe, expect, it } from 'vitest';
import { latestUnseen, type NotificationList } from '../../web/lib/notifications-api.ts';

describe('the notification dropdown', () => {
  const list = (seen: boolean[]): NotificationList => ({
    data: seen.map((isSeen, i) => ({
      _id: `n${i}`,
      isSeen,
      content: `N${i}`,
      createdAt: '2026-01-01T00:00:00Z',
    })),
    total: seen.length,
    limit: 100,
    skip: 0,
    unseenCount: seen.filter((s) => !s).length,
  });

  it('shows the 5 latest unseen notifications only', () => {
    const picked = latestUnseen(list([false, true, false, false, true, false, false, false]), 5);
    expect(picked.map((n) => n._id)).toEqual(['n0', 'n2', 'n3', 'n5', 'n6']);
  });

  it('shows none before the first answer', () => {
    expect(latestUnseen(undefined, 5)).toEqual([]);
  });
});
