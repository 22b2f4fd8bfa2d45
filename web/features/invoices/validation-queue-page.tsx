import {
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS, VALIDATION_PAGE_SIZE } from '../../../shared/constants.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useSession } from '../../lib/app-context.tsx';
import { formatDate } from '../../lib/format.ts';
import {
  type BulkAnswer,
  bulkMessage,
  useBulkCalls,
  useQueue,
  usersOf,
  useSupplierOptions,
  useUserOptions,
  useValidationSearch,
  type ValidationItem,
} from './api.ts';
import { money } from './invoice-values.ts';
import { INVOICE_MESSAGES } from './messages.ts';
import { ValidationStatusBadge } from './status.tsx';
import { TagField } from './tag-field.tsx';
import { problemOf } from './use-action.ts';
import { ValidationNav } from './validation-nav.tsx';
import {
  allSelected,
  cutDisplayName,
  isQueueGroup,
  keepVisible,
  outcomeLine,
  QUEUE_LABELS,
  type QueueFilters,
  type QueueGroup,
  selectAll,
  toggleAll,
  toggleOne,
} from './validation-state.ts';

const byNewest = (a: ValidationItem, b: ValidationItem) =>
  (b.createdAt ?? '').localeCompare(a.createdAt ?? '');

interface UserNames {
  nameOf: (sub: string | undefined) => string;
  options: { value: string; label: string }[];
}

/** Who may be assigned: the company's people when the user may list them, else at least the user. */
function useUserNames(): UserNames {
  const { me, company, access } = useSession();
  const { data } = useUserOptions(company._id, access);
  const users = usersOf(data);
  const names = new Map(users.map((u) => [u.userSub, u.name || u.email || u.userSub]));
  names.set(me.sub, `${me.name ?? me.email ?? 'Me'} (me)`);
  return {
    nameOf: (sub) => (sub ? (names.get(sub) ?? 'Someone else') : ''),
    options: [...names].map(([value, label]) => ({ value, label })),
  };
}

function Filters({
  filters,
  onChange,
  query,
  onQuery,
  users,
}: {
  filters: QueueFilters;
  onChange: (f: QueueFilters) => void;
  query: string;
  onQuery: (q: string) => void;
  users: UserNames;
}) {
  const suppliers = useSupplierOptions();
  const set = (change: Partial<QueueFilters>) => onChange({ ...filters, ...change });
  return (
    <Paper withBorder p="sm">
      <Group align="end" wrap="wrap">
        <TextInput
          label="Search invoices"
          placeholder="Invoice number, file name or tag"
          type="search"
          value={query}
          onChange={(e) => onQuery(e.currentTarget.value)}
        />
        <NativeSelect
          label="Supplier"
          value={filters.supplierId ?? ''}
          onChange={(e) => set({ supplierId: e.currentTarget.value })}
          data={[
            { value: '', label: 'All suppliers' },
            ...(suppliers.data?.data ?? []).map((s) => ({ value: s._id, label: s.name })),
          ]}
        />
        <NativeSelect
          label="Assigned to"
          value={filters.assignedUserId ?? ''}
          onChange={(e) => set({ assignedUserId: e.currentTarget.value })}
          data={[{ value: '', label: 'Anyone' }, ...users.options]}
        />
        <TextInput
          label="Tag"
          placeholder="Any tag"
          value={filters.tags ?? ''}
          onChange={(e) => set({ tags: e.currentTarget.value })}
        />
        <NativeSelect
          label="Hold"
          value={filters.hold ?? ''}
          onChange={(e) => set({ hold: e.currentTarget.value as QueueFilters['hold'] })}
          data={[
            { value: '', label: 'Held or not' },
            { value: 'true', label: 'On hold' },
            { value: 'false', label: 'Not on hold' },
          ]}
        />
      </Group>
    </Paper>
  );
}

