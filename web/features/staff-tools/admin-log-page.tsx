import { Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useActivity, useCompanyChoices } from './api.ts';
import { StaffTable } from './staff-table.tsx';

interface Filters {
  companyId: string;
  type: string;
  model: string;
  from: string;
  to: string;
}

const EMPTY: Filters = { companyId: '', type: '', model: '', from: '', to: '' };

const queryOf = (f: Filters) =>
  new URLSearchParams(Object.entries(f).filter(([, v]) => v.trim() !== '') as [string, string][]).toString();

/** /admin/log: the activity log of every company, newest first, with filters. */
export function AdminLogPage() {
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const companies = useCompanyChoices();
  const { data, error, isLoading } = useActivity(queryOf(applied));
  const set = (key: keyof Filters) => (value: string | null) =>
    setDraft((d) => ({ ...d, [key]: value ?? '' }));
  return (
    <Stack>
      <Title order={2}>Activity log</Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(draft);
        }}
      >
        <Group align="flex-end">
          <Select
            label="Company"
            placeholder="Every company"
            clearable
            searchable
            data={(companies.data?.data ?? []).map((c) => ({ value: c._id, label: c.name }))}
            value={draft.companyId || null}
            onChange={set('companyId')}
          />
          <TextInput
            label="Action"
            placeholder="create"
            value={draft.type}
            onChange={(e) => set('type')(e.currentTarget.value)}
          />
          <TextInput
            label="Record type"
            placeholder="assets"
            value={draft.model}
            onChange={(e) => set('model')(e.currentTarget.value)}
          />
          <TextInput
            label="From"
            type="date"
            value={draft.from}
            onChange={(e) => set('from')(e.currentTarget.value)}
          />
          <TextInput
            label="To"
            type="date"
            value={draft.to}
            onChange={(e) => set('to')(e.currentTarget.value)}
          />
          <Button type="submit">Apply filters</Button>
        </Group>
      </form>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title="There was a problem getting the log." />}
      {data && data.data.length === 0 && (
        <EmptyPanel>Nothing was logged that matches these filters.</EmptyPanel>
      )}
      {data && data.data.length > 0 && (
        <StaffTable
          label="Activity"
          scroll
          head={
            <>
              <Table.Th>When</Table.Th>
              <Table.Th>Company</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Record</Table.Th>
            </>
          }
        >
          {data.data.map((row) => (
            <Table.Tr key={`${row.companyId}${row._id}`}>
              <Table.Td>{formatDateTime(row.createdAt)}</Table.Td>
              <Table.Td>{row.companyName}</Table.Td>
              <Table.Td>{row.userName ?? row.userSub ?? ''}</Table.Td>
              <Table.Td>{row.type}</Table.Td>
              <Table.Td>
                <Text size="sm">
                  {row.model}
                  {row.modelId ? ` ${row.modelId}` : ''}
                  {row.message ? `: ${row.message}` : ''}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </StaffTable>
      )}
    </Stack>
  );
}
