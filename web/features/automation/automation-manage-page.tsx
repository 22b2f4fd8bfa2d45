import {
  Button,
  FileButton,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { when } from '../../components/runs-table.tsx';
import {
  type Automation,
  type RequestKind,
  type Schedule,
  type TemplateId,
  useAutomations,
  useCreateAutomation,
  useDeleteAutomation,
  useDropFile,
  useRunAutomation,
  useSiteOptions,
  useSupplierOptions,
  useTemplates,
  useUpdateAutomation,
} from './api.ts';
import { AutomationRunStatusBadge } from './automation-runs-page.tsx';

const SCHEDULES: { value: Schedule; label: string }[] = [
  { value: 'manual', label: 'Only when run by hand' },
  { value: 'daily', label: 'Every day' },
  { value: 'weekly', label: 'Every Monday' },
  { value: 'monthly', label: 'On the 1st of each month' },
];

const REQUEST_KINDS: { value: RequestKind; label: string }[] = [
  { value: 'readings-or-bill', label: 'Meter readings or a bill' },
  { value: 'readings', label: 'Meter readings' },
  { value: 'bill', label: 'A bill' },
];

const scheduleLabel = (s: Schedule) => SCHEDULES.find((o) => o.value === s)?.label ?? s;

const messageOf = (err: unknown) =>
  err instanceof Error ? err.message : 'There was a problem with submitting.';

/** /automation/manage: automations made from a template, run by hand or on their schedule. */
function AutomationManageContent() {
  const automations = useAutomations();
  const templates = useTemplates();
  const suppliers = useSupplierOptions();
  const create = useCreateAutomation();
  const update = useUpdateAutomation();
  const remove = useDeleteAutomation();
  const runNow = useRunAutomation();
  const dropFile = useDropFile();
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState<TemplateId | null>(null);
  const [supplierId, setSupplierId] = useState<string | null>(null);
  const [schedule, setSchedule] = useState<Schedule>('manual');
  const [contactEmail, setContactEmail] = useState('');
  const [contactName, setContactName] = useState('');
  const [assetId, setAssetId] = useState<string | null>(null);
  const [requestKind, setRequestKind] = useState<RequestKind>('readings-or-bill');
  const [problem, setProblem] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const template = templates.data?.data.find((t) => t._id === templateId);
  const needsSupplier = template?.needs === 'bill-portal' || template?.needs === 'meter-data';
  const needsContact = template?.needs === 'contact';
  const sites = useSiteOptions(needsContact);
  const templateName = (id: TemplateId) => templates.data?.data.find((t) => t._id === id)?.name ?? id;

  const act = async (what: () => Promise<unknown>, done?: string) => {
    setProblem(undefined);
    setNotice(undefined);
    try {
      await what();
      if (done) setNotice(done);
    } catch (err) {
      setProblem(messageOf(err));
    }
  };

  const save = async () => {
    if (!templateId) return;
    setBusy(true);
    await act(async () => {
      await create({
        name,
        templateId,
        schedule,
        ...(needsSupplier && supplierId ? { supplierId } : {}),
        ...(needsContact
          ? {
              contactEmail,
              requestKind,
              ...(contactName ? { contactName } : {}),
              ...(assetId ? { assetId } : {}),
            }
          : {}),
      });
      setName('');
    });
    setBusy(false);
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Automations</Title>
        <Button component={Link} to="/automation/runs" variant="default">
          See runs
        </Button>
      </Group>
      <Paper
        withBorder
        p="md"
        component="form"
        aria-label="New automation"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Stack>
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
          <Select
            label="Template"
            data={(templates.data?.data ?? []).map((t) => ({ value: t._id, label: t.name }))}
            value={templateId}
            onChange={(v) => setTemplateId(v as TemplateId | null)}
            description={template?.description}
            required
          />
          {needsSupplier && (
            <Select
              label="Supplier"
              data={(suppliers.data?.data ?? [])
                .filter((s) => s.scraperEnabled)
                .map((s) => ({ value: s._id, label: s.name }))}
              value={supplierId}
              onChange={setSupplierId}
              required
            />
          )}
          {needsContact && (
            <>
              <TextInput
                label="Contact's e-mail"
                type="email"
                value={contactEmail}
                onChange={(e) => setContactEmail(e.currentTarget.value)}
                description="Their reply goes to the company's bill inbox; they need no sign-in."
                required
              />
              <TextInput
                label="Contact's name"
                value={contactName}
                onChange={(e) => setContactName(e.currentTarget.value)}
              />
              <Select
                label="Site"
                data={(sites.data?.data ?? []).map((s) => ({ value: s._id, label: s.siteName }))}
                value={assetId}
                onChange={setAssetId}
                searchable
                clearable
              />
              <Select
                label="Ask for"
                data={REQUEST_KINDS}
                value={requestKind}
                onChange={(v) => setRequestKind((v as RequestKind | null) ?? 'readings-or-bill')}
                allowDeselect={false}
              />
            </>
          )}
          <Select
            label="Schedule"
            data={SCHEDULES}
            value={schedule}
            onChange={(v) => setSchedule((v as Schedule | null) ?? 'manual')}
            allowDeselect={false}
          />
          <Group>
            <Button
              type="submit"
              loading={busy}
              disabled={
                !name || !templateId || (needsSupplier && !supplierId) || (needsContact && !contactEmail)
              }
            >
              Add automation
            </Button>
          </Group>
        </Stack>
      </Paper>
      {problem && (
        <div role="alert" style={{ color: 'var(--mantine-color-red-7)' }}>
          {problem}
        </div>
      )}
      {notice && <Text role="status">{notice}</Text>}
      <Paper withBorder p="md">
        {automations.isLoading && <LoadingPanel />}
        {automations.error && <ErrorPanel error={automations.error} />}
        {automations.data?.data.length === 0 && <EmptyPanel>No automations yet.</EmptyPanel>}
        {(automations.data?.data.length ?? 0) > 0 && (
          <Table aria-label="Automations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Template</Table.Th>
                <Table.Th>Schedule</Table.Th>
                <Table.Th>On</Table.Th>
                <Table.Th>Last run</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {automations.data?.data.map((a: Automation) => (
                <Table.Tr key={a._id} data-automation={a.name}>
                  <Table.Td>{a.name}</Table.Td>
                  <Table.Td>{templateName(a.templateId)}</Table.Td>
                  <Table.Td>{scheduleLabel(a.schedule)}</Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`${a.name} switched on`}
                      checked={a.enabled}
                      onChange={(e) => {
                        const enabled = e.currentTarget.checked;
                        void act(() => update(a._id, { enabled }));
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    {a.lastRunStatus ? (
                      <Group gap="xs">
                        <AutomationRunStatusBadge status={a.lastRunStatus} />
                        <Text size="sm">{when(a.lastRunAt)}</Text>
                      </Group>
                    ) : (
                      'Never'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="end">
                      {a.templateId === 'folder-import' && (
                        <FileButton
                          accept="application/pdf,image/png,image/jpeg,.csv,text/csv,.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                          onChange={(file) => {
                            if (file) void act(() => dropFile(a._id, file), `${file.name} is in the folder.`);
                          }}
                        >
                          {(props) => (
                            <Button size="xs" variant="default" {...props}>
                              {a.folderFile ? `Replace ${a.folderFile.fileName}` : 'Drop a file'}
                            </Button>
                          )}
                        </FileButton>
                      )}
                      <Button
                        size="xs"
                        onClick={() => void act(() => runNow(a._id), `${a.name} is running.`)}
                      >
                        Run now
                      </Button>
                      <Button
                        size="xs"
                        color="red"
                        variant="subtle"
                        onClick={() => void act(() => remove(a._id))}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
    </Stack>
  );
}

export function AutomationManagePage() {
  return (
    <ChangesOnly>
      <AutomationManageContent />
    </ChangesOnly>
  );
}
