import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from '../../../shared/constants.ts';
import type { InvoiceAccount, InvoiceView, ValidationItem } from './api.ts';
import { useAccountSearch } from './api.ts';
import { CheckStatusIcon, ValidationStatusBadge } from './status.tsx';
import { countChecks, sortChecks, validationBlockOf } from './validation-state.ts';

interface AccountHit {
  _id: string;
  name?: string;
  meterPointNumber?: string;
  type?: string;
  assetId?: string;
  asset?: { siteName?: string };
}

function AccountLinker({ onLink, busy }: { onLink: (accountId: string) => void; busy: boolean }) {
  const [input, setInput] = useState('');
  const [query] = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  const { data, error } = useAccountSearch<AccountHit>(query, SEARCH_MIN_CHARS);
  return (
    <Stack gap="xs">
      <TextInput
        size="xs"
        label="Find the account"
        placeholder="Account name or meter number"
        type="search"
        value={input}
        onChange={(e) => setInput(e.currentTarget.value)}
      />
      {error && (
        <Text size="xs" c="red">
          The accounts could not be searched.
        </Text>
      )}
      {data && data.data.length === 0 && (
        <Text size="xs" c="dimmed">
          No account matches.
        </Text>
      )}
      {(data?.data ?? []).map((a) => (
        <Group key={a._id} justify="space-between" wrap="nowrap">
          <Text size="sm">
            {a.name ?? a.type ?? 'Account'}
            {a.meterPointNumber ? ` · ${a.meterPointNumber}` : ''}
            {a.asset?.siteName ? ` · ${a.asset.siteName}` : ''}
          </Text>
          <Button size="compact-xs" variant="light" disabled={busy} onClick={() => onLink(a._id)}>
            Link
          </Button>
        </Group>
      ))}
    </Stack>
  );
}

function AccountCard({ account }: { account: InvoiceAccount }) {
  const path = account.assetId ? `/assets/${account.assetId}/accounts/${account._id}/invoices` : undefined;
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" fw={500}>
        Account:
      </Text>
      {path ? (
        <Anchor component={Link} to={path} size="sm">
          {account.name ?? 'Account'}
        </Anchor>
      ) : (
        <Text size="sm">{account.name ?? 'Account'}</Text>
      )}
      {account.meterPointNumber && (
        <Text size="sm" c="dimmed">
          {account.meterPointNumber}
        </Text>
      )}
      {account.siteName && (
        <Text size="sm" c="dimmed">
          {account.siteName}
        </Text>
      )}
    </Group>
  );
}

function Results({ validation }: { validation: ValidationItem | undefined }) {
  if (!validation)
    return (
      <Text size="sm" c="dimmed">
        This invoice has not been validated yet.
      </Text>
    );
  const results = sortChecks(validation.results ?? []);
  const counts = countChecks(results);
  return (
    <Stack gap="xs">
      <Group gap="xs">
        <ValidationStatusBadge status={validation.status} />
        {results.length > 0 && (
          <Text size="sm" c="dimmed">
            {counts.failed} failed, {counts.warning} warnings, {counts.passed} passed, {counts.skipped}{' '}
            skipped
          </Text>
        )}
      </Group>
      {validation.reason && <Text size="sm">{validation.reason}</Text>}
      {results.length > 0 && (
        <Table aria-label="Validation checks" verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={120}>Result</Table.Th>
              <Table.Th>Check</Table.Th>
              <Table.Th>Reason</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {results.map((r) => (
              <Table.Tr key={r.key} data-status={r.status}>
                <Table.Td>
                  <CheckStatusIcon status={r.status} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{r.name}</Text>
                  <Badge size="xs" variant="light" color="gray">
                    {r.group}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{r.reason}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

/**
 * The validation of an invoice, shown or hidden on demand. An invoice with an account shows it and its
 * checks; one without asks for the account first, since the checks against the account's history,
 * contract and meter cannot run without it (02 §5).
 */
export function ValidationBlock({
  invoice,
  validation,
  account,
  busy,
  onLink,
}: {
  invoice: InvoiceView;
  validation: ValidationItem | undefined;
  account: InvoiceAccount | undefined;
  busy: boolean;
  /** Absent where the invoice may not be changed. */
  onLink?: (accountId: string) => void;
}) {
  const [shown, setShown] = useState(true);
  const block = validationBlockOf(invoice);
  const linked = account ?? invoice.account;
  return (
    <Paper withBorder p="md" aria-label="Validation">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>Validation</Title>
          <Switch
            label="Show validation result"
            checked={shown}
            onChange={(e) => setShown(e.currentTarget.checked)}
          />
        </Group>
        {block === 'account' ? (
          linked ? (
            <AccountCard account={linked} />
          ) : (
            <Text size="sm" c="dimmed">
              Linked to an account.
            </Text>
          )
        ) : (
          <Alert color="yellow" title="No account">
            <Stack gap="xs">
              <Text size="sm">
                This invoice is not linked to an account, so it cannot be checked against the account's
                earlier bills, contract and meter. Link it to its account, then validate it again.
              </Text>
              {!invoice.completed && onLink && <AccountLinker onLink={onLink} busy={busy} />}
            </Stack>
          </Alert>
        )}
        {shown && <Results validation={validation} />}
        {linked?.assetId && (validation?.status === 'failed' || validation?.status === 'warning') && (
          <Group justify="flex-end">
            <Button
              component={Link}
              to={`/assets/${linked.assetId}/discussion?invoiceId=${invoice._id}`}
              size="xs"
              variant="light"
            >
              Discuss this bill
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
