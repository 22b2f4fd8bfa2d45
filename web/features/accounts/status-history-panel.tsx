import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import type { AccountView, StatusHistoryEntry } from '../../../shared/schemas/account-views.ts';
import { StatusBadge } from '../../components/account-frame.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatDate } from '../../lib/format.ts';
import {
  type FormFailure,
  formFailureOf,
  todayIso,
  useAddStatus,
  useDeleteStatus,
  useStatusHistory,
  useUpdateStatus,
} from './api.ts';

const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

/** One status change opened for editing in its row; saving may move the account's status too. */
function EditRow({
  entry,
  onSave,
  onCancel,
}: {
  entry: StatusHistoryEntry;
  onSave: (changes: { status: string; date: string; comment: string }) => Promise<FormFailure | null>;
  onCancel: () => void;
}) {
  const [status, setStatus] = useState(entry.status);
  const [date, setDate] = useState(entry.date.slice(0, 10));
  const [comment, setComment] = useState(entry.comment ?? '');
  const [failure, setFailure] = useState<FormFailure>({ fields: {} });
  const [busy, setBusy] = useState(false);
  async function save() {
    setBusy(true);
    const failed = await onSave({ status, date, comment: comment.trim() });
    setBusy(false);
    if (failed) setFailure(failed);
  }
  return (
    <Table.Tr aria-label="Editing a status change">
      <Table.Td>
        <TextInput
          aria-label="Date"
          type="date"
          size="xs"
          value={date}
          error={failure.fields.date}
          onChange={(e) => setDate(e.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td>
        <NativeSelect
          aria-label="Status"
          size="xs"
          value={status}
          error={failure.fields.status}
          onChange={(e) => setStatus(e.currentTarget.value)}
          data={STATUS_OPTIONS}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          aria-label="Comment"
          size="xs"
          value={comment}
          error={failure.fields.comment ?? failure.message}
          onChange={(e) => setComment(e.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td ta="right">
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <Button size="compact-xs" onClick={save} loading={busy}>
            Save
          </Button>
          <Button size="compact-xs" variant="subtle" onClick={onCancel}>
            Cancel
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** An account's status changes, newest first; adding, editing or removing one moves the account's status. */
export function StatusHistoryPanel({ account }: { account: AccountView }) {
  const addStatus = useAddStatus(account._id);
  const updateStatus = useUpdateStatus(account._id);
  const deleteStatus = useDeleteStatus(account._id);
  const history = useStatusHistory(account._id);
  const [status, setStatus] = useState(account.status === 'active' ? 'inactive' : 'active');
  const [date, setDate] = useState(todayIso());
  const [comment, setComment] = useState('');
  const [failure, setFailure] = useState<FormFailure>({ fields: {} });
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await addStatus({
        status,
        date,
        ...(comment.trim() ? { comment: comment.trim() } : {}),
      });
      setComment('');
      setFailure({ fields: {} });
    } catch (error) {
      setFailure(formFailureOf(error));
    } finally {
      setBusy(false);
    }
  }

  async function update(
    entryId: string,
    changes: { status: string; date: string; comment: string },
  ): Promise<FormFailure | null> {
    try {
      await updateStatus(entryId, changes);
      setEditing(null);
      return null;
    } catch (error) {
      return formFailureOf(error, 'There was a problem updating the status.');
    }
  }

  async function remove(entryId: string) {
    try {
      await deleteStatus(entryId);
    } catch {
      showToast('There was a problem updating the status.', 'error');
    }
  }

  const entries = [...(history.data?.data ?? [])].sort((a, b) =>
    `${b.date}${b.createdAt}`.localeCompare(`${a.date}${a.createdAt}`),
  );
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Status history</Title>
        {history.isLoading && <LoadingPanel />}
        {history.error && <ErrorPanel error={history.error} />}
        {history.data && entries.length === 0 && <EmptyPanel>No status changes yet.</EmptyPanel>}
        {entries.length > 0 && (
          <Table aria-label="Status history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Comment</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((e) =>
                editing === e._id ? (
                  <EditRow
                    key={e._id}
                    entry={e}
                    onSave={(changes) => update(e._id, changes)}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  <Table.Tr key={e._id}>
                    <Table.Td>{formatDate(e.date)}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={e.status} />
                    </Table.Td>
                    <Table.Td>{e.comment ?? ''}</Table.Td>
                    <Table.Td ta="right">
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button size="compact-xs" variant="subtle" onClick={() => setEditing(e._id)}>
                          Edit
                        </Button>
                        <Button size="compact-xs" variant="subtle" color="red" onClick={() => remove(e._id)}>
                          Remove
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ),
              )}
            </Table.Tbody>
          </Table>
        )}
        <form onSubmit={add} noValidate aria-label="Add a status change">
          <Stack gap="xs">
            {failure.message && <Alert color="red">{failure.message}</Alert>}
            <Group align="flex-start" grow>
              <NativeSelect
                label="New status"
                value={status}
                error={failure.fields.status}
                onChange={(e) => setStatus(e.currentTarget.value)}
                data={STATUS_OPTIONS}
              />
              <TextInput
                label="From"
                type="date"
                value={date}
                error={failure.fields.date}
                onChange={(e) => setDate(e.currentTarget.value)}
              />
              <TextInput
                label="Comment"
                value={comment}
                error={failure.fields.comment}
                onChange={(e) => setComment(e.currentTarget.value)}
              />
            </Group>
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                The account takes the status of its latest change up to today.
              </Text>
              <Button type="submit" size="xs" loading={busy}>
                Add status change
              </Button>
            </Group>
          </Stack>
        </form>
      </Stack>
    </Paper>
  );
}
