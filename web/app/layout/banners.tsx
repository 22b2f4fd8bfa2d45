import { Button, CloseButton } from '@mantine/core';
import { useState, useSyncExternalStore } from 'react';
import {
  ANNOUNCEMENTS,
  activeAnnouncements,
  announcementText,
  readDismissed,
  writeDismissed,
} from '../../lib/announcements.ts';
import { newVersionStore } from '../../lib/chunk-error.ts';
import { useI18n } from '../../lib/i18n-context.tsx';

/** The dated announcements (such as the two-factor notice) that are current, each one closable. */
export function AnnouncementBanners() {
  const { language, t } = useI18n();
  const [dismissed, setDismissed] = useState(() => readDismissed(window.localStorage));
  const shown = activeAnnouncements(ANNOUNCEMENTS, new Date(), dismissed);
  if (shown.length === 0) return null;
  const dismiss = (id: string) => {
    const next = new Set(dismissed).add(id);
    writeDismissed(window.localStorage, next);
    setDismissed(next);
  };
  return (
    <>
      {shown.map((a) => (
        <div key={a.id} className="vf-banner" role="status">
          <span>{announcementText(a, language)}</span>
          <CloseButton size="sm" onClick={() => dismiss(a.id)} aria-label={t('banner.dismiss')} />
        </div>
      ))}
    </>
  );
}

/** Hidden until a part of the app fails to load; a click loads the new version (01 §2.3, §8). */
export function NewVersionBox() {
  const { t } = useI18n();
  const show = useSyncExternalStore(newVersionStore.subscribe, newVersionStore.getSnapshot);
  if (!show) return null;
  return (
    <div className="vf-new-version" role="alert">
      <Button color="blue" onClick={() => window.location.reload()}>
        {t('banner.newVersion')}
      </Button>
    </div>
  );
}
