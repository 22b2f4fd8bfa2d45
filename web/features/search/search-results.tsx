import { Badge, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { MessageKey } from '../../lib/i18n.ts';
import { useT } from '../../lib/i18n-context.tsx';
import {
  type GroupedResults,
  isActiveAccount,
  isSubMeter,
  type SearchResult,
  searchLink,
} from '../../lib/search.ts';

const GROUPS: { key: keyof GroupedResults; title: MessageKey }[] = [
  { key: 'entities', title: 'search.entities' },
  { key: 'assets', title: 'search.assets' },
  { key: 'accounts', title: 'search.accounts' },
];

function Thumbnail({ url }: { url: string | null | undefined }) {
  if (!url) return <span className="vf-search-thumb" aria-hidden="true" />;
  return <img className="vf-search-thumb" src={url} alt="" loading="lazy" />;
}

function ResultText({ result }: { result: SearchResult }) {
  const t = useT();
  if (result.searchType === 'entity') {
    return (
      <div>
        <Text size="sm" fw={600}>
          {result.legalName ?? result.sourceId}
        </Text>
        {result.parentEntity?.legalName && (
          <Text size="xs" c="dimmed">
            {result.parentEntity.legalName}
          </Text>
        )}
      </div>
    );
  }
  if (result.searchType === 'asset') {
    return (
      <Group gap="sm" wrap="nowrap">
        <Thumbnail url={result.primaryImageUrl} />
        <div>
          <Text size="sm" fw={600}>
            {result.siteName ?? result.sourceId}
          </Text>
          {result.addressString && (
            <Text size="xs" c="dimmed">
              {result.addressString}
            </Text>
          )}
        </div>
      </Group>
    );
  }
  const active = isActiveAccount(result);
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <div>
        <Text size="sm" fw={600}>
          {result.name ?? result.meterPointNumber ?? result.sourceId}
        </Text>
        {result.meterPointNumber && result.name && (
          <Text size="xs" c="dimmed">
            {result.meterPointNumber}
          </Text>
        )}
      </div>
      <Group gap={4} wrap="nowrap">
        {isSubMeter(result) && (
          <Badge size="sm" variant="light" color="grape">
            {t('search.subMeter')}
          </Badge>
        )}
        <Badge size="sm" variant="light" color={active ? 'teal' : 'gray'}>
          {active ? t('search.active') : t('search.inactive')}
        </Badge>
      </Group>
    </Group>
  );
}

/** Results grouped as Entities, Assets and Accounts, each a link to its page (01 §2.3). */
export function SearchResults({ groups, onNavigate }: { groups: GroupedResults; onNavigate: () => void }) {
  const t = useT();
  return (
    <>
      {GROUPS.filter((g) => groups[g.key].length > 0).map((g) => (
        <section key={g.key} aria-label={t(g.title)}>
          <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="sm" pb={4}>
            {t(g.title)}
          </Text>
          <ul className="vf-search-list">
            {groups[g.key].map((result) => (
              <li key={`${result.searchType}:${result.sourceId}`}>
                <Link to={searchLink(result)} className="vf-menu-item" onClick={onNavigate}>
                  <ResultText result={result} />
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
