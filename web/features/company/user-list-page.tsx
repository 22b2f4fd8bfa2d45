import { Anchor, Button, Group, Paper, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useSession } from '../../lib/app-context.tsx';
import { formFailureOf } from '../../lib/form-errors.ts';
import { useMayChange } from '../../lib/may-change.ts';
import { type CompanyUser, useCompanyUsers, useRemoveUser, useSendWelcome } from './api.ts';
import { CompanyLayout, useIsCompanyAdmin } from './company-layout.tsx';
import { grantSummary, normaliseGrants } from './grants.ts';

/** Members by name; one kept before names were required has none and sorts by e-mail, rather than failing the page. */
export function membersByName<T extends Pick<CompanyUser, 'name' | 'email'>>(users: readonly T[]): T[] {
  const sortName = (u: T) => u.name ?? u.email ?? '';
  return [...users].sort((a, b) => sortName(a).localeCompare(sortName(b), 'en-GB'));
}

/** What a member may do, in one line: their own permission strings and their item grants. */
export function permissionSummary(user: Pick<CompanyUser, 'permissions' | 'grants'>): string {
  const parts = [user.permissions.join(', '), grantSummary(normaliseGrants(user.grants))].filter(Boolean);
  return parts.length > 0 ? parts.join('; ') : '—';
}

/** Edit and Delete change the company; the welcome e-mail only lets a member in, so staff looking in keep it. */
function UserActions({
  user,
  companyId,
  mayChange,
}: {
  user: CompanyUser;
  companyId: string;
  mayChange: boolean;
}) {
  const sendWelcome = useSendWelcome(companyId);
  const removeUser = useRemoveUser(companyId);
  const [busy, setBusy] = useState<'welcome' | 'delete' | null>(null);

  async function welcome() {
    setBusy('welcome');
    try {
      const sent = await sendWelcome(user.userSub);
      showToast(
        sent.temporaryPassword === false
          ? `Welcome e-mail sent to ${user.email}; they keep the password they already use`
          : `Welcome e-mail sent to ${user.email}`,
        'success',
      );
    } catch (error) {
      showToast(formFailureOf(error).message ?? 'The welcome e-mail could not be sent.', 'error');
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!window.confirm(`Remove ${user.name} (${user.email}) from the company?`)) return;
    setBusy('delete');
    try {
      await removeUser(user.userSub);
      showToast(`${user.name} was removed`, 'success');
    } catch (error) {
      showToast(formFailureOf(error).message ?? 'The user could not be removed.', 'error');
    } finally {
      setBusy(null);
    }
  }

  return (
    <Group gap="xs" wrap="nowrap">
      {mayChange && (
        <Button
          component={Link}
          to={`/company/users/${user.userSub}/edit`}
          size="xs"
          variant="default"
          aria-label={`Edit ${user.name}`}
        >
          Edit
        </Button>
      )}
      <Button
        size="xs"
        variant="default"
        loading={busy === 'welcome'}
        onClick={welcome}
        aria-label={`Send welcome e-mail to ${user.name}`}
      >
        Send welcome e-mail
      </Button>
      {mayChange && (
        <Button
          size="xs"
          color="red"
          variant="subtle"
          loading={busy === 'delete'}
          onClick={remove}
          aria-label={`Delete ${user.name}`}
        >
          Delete
        </Button>
      )}
    </Group>
  );
}

/** /company/users: the company's members, their roles and what they may do. */
export function UserListPage() {
  const { company } = useSession();
  const isAdmin = useIsCompanyAdmin();
  const mayChange = useMayChange();
  const { data, error, isLoading } = useCompanyUsers(company._id);
  const users = membersByName(data?.data ?? []);
  return (
    <CompanyLayout tab="users">
      <Group justify="space-between">
        <Text c="dimmed">{data ? `${data.total} users` : ''}</Text>
        {isAdmin && mayChange && (
          <Button component={Link} to="/company/users/create">
            New user
          </Button>
        )}
      </Group>
      <Paper withBorder p="md">
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} />}
        {data && users.length === 0 && <EmptyPanel>There are no users yet.</EmptyPanel>}
        {users.length > 0 && (
          <Table striped highlightOnHover aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>E-mail</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Permissions</Table.Th>
                {isAdmin && <Table.Th>Actions</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((u) => (
                <Table.Tr key={u.userSub}>
                  <Table.Td>
                    {isAdmin && mayChange ? (
                      <Anchor component={Link} to={`/company/users/${u.userSub}/edit`}>
                        {u.name}
                      </Anchor>
                    ) : (
                      u.name
                    )}
                  </Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  <Table.Td>{u.role?.name ?? '—'}</Table.Td>
                  <Table.Td>{permissionSummary(u)}</Table.Td>
                  {isAdmin && (
                    <Table.Td>
                      <UserActions user={u} companyId={company._id} mayChange={mayChange} />
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </CompanyLayout>
  );
}
