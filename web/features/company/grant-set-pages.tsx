import { Alert, Anchor, Button, Group, Paper, Stack, Table, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useSWRConfig } from 'swr';
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
import { type GrantSet, startsWith, useGrantables, useGrantSet, useGrantSets } from './api.ts';
import { CompanyLayout } from './company-layout.tsx';
import { GrantEditor } from './grant-editor.tsx';
import { grantSummary, normaliseGrants } from './grants.ts';

const isGrantSetKey = startsWith('/permissions');

function GrantSetForm({ set }: { set?: GrantSet }) {
  const api = useApi();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const grantables = useGrantables();
  const [name, setName] = useState(set?.name ?? '');
  const [grants, setGrants] = useState(() => normaliseGrants(set?.grants));
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
      const body = { name: name.trim(), grants };
      if (set) await api.patch(`/permissions/${set._id}`, body);
      else await api.post('/permissions', body);
      await mutate(isGrantSetKey);
      showToast(set ? 'Permission set saved' : 'Permission set created', 'success');
      navigate('/company/permissions');
    } catch (error) {
      setFailure(formFailureOf(error, ['name']));
      showToast('There was a problem saving the permission set.', 'error');
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!set || !window.confirm(`Delete the permission set ${set.name}?`)) return;
    setBusy('delete');
    try {
      await api.del(`/permissions/${set._id}`);
      await mutate(isGrantSetKey);
      showToast('Permission set deleted', 'success');
      navigate('/company/permissions');
    } catch (error) {
      setFailure(formFailureOf(error));
      showToast('There was a problem deleting the permission set.', 'error');
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
      maw={900}
      aria-label={set ? 'Edit permission set' : 'New permission set'}
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
        <GrantEditor
          grants={grants}
          items={grantables.items}
          isLoading={grantables.isLoading}
          error={grantables.error}
          onChange={setGrants}
        />
        <Group justify="space-between">
          {set ? (
            <Button color="red" variant="subtle" onClick={remove} loading={busy === 'delete'}>
              Delete permission set
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" loading={busy === 'save'}>
            {set ? 'Save permission set' : 'Create permission set'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** /company/permissions: named sets of grants that can be given to users in one go. */
export function GrantSetListPage() {
  const { data, error, isLoading } = useGrantSets();
  const sets = [...(data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
  return (
    <CompanyLayout tab="permissions">
      <Group justify="space-between">
        <Title order={3}>Permission sets</Title>
        <Button component={Link} to="/company/permissions/create">
          New permission set
        </Button>
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
      <GrantSetForm />
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
      {data && <GrantSetForm key={data._id} set={data} />}
    </CompanyLayout>
  );
}
