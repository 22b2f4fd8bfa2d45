import { Button, Checkbox, Group, Paper, Stack, Table, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { FormPanel } from '../../components/form-panel.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import {
  type FormFailure,
  formFailureOf,
  NO_FAILURE,
  requiredFields,
  withoutField,
} from '../../lib/form-errors.ts';
import { formatDate } from '../../lib/format.ts';
import { useGlobalCompanies } from '../../lib/global-companies-api.ts';
import { useCreateCompany } from './api.ts';

function CreateForm() {
  const createCompany = useCreateCompany();
  const [name, setName] = useState('');
  const [isDemo, setIsDemo] = useState(false);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);

  async function save() {
    const missing = requiredFields({ name });
    if (Object.keys(missing).length > 0) {
      setFailure({ fields: missing });
      return;
    }
    setBusy(true);
    try {
      const created = await createCompany({ name: name.trim(), settings: { isDemo } });
      showToast(`${created.name} created`, 'success');
      setName('');
      setIsDemo(false);
      setFailure(NO_FAILURE);
    } catch (error) {
      setFailure(formFailureOf(error, ['name', 'settings.isDemo']));
      showToast('There was a problem creating the company.', 'error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <FormPanel label="New company" maw={720} failure={failure} onSubmit={save}>
      <TextInput
        label="Company name"
        required
        value={name}
        error={failure.fields.name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          setFailure((f) => withoutField(f, 'name'));
        }}
      />
      <Checkbox
        label="Demo company"
        checked={isDemo}
        error={failure.fields['settings.isDemo']}
        onChange={(e) => setIsDemo(e.currentTarget.checked)}
      />
      <Group justify="flex-end">
        <Button type="submit" loading={busy}>
          Create company
        </Button>
      </Group>
    </FormPanel>
  );
}

function GlobalCompanies() {
  const { data, error, isLoading } = useGlobalCompanies();
  const companies = [...(data?.data ?? [])].sort((a, b) => a.name.localeCompare(b.name, 'en-GB'));
  return (
    <Paper withBorder p="md">
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && companies.length === 0 && <EmptyPanel>There are no companies yet.</EmptyPanel>}
      {companies.length > 0 && (
        <Table striped aria-label="Companies">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Demo</Table.Th>
              <Table.Th>Created</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {companies.map((c) => (
              <Table.Tr key={c._id}>
                <Table.Td>{c.name}</Table.Td>
                <Table.Td>{c.settings?.isDemo ? 'Yes' : 'No'}</Table.Td>
                <Table.Td>{formatDate(c.createdAt)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

/** /companies/create (staff): a new company, beside the list of every company. */
export function CompanyCreatePage() {
  return (
    <Stack>
      <Title order={2}>New company</Title>
      <CreateForm />
      <Title order={3}>All companies</Title>
      <GlobalCompanies />
    </Stack>
  );
}
