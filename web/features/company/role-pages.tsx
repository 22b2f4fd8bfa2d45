import { Anchor, Button, Group, Paper, Table, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { PermissionName } from '../../../shared/access/permission-names.ts';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useMayChange } from '../../lib/may-change.ts';
import { type Role, useRole, useRoleCalls, useRoles } from './api.ts';
import { CompanyLayout } from './company-layout.tsx';
import { NamedRecordForm } from './named-record-form.tsx';
import { PermissionCheckboxes } from './permission-checkboxes.tsx';

/** Roles are listed by two calls (the generic list and GET /companies/roles): both change together. */

function RoleForm({ role }: { role?: Role }) {
  const calls = useRoleCalls();
  const [permissions, setPermissions] = useState<PermissionName[]>(role?.permissions ?? []);
  return (
    <NamedRecordForm
      record={role}
      noun="role"
      calls={calls}
      listRoute="/company/roles"
      extra={{ permissions }}
      extraFields={['permissions']}
      maw={720}
    >
      {(failure) => (
        <PermissionCheckboxes
          label="Permissions"
          value={permissions}
          error={failure.fields.permissions}
          onChange={setPermissions}
        />
      )}
    </NamedRecordForm>
  );
}

/** /company/roles: the company's roles and the permission strings each gives. */
export function RoleListPage() {
  const mayChange = useMayChange();
  const { data, error, isLoading } = useRoles();
  const roles = [...(data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
  return (
    <CompanyLayout tab="roles">
      <Group justify="space-between">
        <Title order={3}>Roles</Title>
        {mayChange && (
          <Button component={Link} to="/company/roles/create">
            New role
          </Button>
        )}
      </Group>
      <Paper withBorder p="md">
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && roles.length === 0 && <EmptyPanel>There are no roles yet.</EmptyPanel>}
        {roles.length > 0 && (
          <Table striped aria-label="Roles">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Permissions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {roles.map((r) => (
                <Table.Tr key={r._id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/company/roles/${r._id}/edit`}>
                      {r.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{r.permissions.join(', ') || '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </CompanyLayout>
  );
}

/** /company/roles/create. */
export function RoleCreatePage() {
  return (
    <CompanyLayout tab="roles">
      <Title order={3}>New role</Title>
      <ChangesOnly>
        <RoleForm />
      </ChangesOnly>
    </CompanyLayout>
  );
}

/** /company/roles/{roleId}/edit. */
export function RoleEditPage() {
  const { roleId } = useParams();
  const { data, error, isLoading } = useRole(roleId);
  return (
    <CompanyLayout tab="roles">
      <Title order={3}>{data ? `Edit ${data.name}` : 'Edit role'}</Title>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && (
        <ChangesOnly>
          <RoleForm key={data._id} role={data} />
        </ChangesOnly>
      )}
    </CompanyLayout>
  );
}
