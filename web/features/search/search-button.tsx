import { ActionIcon } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { SearchIcon } from '../../components/icons.tsx';
import { QuietBoundary } from '../../components/quiet-boundary.tsx';
import { loadChunk } from '../../lib/chunk-error.ts';
import { useT } from '../../lib/i18n-context.tsx';

/** The panel and its results are fetched when search is first opened, not with the first page. */
const SearchPanel = lazy(() =>
  loadChunk(() => import('./search-panel.tsx')).then((m) => ({ default: m.SearchPanel })),
);

const typingInField = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/** The header's search: a button (or Ctrl+K, or '/') opens the search panel (01 §2.3). */
export function SearchButton() {
  const t = useT();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const shortcut =
        ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') ||
        (event.key === '/' && !typingInField(event.target));
      if (!shortcut) return;
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <ActionIcon
        variant="subtle"
        color="gray"
        size="lg"
        onClick={() => setOpen(true)}
        aria-label={t('search.open')}
        aria-expanded={open}
        aria-haspopup="dialog"
      >
        <SearchIcon />
      </ActionIcon>
      {open && (
        <QuietBoundary onError={() => setOpen(false)}>
          <Suspense fallback={null}>
            <SearchPanel onClose={() => setOpen(false)} />
          </Suspense>
        </QuietBoundary>
      )}
    </>
  );
}
