import { Anchor, Button, Group, Paper, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useMayChange } from '../../lib/may-change.ts';
import { type GrantSet, useGrantables, useGrantSet, useGrantSetCalls, useGrantSets } from './api.ts';
import { CompanyLayout } from './company-layout.tsx';
import { GrantEditor } from './grant-editor.tsx';
import { grantSummary, normaliseGrants } from './grants.ts';
import { NamedRecordForm } from './named-record-form.tsx';

function GrantSetForm({ set }: { set?: GrantSet }) {
  const grantables = useGrantables();
  const calls = useGrantSetCalls();
  const [grants, setGrants] = useState(() => normaliseGrants(set?.grants));
  // Grant errors name one list entry (grants.assets.read.0): they show above the form.
  return (
    <NamedRecordForm
      record={set}
      noun="permission set"
      calls={calls}
      listRoute="/company/permissions"
      extra={{ grants }}
      extraFields={[]}
      maw={900}
    >
      {() => (
        <GrantEditor
          grants={grants}
          items={grantables.items}
          isLoading={grantables.isLoading}
          error={grantables.error}
          onChange={setGrants}
        />
      )}
    </NamedRecordForm>
  );
}

/** /company/permissions: named sets of grants that can be given to users in one go. */
export function GrantSetListPage() {
  const mayChange = useMayChange();
  const { data, error, isLoading } = useGrantSets();
  const sets = [...(data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
  return (
    <CompanyLayout tab="permissions">
      <Group justify="space-between">
        <Title order={3}>Permission sets</Title>
        {mayChange && (
          <Button component={Link} to="/company/permissions/create">
            New permission set
          </Button>
        )}
      </Group>
      <Paper withBorder p="md">
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && sets.length === 0 && <EmptyPanel>There are no permission sets yet.</EmptyPanel>}
        {sets.length > 0 && (
          <Table striped aria-label="Permission sets">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Grants</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {sets.map((s) => (
                <Table.Tr key={s._id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/company/permissions/${s._id}/edit`}>
                      {s.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{grantSummary(normaliseGrants(s.grants)) || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </CompanyLayout>
  );
}

/** /company/permissions/create. */
export function GrantSetCreatePage() {
  return (
    <CompanyLayout tab="permissions">
      <Title order={3}>New permission set</Title>
      <ChangesOnly>
        <GrantSetForm />
      </ChangesOnly>
    </CompanyLayout>
  );
}

/** /company/permissions/{permissionId}/edit. */
export function GrantSetEditPage() {
  const { permissionId } = useParams();
  const { data, error, isLoading } = useGrantSet(permissionId);
  return (
    <CompanyLayout tab="permissions">
      <Title order={3}>{data ? `Edit ${data.name}` : 'Edit permission set'}</Title>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && (
        <ChangesOnly>
          <GrantSetForm key={data._id} set={data} />
        </ChangesOnly>
      )}
    </CompanyLayout>
  );
}
