import { Button, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ASSET_STATUSES } from '../../../shared/schemas/asset-wizard.ts';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDate } from '../../lib/format.ts';
import {
  type AssetView,
  type HistoryEntry,
  STATUS_LABELS,
  useAddAssetStatus,
  useAddTimelineEvent,
  useAssetStatusHistory,
  useDeleteAssetStatus,
  useDeleteTimelineEvent,
  useTimeline,
  useUpdateAssetStatus,
  useUpdateTimelineEvent,
} from './api.ts';
import { FormAlert, SiteStatusBadge, useFormFailure } from './ui.tsx';

type Entry = HistoryEntry;

const today = () => new Date().toISOString().slice(0, 10);

const STATUS_OPTIONS = ASSET_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));

/** One status change; Edit opens its date, status and comment in place, and saving may move the site's status. */
function StatusRow({ assetId, entry }: { assetId: string; entry: Entry }) {
  const updateStatus = useUpdateAssetStatus(assetId);
  const deleteStatus = useDeleteAssetStatus(assetId);
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState(entry.status ?? '');
  const [date, setDate] = useState(entry.date.slice(0, 10));
  const [comment, setComment] = useState(entry.comment ?? '');
  const form = useFormFailure('There was a problem updating the status.');
  async function save() {
    const body = { status, date, comment: comment.trim() };
    if (await form.run(() => updateStatus(entry._id, body))) setEditing(false);
  }
  async function remove() {
    await form.run(() => deleteStatus(entry._id));
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
  const addStatus = useAddAssetStatus(asset._id);
  const { data, error, isLoading } = useAssetStatusHistory(asset._id);
  const [status, setStatus] = useState<string>(asset.status);
  const [date, setDate] = useState(today());
  const [comment, setComment] = useState('');
  const form = useFormFailure();
  const rows = [...(data?.data ?? [])].sort(
    (a, b) => b.date.localeCompare(a.date) || b._id.localeCompare(a._id),
  );

  async function add(event: FormEvent) {
    event.preventDefault();
    if (await form.run(() => addStatus({ status, date, ...(comment.trim() ? { comment } : {}) }))) {
      setComment('');
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
              <StatusRow key={e._id} assetId={asset._id} entry={e} />
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

function TimelineRow({ assetId, entry }: { assetId: string; entry: Entry }) {
  const updateEvent = useUpdateTimelineEvent(assetId);
  const deleteEvent = useDeleteTimelineEvent(assetId);
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(entry.title ?? '');
  const form = useFormFailure();
  async function save() {
    if (await form.run(() => updateEvent(entry._id, { title }))) setEditing(false);
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
            onClick={() => form.run(() => deleteEvent(entry._id))}
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
  const addEvent = useAddTimelineEvent(asset._id);
  const { data, error, isLoading } = useTimeline(asset._id);
  const [title, setTitle] = useState('');
  const [date, setDate] = useState(today());
  const [description, setDescription] = useState('');
  const form = useFormFailure();

  async function add(event: FormEvent) {
    event.preventDefault();
    const body = { title, date, ...(description.trim() ? { description } : {}) };
    if (await form.run(() => addEvent(body))) {
      setTitle('');
      setDescription('');
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
              <TimelineRow key={e._id} assetId={asset._id} entry={e} />
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
