import { Button, Group, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import type { ReadingView } from '../../../shared/schemas/account-readings.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { AccountLayout, useMayChangeAccount } from '../../components/account-frame.tsx';
import { DataTable, type DataTableColumn, type TableSort } from '../../components/data-table.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { rowActionsColumn } from '../../components/row-actions.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { useDeleteReading, useReadingPhoto, useReadings } from './api.ts';
import { ReadingForm } from './reading-form.tsx';

type Editing = { mode: 'add' } | { mode: 'edit'; reading: ReadingView };

interface ReadingActions {
  mayChange: boolean;
  onPhoto: (reading: ReadingView) => void;
  onEdit: (reading: ReadingView) => void;
  onDelete: (reading: ReadingView) => void;
}

/** The readings table's columns: the date sorts by the day itself, the reading by its number. */
export function readingColumns(actions: ReadingActions): DataTableColumn<ReadingView>[] {
  return [
    { key: 'date', label: 'Date', value: (r) => formatDate(r.date), sortValue: (r) => r.date },
    {
      key: 'value',
      label: 'Reading',
      numeric: true,
      value: (r) => r.value,
      render: (r) => `${formatNumber(r.value, { maximumFractionDigits: 3 })} ${r.unit ?? ''}`,
    },
    { key: 'estimate', label: 'Estimate', value: (r) => (r.isEstimate ? 'Yes' : 'No') },
    { key: 'comment', label: 'Comment', value: (r) => r.comment ?? '' },
    {
      key: 'photo',
      label: 'Photo',
      value: (r) => (r.hasPhoto ? 'Yes' : 'No'),
      render: (r) =>
        r.hasPhoto ? (
          <Button size="compact-xs" variant="light" onClick={() => actions.onPhoto(r)}>
            View photo
          </Button>
        ) : (
          '—'
        ),
    },
    rowActionsColumn<ReadingView>(actions),
  ];
}

/** The latest reading first until the user sorts otherwise. */
export const READINGS_SORT: TableSort = { key: 'date', direction: 'desc' };

/** An account's meter readings, sortable and downloadable as CSV. */
export function ReadingsTable({ readings, ...actions }: ReadingActions & { readings: ReadingView[] }) {
  return (
    <DataTable
      label="Readings"
      columns={readingColumns(actions)}
      rows={readings}
      rowKey={(r) => r._id}
      empty="No readings submitted yet."
      csvFilename="readings.csv"
      initialSort={READINGS_SORT}
    />
  );
}

function Readings({ account }: { account: AccountView }) {
  const { data, error, isLoading } = useReadings(account._id);
  const photoUrl = useReadingPhoto();
  const deleteReading = useDeleteReading(account._id);
  const [editing, setEditing] = useState<Editing | null>(null);
  const done = () => setEditing(null);
  const mayChange = useMayChangeAccount(account);

  async function openPhoto(r: ReadingView) {
    // The tab opens now, while the click still counts as the user's, and gets its address when it arrives.
    const tab = window.open('', '_blank');
    try {
      const { url } = await photoUrl(r._id);
      if (tab) tab.location.href = url;
    } catch {
      tab?.close();
      showToast('There was a problem getting the photo.', 'error');
    }
  }

  async function remove(r: ReadingView) {
    if (!window.confirm(`Delete the reading of ${formatDate(r.date)}?`)) return;
    try {
      await deleteReading(r._id);
    } catch {
      showToast('There was a problem deleting the reading.', 'error');
    }
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={4}>Readings</Title>
        {mayChange && !editing && (
          <Button onClick={() => setEditing({ mode: 'add' })}>Submit a reading</Button>
        )}
      </Group>
      {editing?.mode === 'add' && (
        <ReadingForm account={account} onDone={done} onCancel={() => setEditing(null)} />
      )}
      {editing?.mode === 'edit' && (
        <ReadingForm
          account={account}
          reading={editing.reading}
          onDone={done}
          onCancel={() => setEditing(null)}
        />
      )}
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && (
        <ReadingsTable
          readings={data.data}
          mayChange={mayChange}
          onPhoto={openPhoto}
          onEdit={(reading) => setEditing({ mode: 'edit', reading })}
          onDelete={remove}
        />
      )}
    </Stack>
  );
}

/** /assets/{id}/accounts/{accountId}/readings */
export function AccountReadingsPage() {
  return <AccountLayout tab="readings">{(account) => <Readings account={account} />}</AccountLayout>;
}
