import { Anchor, Badge, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { type StaffEmail, useCompanyChoices, useEmailAttachment, useStaffEmails } from './api.ts';
import { StaffTable } from './staff-table.tsx';

/** /admin/emails: every e-mail the product received, with its company, status and attachments. */
export function AdminEmailsPage() {
  const [companyId, setCompanyId] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const companies = useCompanyChoices();
  const query = new URLSearchParams({
    ...(companyId ? { companyId } : {}),
    ...(status ? { status } : {}),
  }).toString();
  const { data, error, isLoading } = useStaffEmails(query);
  const download = useEmailAttachment();
  const [failed, setFailed] = useState<string>();
  const open = async (email: StaffEmail, attachmentId: string) => {
    setFailed(undefined);
    try {
      const { url } = await download(email, attachmentId);
      window.open(url, '_blank', 'noopener');
    } catch (err) {
      setFailed(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <Stack>
      <Title order={2}>E-mails</Title>
      <Group>
        <Select
          label="Company"
          placeholder="Every company"
          clearable
          searchable
          data={[
            { value: 'unmatched', label: 'Reached no company' },
            ...(companies.data?.data ?? []).map((c) => ({ value: c._id, label: c.name })),
          ]}
          value={companyId}
          onChange={setCompanyId}
        />
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={[
            { value: 'accepted', label: 'Accepted' },
            { value: 'refused', label: 'Refused' },
          ]}
          value={status}
          onChange={setStatus}
        />
      </Group>
      {failed && (
        <Text c="red" role="alert">
          {failed}
        </Text>
      )}
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title="There was a problem getting the e-mails." />}
      {data && data.data.length === 0 && <EmptyPanel>No e-mail matches.</EmptyPanel>}
      {data && data.data.length > 0 && (
        <StaffTable
          label="E-mails"
          scroll
          head={
            <>
              <Table.Th>Received</Table.Th>
              <Table.Th>Company</Table.Th>
              <Table.Th>From</Table.Th>
              <Table.Th>Subject</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Attachments</Table.Th>
            </>
          }
        >
          {data.data.map((email) => (
            <Table.Tr key={`${email.companyId ?? 'none'}${email._id}`}>
              <Table.Td>{formatDateTime(email.createdAt)}</Table.Td>
              <Table.Td>{email.companyName ?? <Text c="dimmed">No company</Text>}</Table.Td>
              <Table.Td>{email.from}</Table.Td>
              <Table.Td>{email.subject ?? ''}</Table.Td>
              <Table.Td>
                <Badge color={email.status === 'accepted' ? 'teal' : 'red'} title={email.reason}>
                  {email.status}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  {email.attachments.map((a) => (
                    <Anchor
                      key={a._id}
                      component="button"
                      type="button"
                      onClick={() => void open(email, a._id)}
                    >
                      {a.fileName}
                    </Anchor>
                  ))}
                </Stack>
              </Table.Td>
            </Table.Tr>
          ))}
        </StaffTable>
      )}
    </Stack>
  );
}
