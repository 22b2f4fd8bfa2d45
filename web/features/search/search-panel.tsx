import { Alert, CloseButton, Group, Loader, Text, TextInput } from '@mantine/core';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import { SEARCH_MIN_CHARS } from '../../../shared/constants.ts';
import { SearchIcon } from '../../components/icons.tsx';
import { useT } from '../../lib/i18n-context.tsx';
import { createSearch, groupResults, type SearchState, useSearchCall } from '../../lib/search.ts';
import { SearchResults } from './search-results.tsx';

/**
 * The global search panel: searches from 3 characters, once typing pauses for 500 ms (01 §5), and
 * lists the results grouped as Entities, Assets and Accounts. Escape or a click outside closes it.
 */
export function SearchPanel({ onClose }: { onClose: () => void }) {
  const t = useT();
  const searchCall = useSearchCall();
  const [text, setText] = useState('');
  const [state, setState] = useState<SearchState>({ status: 'idle' });
  const search = useMemo(() => createSearch({ run: searchCall, onChange: setState }), [searchCall]);
  useEffect(() => () => search.dispose(), [search]);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onClose();
  };

  return (
    <>
      <div className="vf-search-backdrop" onClick={onClose} aria-hidden="true" />
      <div className="vf-search-panel" role="dialog" aria-label={t('search.label')} onKeyDown={onKeyDown}>
        <TextInput
          ref={input}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            search.input(event.currentTarget.value);
          }}
          aria-label={t('search.label')}
          placeholder={t('search.placeholder')}
          leftSection={<SearchIcon size={16} />}
          rightSection={<CloseButton onClick={onClose} aria-label={t('search.close')} />}
          size="md"
          type="search"
          autoComplete="off"
        />
        <div className="vf-search-body" aria-live="polite">
          <SearchBody state={state} onNavigate={onClose} />
        </div>
      </div>
    </>
  );
}

function SearchBody({ state, onNavigate }: { state: SearchState; onNavigate: () => void }) {
  const t = useT();
  switch (state.status) {
    case 'idle':
      return (
        <Text size="sm" c="dimmed" p="sm">
          {t('search.minChars', { count: SEARCH_MIN_CHARS })}
        </Text>
      );
    case 'waiting':
    case 'loading':
      return (
        <Group gap="xs" p="sm" role="status">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t('search.searching')}
          </Text>
        </Group>
      );
    case 'error':
      return (
        <Alert color="red" m="sm" role="alert" title={t('search.failed')}>
          {state.error instanceof Error ? state.error.message : String(state.error)}
        </Alert>
      );
    case 'done':
      if (state.results.length === 0) {
        return (
          <Text size="sm" p="sm">
            {t('search.none')}
          </Text>
        );
      }
      return <SearchResults groups={groupResults(state.results)} onNavigate={onNavigate} />;
  }
}
