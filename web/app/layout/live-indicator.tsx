import { Button, Group, Text } from '@mantine/core';
import type { MessageKey } from '../../lib/i18n.ts';
import { useT } from '../../lib/i18n-context.tsx';
import type { LiveStatus } from '../../lib/live.ts';
import type { LiveState } from '../../lib/use-live-updates.ts';

const LABELS: Record<LiveStatus, MessageKey> = {
  open: 'live.open',
  connecting: 'live.connecting',
  reconnecting: 'live.reconnecting',
  'reconnect-error': 'live.reconnectError',
  closed: 'live.reconnectError',
};

/**
 * The live connection's state in the header: a dot while all is well, and once the reconnect
 * attempts are spent, a visible notice with a button to try again (01 §4).
 */
export function LiveIndicator({ live }: { live: LiveState }) {
  const t = useT();
  const label = t(LABELS[live.status]);
  const dot = <span className="vf-live-dot" data-status={live.status} aria-hidden="true" />;
  if (live.status !== 'reconnect-error') {
    return (
      <span
        role="status"
        aria-label={label}
        title={label}
        data-live-status={live.status}
        style={{ display: 'inline-flex', padding: 4 }}
      >
        {dot}
      </span>
    );
  }
  return (
    <Group gap={6} wrap="nowrap" role="status" aria-label={label} data-live-status={live.status}>
      {dot}
      <Text size="sm" c="red.7" className="vf-hide-small">
        {t('live.lost')}
      </Text>
      <Button size="compact-sm" variant="light" color="red" onClick={live.retry}>
        {t('live.retry')}
      </Button>
    </Group>
  );
}
