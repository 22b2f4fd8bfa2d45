import { Alert, Anchor, Button, Group, Paper, Stack, Table, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useSWRConfig } from 'swr';
import type { PermissionName } from '../../../shared/access/permission-names.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useApi } from '../../lib/app-context.tsx';
import {
  type FormFailure,
  formFailureOf,
  NO_FAILURE,
  requiredFields,
  withoutField,
} from '../../lib/form-errors.ts';
import { type Role, startsWith, useRole, useRoles } from './api.ts';
import { CompanyLayout } from './company-layout.tsx';
import { PermissionCheckboxes } from './permission-checkboxes.tsx';

/** Roles are listed by two calls (the generic list and GET /companies/roles): both change together. */
const isRoleKey = (key: unknown) => startsWith('/roles')(key) || startsWith('/companies/roles')(key);

function RoleForm({ role }: { role?: Role }) {
  const api = useApi();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [name, setName] = useState(role?.name ?? '');
  const [permissions, setPermissions] = useState<PermissionName[]>(role?.permissions ?? []);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null);

  async function save(event: FormEvent) {
    event.preventDefault();
    const missing = requiredFields({ name });
    if (Object.keys(missing).length > 0) {
      setFailure({ fields: missing });
      return;
    }
    setBusy('save');
    try {
      const body = { name: name.trim(), permissions };
      if (role) await api.patch(`/roles/${role._id}`, body);
      else await api.post('/roles', body);
      await mutate(isRoleKey);
      showToast(role ? 'Role saved' : 'Role created', 'success');
      navigate('/company/roles');
    } catch (error) {
      setFailure(formFailureOf(error, ['name', 'permissions']));
      showToast('There was a problem saving the role.', 'error');
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!role || !window.confirm(`Delete the role ${role.name}?`)) return;
    setBusy('delete');
    try {
      await api.del(`/roles/${role._id}`);
      await mutate(isRoleKey);
      showToast('Role deleted', 'success');
      navigate('/company/roles');
    } catch (error) {
      setFailure(formFailureOf(error));
      showToast('There was a problem deleting the role.', 'error');
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={save}
      noValidate
      maw={720}
      aria-label={role ? 'Edit role' : 'New role'}
    >
      <Stack>
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        <TextInput
          label="Name"
          required
          value={name}
          error={failure.fields.name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setFailure((f) => withoutField(f, 'name'));
          }}
        />
        <PermissionCheckboxes
          label="Permissions"
          value={permissions}
          error={failure.fields.permissions}
          onChange={setPermissions}
        />
        <Group justify="space-between">
          {role ? (
            <Button color="red" variant="subtle" onClick={remove} loading={busy === 'delete'}>
              Delete role
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" loading={busy === 'save'}>
            {role ? 'Save role' : 'Create role'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** /company/roles: the company's roles and the permission strings each gives. */
export function RoleListPage() {
  const { data, error, isLoading } = useRoles();
  const roles = [...(data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
  return (
    <CompanyLayout tab="roles">
      <Group justify="space-between">
        <Title order={3}>Roles</Title>
        <Button component={Link} to="/company/roles/create">
          New role
        </Button>
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
      <RoleForm />
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
      {data && <RoleForm key={data._id} role={data} />}
    </CompanyLayout>
  );
}
