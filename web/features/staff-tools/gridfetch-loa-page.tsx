import {
  Anchor,
  Button,
  FileInput,
  Group,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { FormAlert } from '../../components/form-alert.tsx';
import { FormPanel } from '../../components/form-panel.tsx';
import { EmptyPanel } from '../../components/page-state.tsx';
import { formFailureOf } from '../../lib/form-errors.ts';
import { formatDate } from '../../lib/format.ts';
import { useGridfetchUsage, useUploadLoa } from './api.ts';
import { CompanySelect, fieldError, useStaffForm } from './staff-form.tsx';
import { StaffTable } from './staff-table.tsx';

const FIELDS = ['companyId', 'fileName', 'key', 'mpans', 'validFrom', 'validUntil'];

/** MPAN cores typed one per line or separated by commas or spaces. */
const mpansOf = (text: string) => text.split(/[\s,]+/).filter(Boolean);

/**
 * /admin/gridfetch/loa: uploads a company's letter of authority (a PDF, with the meters it covers) through
 * POST /util/gridfetch-loa: first a signed upload, then the record; the letters on file are listed below.
 */
export function GridfetchLoaPage() {
  const usage = useGridfetchUsage();
  const uploadLoa = useUploadLoa();
  const [companyId, setCompanyId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [mpans, setMpans] = useState('');
  const [validFrom, setValidFrom] = useState('');
  const [validUntil, setValidUntil] = useState('');
  const [percent, setPercent] = useState<number>();
  const { failure, setFailure, busy, run } = useStaffForm(FIELDS);
  const [saved, setSaved] = useState<string>();

  async function upload() {
    setSaved(undefined);
    const missing: Record<string, string> = {};
    if (!companyId) missing.companyId = 'This field is required';
    if (!file) missing.fileName = 'This field is required';
    if (!file || Object.keys(missing).length > 0) {
      setFailure({ fields: missing });
      return;
    }
    await run(async () => {
      const loa = await uploadLoa(
        file,
        {
          companyId,
          mpans: mpansOf(mpans),
          ...(validFrom ? { validFrom } : {}),
          ...(validUntil ? { validUntil } : {}),
        },
        setPercent,
      );
      setSaved(`${loa.fileName} saved for the company, covering ${loa.mpans.length} meters.`);
      setFile(null);
      setMpans('');
      setPercent(undefined);
    });
  }

  const letters = (usage.data?.data ?? []).flatMap((row) =>
    row.loas.map((l) => ({ ...l, company: row.company })),
  );
  const f = failure.fields;
  return (
    <Stack>
      <Title order={2}>Letters of authority</Title>
      <FormPanel
        title="Upload a letter"
        label="Upload a letter of authority"
        failure={failure}
        onSubmit={upload}
        maw={760}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <CompanySelect
            required
            value={companyId}
            error={f.companyId}
            onChange={setCompanyId}
            noneLabel="Choose a company"
          />
          <FileInput
            label="Letter (PDF)"
            required
            accept="application/pdf"
            value={file}
            error={f.fileName ?? f.key}
            onChange={setFile}
            clearable
          />
          <TextInput
            label="Valid from"
            type="date"
            value={validFrom}
            error={f.validFrom}
            onChange={(e) => setValidFrom(e.currentTarget.value)}
          />
          <TextInput
            label="Valid until"
            type="date"
            value={validUntil}
            error={f.validUntil}
            onChange={(e) => setValidUntil(e.currentTarget.value)}
          />
        </SimpleGrid>
        <Textarea
          label="Meters covered (MPAN cores)"
          description="One per line, or separated by commas"
          autosize
          minRows={2}
          value={mpans}
          error={fieldError(f, 'mpans')}
          onChange={(e) => setMpans(e.currentTarget.value)}
        />
        {percent !== undefined && <Progress value={percent} aria-label="Upload progress" />}
        <Group>
          <Button type="submit" loading={busy}>
            Upload
          </Button>
        </Group>
        {saved && (
          <Text size="sm" c="green" role="status">
            {saved}
          </Text>
        )}
      </FormPanel>
      <FormAlert failure={{ message: usage.error ? formFailureOf(usage.error).message : undefined }} />
      {usage.data && letters.length === 0 && <EmptyPanel>No letters on file.</EmptyPanel>}
      {letters.length > 0 && (
        <StaffTable
          label="Letters of authority"
          head={
            <>
              <Table.Th>Company</Table.Th>
              <Table.Th>Letter</Table.Th>
              <Table.Th>Meters</Table.Th>
              <Table.Th>Valid</Table.Th>
              <Table.Th>Uploaded</Table.Th>
            </>
          }
        >
          {letters.map((l) => (
            <Table.Tr key={l._id}>
              <Table.Td>{l.company.name}</Table.Td>
              <Table.Td>
                <Anchor href={l.downloadUrl} target="_blank" rel="noreferrer" size="sm">
                  {l.fileName}
                </Anchor>
              </Table.Td>
              <Table.Td>{l.mpans.length}</Table.Td>
              <Table.Td>
                {[formatDate(l.validFrom), formatDate(l.validUntil)].filter(Boolean).join(' to ') || '—'}
              </Table.Td>
              <Table.Td>{formatDate(l.uploadedAt)}</Table.Td>
            </Table.Tr>
          ))}
        </StaffTable>
      )}
    </Stack>
  );
}
