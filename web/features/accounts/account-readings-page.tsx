import { Button, Group, Paper, Stack, Table, Title } from '@mantine/core';
import { useState } from 'react';
import type { ReadingView } from '../../../shared/schemas/account-readings.ts';
import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { AccountLayout, useMayChangeAccount } from '../../components/account-frame.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { RowActions } from '../../components/row-actions.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { useDeleteReading, useReadingPhoto, useReadings } from './api.ts';
import { ReadingForm } from './reading-form.tsx';

type Editing = { mode: 'add' } | { mode: 'edit'; reading: ReadingView };

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

  const readings = [...(data?.data ?? [])].sort((a, b) => b.date.localeCompare(a.date));
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
      {data && readings.length === 0 && <EmptyPanel>No readings submitted yet.</EmptyPanel>}
      {readings.length > 0 && (
        <Paper withBorder>
          <Table aria-label="Readings">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Date</Table.Th>
                <Table.Th ta="right">Reading</Table.Th>
                <Table.Th>Estimate</Table.Th>
                <Table.Th>Comment</Table.Th>
                <Table.Th>Photo</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {readings.map((r) => (
                <Table.Tr key={r._id}>
                  <Table.Td>{formatDate(r.date)}</Table.Td>
                  <Table.Td ta="right">
                    {formatNumber(r.value, { maximumFractionDigits: 3 })} {r.unit ?? ''}
                  </Table.Td>
                  <Table.Td>{r.isEstimate ? 'Yes' : 'No'}</Table.Td>
                  <Table.Td>{r.comment ?? ''}</Table.Td>
                  <Table.Td>
                    {r.hasPhoto ? (
                      <Button size="compact-xs" variant="light" onClick={() => openPhoto(r)}>
                        View photo
                      </Button>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <RowActions
                      mayChange={mayChange}
                      justify="flex-end"
                      onEdit={() => setEditing({ mode: 'edit', reading: r })}
                      onDelete={() => remove(r)}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </Stack>
  );
}

/** /assets/{id}/accounts/{accountId}/readings */
export function AccountReadingsPage() {
  return <AccountLayout tab="readings">{(account) => <Readings account={account} />}</AccountLayout>;
}
