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
import { type FormEvent, type ReactNode, useState } from 'react';
import { formatDate } from '../lib/format.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from './page-state.tsx';

/** One status change of a record: the status it takes from `date`, why, and who recorded it. */
export interface StatusEntry {
  _id: string;
  status?: string;
  date: string;
  comment?: string;
  createdAt?: string;
  /** Who recorded the change, when the API says. */
  who?: string;
}

/** A status change as the forms send it; an empty comment is left out when adding. */
export interface StatusChange {
  status: string;
  date: string;
  comment?: string;
}

/** What a failed save shows: messages beside the fields, or one for the whole form. */
export interface StatusFailure {
  fields: Record<string, string>;
  message?: string;
}

/** Resolves with the failure to show, or null once saved. */
type Save = Promise<StatusFailure | null>;

export interface StatusHistoryLabels {
  /** The add form's status field. */
  newStatus: string;
  /** The add form's button. */
  add: string;
  /** Each row's remove button. */
  remove: string;
  /** Shown when there are no changes; nothing when absent. */
  empty?: ReactNode;
  /** A line under the add form saying how the status follows from the changes. */
  hint?: ReactNode;
}

const NO_FAILURE: StatusFailure = { fields: {} };

/** Today as YYYY-MM-DD in the browser's time zone, the day a user means by "from today". */
function localToday(): string {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Newest first: by date, then by when the change was recorded, then by id so the order is stable. */
export function newestFirst<E extends StatusEntry>(entries: readonly E[]): E[] {
  return [...entries].sort(
    (a, b) =>
      b.date.localeCompare(a.date) ||
      (b.createdAt ?? '').localeCompare(a.createdAt ?? '') ||
      b._id.localeCompare(a._id),
  );
}

/** The change a form sends: the comment trimmed, and left out when adding with none. */
export function statusChangeOf(
  form: { status: string; date: string; comment: string },
  keepEmptyComment: boolean,
): StatusChange {
  const comment = form.comment.trim();
  return { status: form.status, date: form.date, ...(comment || keepEmptyComment ? { comment } : {}) };
}

function EditRow({
  entry,
  options,
  onSave,
  onCancel,
}: {
  entry: StatusEntry;
  options: readonly { value: string; label: string }[];
  onSave: (change: StatusChange) => Save;
  onCancel: () => void;
}) {
  const [status, setStatus] = useState(entry.status ?? '');
  const [date, setDate] = useState(entry.date.slice(0, 10));
  const [comment, setComment] = useState(entry.comment ?? '');
  const [failure, setFailure] = useState(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  async function save() {
    setBusy(true);
    const failed = await onSave(statusChangeOf({ status, date, comment }, true));
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
          data={[...options]}
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

function EntryRow({
  entry,
  badge,
  removeLabel,
  readOnly,
  onEdit,
  onRemove,
}: {
  entry: StatusEntry;
  badge: (status: string) => ReactNode;
  removeLabel: string;
  readOnly: boolean;
  onEdit: () => void;
  onRemove: () => Save;
}) {
  const [failure, setFailure] = useState(NO_FAILURE);
  async function remove() {
    setFailure(NO_FAILURE);
    setFailure((await onRemove()) ?? NO_FAILURE);
  }
  return (
    <Table.Tr>
      <Table.Td>{formatDate(entry.date)}</Table.Td>
      <Table.Td>{badge(entry.status ?? '')}</Table.Td>
      <Table.Td>
        {entry.comment ?? ''}
        {entry.who && (
          <Text size="xs" c="dimmed">
            by {entry.who}
          </Text>
        )}
        {failure.message && (
          <Text size="xs" c="red" role="alert">
            {failure.message}
          </Text>
        )}
      </Table.Td>
      <Table.Td ta="right">
        {!readOnly && (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            <Button size="compact-xs" variant="subtle" onClick={onEdit}>
              Edit
            </Button>
            <Button size="compact-xs" variant="subtle" color="red" onClick={remove}>
              {removeLabel}
            </Button>
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * A record's status changes, newest first, each editable in place and removable, with a form to add one.
 * The record's own status follows from these changes, so the callbacks decide what else to refresh.
 */
export function StatusHistory({
  entries,
  loading,
  error,
  options,
  badge,
  initialStatus,
  labels,
  columnHeadings = true,
  readOnly = false,
  onAdd,
  onUpdate,
  onRemove,
}: {
  entries: readonly StatusEntry[] | undefined;
  loading: boolean;
  error: unknown;
  options: readonly { value: string; label: string }[];
  /** A status as the record's pages show it. */
  badge: (status: string) => ReactNode;
  /** The status the add form starts on. */
  initialStatus: string;
  labels: StatusHistoryLabels;
  columnHeadings?: boolean;
  /** Shown without the add form and the row actions, to those who may not change the record. */
  readOnly?: boolean;
  onAdd: (change: StatusChange) => Save;
  onUpdate: (entryId: string, change: StatusChange) => Save;
  onRemove: (entryId: string) => Save;
}) {
  const [status, setStatus] = useState(initialStatus);
  const [date, setDate] = useState(localToday);
  const [comment, setComment] = useState('');
  const [failure, setFailure] = useState(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const rows = newestFirst(entries ?? []);

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure(NO_FAILURE);
    const failed = await onAdd(statusChangeOf({ status, date, comment }, false));
    setBusy(false);
    if (failed) setFailure(failed);
    else setComment('');
  }

  async function update(entryId: string, change: StatusChange): Save {
    const failed = await onUpdate(entryId, change);
    if (!failed) setEditing(null);
    return failed;
  }

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>Status history</Title>
        {loading && <LoadingPanel />}
        {error ? <ErrorPanel error={error} /> : null}
        {entries && rows.length === 0 && labels.empty && <EmptyPanel>{labels.empty}</EmptyPanel>}
        {rows.length > 0 && (
          <Table aria-label="Status history">
            {columnHeadings && (
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Comment</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
            )}
            <Table.Tbody>
              {rows.map((e) =>
                editing === e._id ? (
                  <EditRow
                    key={e._id}
                    entry={e}
                    options={options}
                    onSave={(change) => update(e._id, change)}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  <EntryRow
                    key={e._id}
                    entry={e}
                    badge={badge}
                    removeLabel={labels.remove}
                    readOnly={readOnly}
                    onEdit={() => setEditing(e._id)}
                    onRemove={() => onRemove(e._id)}
                  />
                ),
              )}
            </Table.Tbody>
          </Table>
        )}
        {!readOnly && (
          <form onSubmit={add} noValidate aria-label="Add a status change">
            <Stack gap="xs">
              {failure.message && <Alert color="red">{failure.message}</Alert>}
              <Group align="flex-start" grow>
                <NativeSelect
                  label={labels.newStatus}
                  value={status}
                  error={failure.fields.status}
                  onChange={(e) => setStatus(e.currentTarget.value)}
                  data={[...options]}
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
              <Group justify={labels.hint ? 'space-between' : 'flex-end'}>
                {labels.hint && (
                  <Text size="xs" c="dimmed">
                    {labels.hint}
                  </Text>
                )}
                <Button type="submit" size="xs" loading={busy}>
                  {labels.add}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
