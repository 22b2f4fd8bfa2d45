import { Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { ASSET_STATUSES } from '../../../shared/schemas/asset-wizard.ts';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { StatusHistory as SharedStatusHistory } from '../../components/status-history.tsx';
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
import { FormAlert, failureOf, SiteStatusBadge, useFormFailure } from './ui.tsx';

type Entry = HistoryEntry;

const today = () => new Date().toISOString().slice(0, 10);

const STATUS_OPTIONS = ASSET_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }));

const UPDATE_PROBLEM = 'There was a problem updating the status.';

/** Resolves with what the form shows when the call fails, or null once done. */
async function attempt(action: () => Promise<unknown>, message?: string) {
  try {
    await action();
    return null;
  } catch (error) {
    return failureOf(error, message);
  }
}

/** The site's status history: the entry with the latest date is the site's status. */
export function StatusHistory({ asset }: { asset: AssetView }) {
  const addStatus = useAddAssetStatus(asset._id);
  const updateStatus = useUpdateAssetStatus(asset._id);
  const deleteStatus = useDeleteAssetStatus(asset._id);
  const { data, error, isLoading } = useAssetStatusHistory(asset._id);
  return (
    <SharedStatusHistory
      entries={data?.data}
      loading={isLoading}
      error={error}
      options={STATUS_OPTIONS}
      badge={(status) => <SiteStatusBadge status={status} />}
      initialStatus={asset.status}
      labels={{ newStatus: 'Status', add: 'Add status', remove: 'Delete' }}
      columnHeadings={false}
      onAdd={(change) => attempt(() => addStatus({ ...change }))}
      onUpdate={(entryId, change) => attempt(() => updateStatus(entryId, { ...change }), UPDATE_PROBLEM)}
      onRemove={(entryId) => attempt(() => deleteStatus(entryId), UPDATE_PROBLEM)}
    />
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