function BulkBar({
  ids,
  users,
  onDone,
}: {
  ids: string[];
  users: UserNames;
  onDone: () => Promise<unknown>;
}) {
  const calls = useBulkCalls();
  const [busy, setBusy] = useState(false);
  const [tags, setTags] = useState('');
  const [assignee, setAssignee] = useState('');
  async function run(action: () => Promise<BulkAnswer>, done: string, problem: string) {
    setBusy(true);
    try {
      const answer = await action();
      showToast(bulkMessage(answer, done), (answer.failed?.length ?? 0) > 0 ? 'error' : 'success');
      await onDone();
    } catch (error) {
      showToast(problemOf(error, problem), 'error');
    } finally {
      setBusy(false);
    }
  }
  const n = ids.length;
  return (
    <Paper withBorder p="sm" bg="blue.0" aria-label="Selected invoices">
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {n} selected
        </Text>
        <Group gap="xs" wrap="wrap" align="end">
          <Button
            size="xs"
            variant="light"
            disabled={busy}
            onClick={() => run(() => calls.hold(ids, true), 'put on hold', INVOICE_MESSAGES.updateProblem)}
          >
            Hold
          </Button>
          <Button
            size="xs"
            variant="light"
            disabled={busy}
            onClick={() => run(() => calls.hold(ids, false), 'released', INVOICE_MESSAGES.updateProblem)}
          >
            Release
          </Button>
          <Button
            size="xs"
            variant="light"
            disabled={busy}
            onClick={() =>
              run(() => calls.revalidate(ids), 're-validated', INVOICE_MESSAGES.revalidateProblem)
            }
          >
            Re-validate
          </Button>
          <Button
            size="xs"
            variant="light"
            color="orange"
            disabled={busy}
            onClick={() => {
              if (
                window.confirm(`Accept ${n} ${n === 1 ? 'invoice' : 'invoices'} despite the failed checks?`)
              )
                void run(() => calls.force(ids), 'forced', INVOICE_MESSAGES.updateProblem);
            }}
          >
            Force
          </Button>
          <Button
            size="xs"
            variant="light"
            color="teal"
            disabled={busy}
            onClick={() => run(() => calls.complete(ids), 'completed', INVOICE_MESSAGES.updateProblem)}
          >
            Complete
          </Button>
          <TagField
            label="Tags"
            value={tags}
            onChange={setTags}
            disabled={busy}
            onTag={(added) => run(() => calls.tag(ids, added), 'tagged', INVOICE_MESSAGES.updateProblem)}
          />
          <Group gap={4} align="end">
            <NativeSelect
              size="xs"
              label="Assign to"
              value={assignee}
              onChange={(e) => setAssignee(e.currentTarget.value)}
              data={[{ value: '', label: 'Nobody' }, ...users.options]}
            />
            <Button
              size="xs"
              variant="light"
              disabled={busy}
              onClick={() =>
                run(() => calls.assign(ids, assignee || null), 'assigned', INVOICE_MESSAGES.assignProblem)
              }
            >
              Assign
            </Button>
          </Group>
          <Button
            size="xs"
            color="red"
            variant="light"
            disabled={busy}
            onClick={() => {
              if (window.confirm(`Delete ${n} ${n === 1 ? 'invoice' : 'invoices'}?`))
                void run(() => calls.remove(ids), 'deleted', INVOICE_MESSAGES.deleteProblem);
            }}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function QueueTable({
  items,
  selected,
  onSelect,
  users,
}: {
  items: ValidationItem[];
  selected: Set<string>;
  onSelect: (s: Set<string>) => void;
  users: UserNames;
}) {
  const all = allSelected(items, selected);
  const some = !all && items.some((i) => selected.has(i._id));
  return (
    <Paper withBorder style={{ overflowX: 'auto' }}>
      <Table aria-label="Invoices" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={36}>
              <Checkbox
                aria-label="Select all"
                checked={all}
                indeterminate={some}
                disabled={items.every((i) => i.completed)}
                onChange={() => onSelect(toggleAll(items, selected))}
              />
            </Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Invoice</Table.Th>
            <Table.Th>Site and meter</Table.Th>
            <Table.Th>Period</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th>File</Table.Th>
            <Table.Th>Tags</Table.Th>
            <Table.Th>Assigned to</Table.Th>
            <Table.Th>Added</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item._id}>
              <Table.Td>
                <Checkbox
                  aria-label={`Select ${item.displayName}`}
                  checked={selected.has(item._id)}
                  disabled={item.completed}
                  onChange={() => onSelect(toggleOne(selected, item._id))}
                />
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <ValidationStatusBadge status={item.status} />
                  {item.hold && (
                    <Badge color="orange" variant="outline" size="sm">
                      On hold
                    </Badge>
                  )}
                  {item.completed && (
                    <Badge color="teal" variant="outline" size="sm">
                      Completed
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td maw={420}>
                <Anchor component={Link} to={`/invoice-validation/${item._id}`} size="sm">
                  {item.invoiceNumber ? cutDisplayName(item.invoiceNumber) : 'No invoice number read'}
                </Anchor>
                {outcomeLine(item) && (
                  <Text size="xs" c="dimmed" lineClamp={2}>
                    {outcomeLine(item)}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{item.bill?.siteName ?? 'No site matched'}</Text>
                <Text size="xs" c="dimmed">
                  {[item.bill?.meterName, item.bill?.meterPointNumber].filter(Boolean).join(' · ')}
                </Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm">
                  {item.bill?.startDate && item.bill.endDate
                    ? `${formatDate(item.bill.startDate)} – ${formatDate(item.bill.endDate)}`
                    : ''}
                </Text>
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                <Text size="sm">
                  {item.bill?.grossTotal !== undefined ? money(item.bill.grossTotal) : ''}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{item.invoiceCapture?.fileName ?? ''}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4}>
                  {(item.tags ?? []).map((t) => (
                    <Badge key={t} size="xs" variant="light" color="gray">
                      {t}
                    </Badge>
                  ))}
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{users.nameOf(item.assignedUserId)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDate(item.createdAt)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function useSearchResults(query: string) {
  return useValidationSearch(query, SEARCH_MIN_CHARS);
}

/** /invoice-validation/{passed|failed|completed}: one queue, filtered, searched and paged, with bulk actions. */
export function ValidationQueuePage() {
  const location = useLocation();
  const last = location.pathname.split('/').filter(Boolean).at(-1);
  const group: QueueGroup = isQueueGroup(last) ? last : 'failed';
  return <Queue key={group} group={group} />;
}

function Queue({ group }: { group: QueueGroup }) {
  const users = useUserNames();
  const [filters, setFilters] = useState<QueueFilters>({});
  const [page, setPage] = useState(1);
  const [input, setInput] = useState('');
  const [query] = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  const [debouncedFilters] = useDebouncedValue(filters, SEARCH_DEBOUNCE_MS);
  const queue = useQueue(group, debouncedFilters, page);
  const search = useSearchResults(query);
  const searching = query.length >= SEARCH_MIN_CHARS;
  const answer = searching ? search : queue;
  const items = [...(answer.data?.data ?? [])].sort(byNewest);
  const [selected, setSelected] = useState<Set<string>>(new Set());

  // A refreshed list may have lost items (completed, deleted): the selection keeps only those still shown.
  const shown = answer.data?.data;
  useEffect(() => {
    if (shown) setSelected((s) => keepVisible(s, shown));
  }, [shown]);

  const total = answer.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / VALIDATION_PAGE_SIZE));
  return (
    <Stack>
      <ValidationNav tab={group} filters={debouncedFilters} />
      <Filters
        filters={filters}
        onChange={(f) => {
          setFilters(f);
          setPage(1);
        }}
        query={input}
        onQuery={setInput}
        users={users}
      />
      {selected.size > 0 && (
        <BulkBar
          ids={[...selected]}
          users={users}
          onDone={async () => {
            setSelected(new Set());
          }}
        />
      )}
      {answer.isLoading && <LoadingPanel />}
      {answer.error && <ErrorPanel error={answer.error} title={INVOICE_MESSAGES.getProblem} />}
      {answer.data && items.length === 0 && (
        <EmptyPanel>
          {searching ? 'No invoices match this search.' : `No invoices in ${QUEUE_LABELS[group]}.`}
        </EmptyPanel>
      )}
      {items.length > 0 && (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {searching ? `${total} found` : `${total} in ${QUEUE_LABELS[group]}`}
            </Text>
            {selected.size === 0 && !items.every((i) => i.completed) && (
              <Button size="compact-xs" variant="subtle" onClick={() => setSelected(selectAll(items))}>
                Select all not completed
              </Button>
            )}
          </Group>
          <QueueTable items={items} selected={selected} onSelect={setSelected} users={users} />
          {!searching && pages > 1 && (
            <Pagination value={page} onChange={setPage} total={pages} aria-label="Pages" />
          )}
        </>
      )}
    </Stack>
  );
}
