import { Button, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import useSWR from 'swr';
import { ASSET_STATUSES } from '../../../shared/schemas/asset-wizard.ts';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useApi } from '../../lib/app-context.tsx';
import { formatDate } from '../../lib/format.ts';
import { type AssetView, type ListPage, STATUS_LABELS, useRefresh } from './api.ts';
import { FormAlert, SiteStatusBadge, useFormFailure } from './ui.tsx';

interface Entry {
  _id: string;
  date: string;
  status?: string;
  comment?: string;
  title?: string;
  description?: string;
}

const today = () => new Date().toISOString().slice(0, 10);

const STATUS_OPTIONS = ASSET_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));

/** One status change; Edit opens its date, status and comment in place, and saving may move the site's status. */
function StatusRow({ path, entry, done }: { path: string; entry: Entry; done: () => Promise<unknown> }) {
  const api = useApi();
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState(entry.status ?? '');
  const [date, setDate] = useState(entry.date.slice(0, 10));
  const [comment, setComment] = useState(entry.comment ?? '');
  const form = useFormFailure('There was a problem updating the status.');
  async function save() {
    const body = { status, date, comment: comment.trim() };
    if (await form.run(() => api.patch(`${path}/${entry._id}`, body))) {
      setEditing(false);
      await done();
    }
  }
  async function remove() {
    if (await form.run(() => api.del(`${path}/${entry._id}`))) await done();
  }
  if (!editing)
    return (
      <Table.Tr>
        <Table.Td>{formatDate(entry.date)}</Table.Td>
        <Table.Td>
          <SiteStatusBadge status={String(entry.status)} />
        </Table.Td>
        <Table.Td>
          {entry.comment}
          {form.failure.message && (
            <Text size="xs" c="red" role="alert">
              {form.failure.message}
            </Text>
          )}
        </Table.Td>
        <Table.Td>
          <Group gap={4} wrap="nowrap">
            <Button size="compact-xs" variant="subtle" onClick={() => setEditing(true)}>
              Edit
            </Button>
            <Button size="compact-xs" variant="subtle" color="red" onClick={remove}>
              Delete
            </Button>
          </Group>
        </Table.Td>
      </Table.Tr>
    );
  return (
    <Table.Tr aria-label="Editing a status change">
      <Table.Td>
        <TextInput
          size="xs"
          type="date"
          aria-label="Date"
          value={date}
          error={form.fields.date}
          onChange={(e) => setDate(e.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td>
        <NativeSelect
          size="xs"
          aria-label="Status"
          value={status}
          error={form.fields.status}
          onChange={(e) => setStatus(e.currentTarget.value)}
          data={STATUS_OPTIONS}
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          size="xs"
          aria-label="Comment"
          value={comment}
          error={form.fields.comment ?? form.failure.message}
          onChange={(e) => setComment(e.currentTarget.value)}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" onClick={save} loading={form.busy}>
            Save
          </Button>
          <Button size="compact-xs" variant="subtle" onClick={() => setEditing(false)}>
            Cancel
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** The site's status history: the entry with the latest date is the site's status. */
export function StatusHistory({ asset }: { asset: AssetView }) {
  const api = useApi();
  const refresh = useRefresh();
  const path = `/assets/${asset._id}/status-history`;
  const { data, error, isLoading } = useSWR<ListPage<Entry>>(path);
  const [status, setStatus] = useState<string>(asset.status);
  const [date, setDate] = useState(today());
  const [comment, setComment] = useState('');
  const form = useFormFailure();
  const done = () => refresh(path, `/assets/${asset._id}`, '/assets');
  const rows = [...(data?.data ?? [])].sort(
    (a, b) => b.date.localeCompare(a.date) || b._id.localeCompare(a._id),
  );

  async function add(event: FormEvent) {
    event.preventDefault();
    if (await form.run(() => api.post(path, { status, date, ...(comment.trim() ? { comment } : {}) }))) {
      setComment('');
      await done();
    }
  }
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>Status history</Title>
        <FormAlert failure={form.failure} />
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        <Table aria-label="Status history">
          <Table.Tbody>
            {rows.map((e) => (
              <StatusRow key={e._id} path={path} entry={e} done={done} />
            ))}
          </Table.Tbody>
        </Table>
        <Group component="form" onSubmit={add} align="end" wrap="wrap">
          <NativeSelect
            label="Status"
            value={status}
            error={form.fields.status}
            onChange={(e) => setStatus(e.currentTarget.value)}
            data={STATUS_OPTIONS}
          />
          <TextInput
            label="From"
            type="date"
            value={date}
            error={form.fields.date}
            onChange={(e) => setDate(e.currentTarget.value)}
          />
          <TextInput
            label="Comment"
            value={comment}
            error={form.fields.comment}
            onChange={(e) => setComment(e.currentTarget.value)}
          />
          <Button type="submit" variant="light" loading={form.busy}>
            Add status
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function TimelineRow({
  path,
  entry,
  reload,
}: {
  path: string;
  entry: Entry;
  reload: () => Promise<unknown>;
}) {
  const api = useApi();
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(entry.title ?? '');
  const form = useFormFailure();
  async function save() {
    if (await form.run(() => api.patch(`${path}/${entry._id}`, { title }))) {
      setEditing(false);
      await reload();
    }
  }
  return (
    <Table.Tr>
      <Table.Td>{formatDate(entry.date)}</Table.Td>
      <Table.Td>
        {editing ? (
          <TextInput
            size="xs"
            aria-label="Title"
            value={title}
            error={form.fields.title}
            onChange={(e) => setTitle(e.currentTarget.value)}
          />
        ) : (
          <Stack gap={0}>
            <Text size="sm">{entry.title}</Text>
            {entry.description && (
              <Text size="xs" c="dimmed">
                {entry.description}
              </Text>
            )}
          </Stack>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="subtle" onClick={() => (editing ? save() : setEditing(true))}>
            {editing ? 'Save' : 'Edit'}
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            onClick={async () => (await form.run(() => api.del(`${path}/${entry._id}`))) && reload()}
          >
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** The site's timeline: events by date, newest first. */
export function Timeline({ asset }: { asset: AssetView }) {
  const api = useApi();
  const path = `/assets/${asset._id}/timeline-events`;
  const { data, error, isLoading, mutate } = useSWR<ListPage<Entry>>(path);
  const [title, setTitle] = useState('');
  const [date, setDate] = useState(today());
  const [description, setDescription] = useState('');
  const form = useFormFailure();

  async function add(event: FormEvent) {
    event.preventDefault();
    const body = { title, date, ...(description.trim() ? { description } : {}) };
    if (await form.run(() => api.post(path, body))) {
      setTitle('');
      setDescription('');
      await mutate();
    }
  }

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>Timeline</Title>
        <FormAlert failure={form.failure} />
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        <Table aria-label="Timeline">
          <Table.Tbody>
            {(data?.data ?? []).map((e) => (
              <TimelineRow key={e._id} path={path} entry={e} reload={() => mutate()} />
            ))}
          </Table.Tbody>
        </Table>
        <Group component="form" onSubmit={add} align="end" wrap="wrap">
          <TextInput
            label="Event"
            value={title}
            error={form.fields.title}
            onChange={(e) => setTitle(e.currentTarget.value)}
          />
          <TextInput
            label="Date"
            type="date"
            value={date}
            error={form.fields.date}
            onChange={(e) => setDate(e.currentTarget.value)}
          />
          <TextInput
            label="Details"
            value={description}
            error={form.fields.description}
            onChange={(e) => setDescription(e.currentTarget.value)}
          />
          <Button type="submit" variant="light" loading={form.busy}>
            Add event
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
