import { Anchor, Button, Group, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { VALIDATION_PAGE_SIZE } from '../../../shared/constants.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { ApiError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import {
  type CaptureItem,
  useCaptures,
  useDownloadFile,
  useStartCapture,
  useStartValidation,
} from './api.ts';
import { DownloadButton } from './download-button.tsx';
import { INVOICE_MESSAGES } from './messages.ts';
import { InvoiceStatusBadge } from './status.tsx';
import { ValidationNav } from './validation-nav.tsx';

const SOURCES: Record<string, string> = { upload: 'Upload', email: 'E-mail', api: 'API', manual: 'Manual' };

const problemOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 ? error.message : fallback;

function CaptureRow({ capture }: { capture: CaptureItem }) {
  const downloadFile = useDownloadFile();
  const startCapture = useStartCapture();
  const startValidation = useStartValidation();
  const [busy, setBusy] = useState(false);
  const path = `/invoice-capture/${capture._id}`;
  async function act(run: () => Promise<unknown>, done: string, problem: string) {
    setBusy(true);
    try {
      await run();
      if (done) showToast(done, 'success');
    } catch (error) {
      showToast(problemOf(error, problem), 'error');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm">{capture.fileName}</Text>
        {capture.error && (
          <Text size="xs" c="red">
            {capture.error.message}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <InvoiceStatusBadge status={capture.status} />
      </Table.Td>
      <Table.Td>{SOURCES[capture.source ?? ''] ?? capture.source ?? ''}</Table.Td>
      <Table.Td>{formatDateTime(capture.createdAt)}</Table.Td>
      <Table.Td>
        <Group gap={6}>
          {(capture.invoiceIds ?? []).map((id, i) => (
            <Anchor key={id} component={Link} to={`/invoice-validation/${id}`} size="sm">
              {(capture.invoiceIds?.length ?? 0) > 1 ? `Invoice ${i + 1}` : 'Invoice'}
            </Anchor>
          ))}
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <DownloadButton
            name={capture.fileName}
            disabled={busy}
            onClick={() => act(() => downloadFile(`${path}/download`), '', INVOICE_MESSAGES.getProblem)}
          />
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={busy || capture.status === 'processing' || capture.status === 'uploading'}
            onClick={() =>
              act(() => startCapture(capture._id), 'Capture started again', INVOICE_MESSAGES.updateProblem)
            }
          >
            Capture again
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            disabled={busy || (capture.invoiceIds?.length ?? 0) === 0}
            onClick={() =>
              act(
                () => startValidation(capture._id),
                'Validation started',
                INVOICE_MESSAGES.revalidateProblem,
              )
            }
          >
            Validate again
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** /invoice-validation/invoice-captures: every document received, newest first, with its invoices. */
export function InvoiceCapturesPage() {
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useCaptures(page, VALIDATION_PAGE_SIZE);
  const captures = [...(data?.data ?? [])].sort((a, b) =>
    (b.createdAt ?? '').localeCompare(a.createdAt ?? ''),
  );
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / VALIDATION_PAGE_SIZE));
  return (
    <Stack>
      <ValidationNav tab="invoice-captures" />
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title={INVOICE_MESSAGES.getProblem} />}
      {data && captures.length === 0 && <EmptyPanel>No documents received yet.</EmptyPanel>}
      {captures.length > 0 && (
        <Paper withBorder style={{ overflowX: 'auto' }}>
          <Table aria-label="Invoice captures">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Source</Table.Th>
                <Table.Th>Received</Table.Th>
                <Table.Th>Invoices</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {captures.map((c) => (
                <CaptureRow key={c._id} capture={c} />
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {pages > 1 && <Pagination value={page} onChange={setPage} total={pages} aria-label="Pages" />}
    </Stack>
  );
}
