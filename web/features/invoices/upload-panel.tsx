import { Alert, Anchor, Button, Group, Paper, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { INVOICE_POLL_MS } from '../../../shared/constants.ts';
import { EmptyPanel } from '../../components/page-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { putWithProgress } from '../../lib/upload.ts';
import { type UploadCall, type UploadTicket, useBatch, useUploadTicket } from './api.ts';
import { INVOICE_MESSAGES } from './messages.ts';
import { InvoiceStatusBadge, ValidationStatusBadge } from './status.tsx';
import {
  ACCEPT,
  applyPoll,
  captureContentType,
  isForValidation,
  isWatched,
  needsPolling,
  newEntries,
  refusalOf,
  summarise,
  type UploadEntry,
  validationIdOf,
  withInvoiceId,
  withProgress,
  withUploadError,
  withUploaded,
} from './upload-state.ts';

/** Files sent at once; the rest wait their turn. */
const PARALLEL_UPLOADS = 3;

/** Runs at most `n` tasks at a time, the others in the order they came. */
function limiter(n: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T,>(task: () => Promise<T>): Promise<T> => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** The server's reason for refusing a file (too big, wrong type), else the generic upload message. */
function uploadMessageOf(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
    const fields = error.formMessages ?? {};
    return fields.file ?? Object.values(fields)[0] ?? error.message;
  }
  return INVOICE_MESSAGES.uploadProblem;
}

const hasContentTypeHeader = (headers: Record<string, string> | undefined) =>
  Object.keys(headers ?? {}).some((h) => h.toLowerCase() === 'content-type');

function DropZone({ onFiles }: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    onFiles([...event.dataTransfer.files]);
  };
  return (
    <Paper
      withBorder
      p="xl"
      onDragOver={(e: DragEvent) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      style={{
        borderStyle: 'dashed',
        borderWidth: 2,
        background: over ? 'var(--mantine-color-blue-0)' : undefined,
        textAlign: 'center',
      }}
      aria-label="Drop invoices here"
    >
      <Stack align="center" gap="xs">
        <Text fw={500}>Drop invoices here</Text>
        <Text size="sm" c="dimmed">
          PDF documents or PNG, JPEG or TIFF images, up to 20 MB each. A document may hold several invoices.
        </Text>
        <Button variant="light" onClick={() => input.current?.click()}>
          Choose files
        </Button>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          aria-label="Invoice files"
          onChange={(e) => {
            onFiles([...(e.currentTarget.files ?? [])]);
            e.currentTarget.value = '';
          }}
        />
      </Stack>
    </Paper>
  );
}

function UploadRow({ entry }: { entry: UploadEntry }) {
  const id = validationIdOf(entry);
  // The validation page has something to show once capture is done with the document.
  const open = id && isForValidation(entry);
  return (
    <Table.Tr data-testid="upload-row">
      <Table.Td style={{ paddingLeft: entry.parentKey ? 28 : undefined }}>
        <Text size="sm">{entry.fileName}</Text>
        {entry.invoiceNumber && (
          <Text size="xs" c="dimmed">
            Invoice {entry.invoiceNumber}
          </Text>
        )}
        {entry.error && (
          <Text size="xs" c="red">
            {entry.error.message}
          </Text>
        )}
      </Table.Td>
      <Table.Td w={220}>
        <Group gap="xs" wrap="nowrap">
          <Progress
            value={entry.progress}
            aria-label={`Upload of ${entry.fileName}`}
            animated={entry.status === 'uploading'}
            color={entry.error?.type === 'upload' ? 'red' : undefined}
            w={150}
          />
          <Text size="xs" c="dimmed" w={36} ta="right">
            {entry.progress}%
          </Text>
        </Group>
      </Table.Td>
      <Table.Td>
        {isForValidation(entry) ? (
          // Captured is half the story: the row says what the bill checks made of it.
          <ValidationStatusBadge status={entry.validationStatus ?? 'pending'} />
        ) : (
          <InvoiceStatusBadge status={entry.status} />
        )}
      </Table.Td>
      <Table.Td>
        {open && (
          <Anchor component={Link} to={`/invoice-validation/${id}`} size="sm">
            Open
          </Anchor>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * Upload of invoice documents (02 §4): many files at once, each with its progress from 0 to 100, then its
 * capture status and then the bill checks' outcome, refreshed on the live connection's word (and polled
 * as a fallback) until validation has judged it.
 */
export function UploadPanel({
  call,
  title,
  nested = false,
}: {
  call: UploadCall;
  title: string;
  nested?: boolean;
}) {
  const uploadTicket = useUploadTicket(call);
  const [entries, setEntries] = useState<UploadEntry[]>([]);
  const [batchId, setBatchId] = useState<string>();
  const count = useRef(0);
  // Upload calls go one after another, so every file of the page joins the first one's batch and one
  // poll follows them all; the bytes then go up a few files at a time.
  const batch = useRef<string | undefined>(undefined);
  const calls = useRef<Promise<unknown>>(Promise.resolve());
  const puts = useRef(limiter(PARALLEL_UPLOADS));
  const { data: polled } = useBatch(batchId, needsPolling(entries), INVOICE_POLL_MS);

  // A new answer, or a file newly waiting for capture, is read against the latest poll.
  const waiting = entries
    .filter(isWatched)
    .map((e) => e.key)
    .join(',');
  useEffect(() => {
    if (polled && waiting) setEntries((current) => applyPoll(current, polled.data));
  }, [polled, waiting]);

  async function register(file: File, key: string): Promise<UploadTicket | undefined> {
    const refusal = refusalOf(file);
    if (refusal) {
      setEntries((e) => withUploadError(e, key, refusal));
      return undefined;
    }
    try {
      const ticket = await uploadTicket({
        fileName: file.name,
        contentType: captureContentType(file),
        size: file.size,
        ...(batch.current ? { batchId: batch.current } : {}),
      });
      if (!batch.current) {
        batch.current = ticket.batchId;
        setBatchId(ticket.batchId);
      }
      setEntries((e) => withInvoiceId(e, key, ticket._id));
      return ticket;
    } catch (error) {
      setEntries((e) => withUploadError(e, key, uploadMessageOf(error)));
      return undefined;
    }
  }

  async function put(file: File, key: string, ticket: UploadTicket) {
    try {
      await putWithProgress(
        {
          uploadUrl: ticket.uploadUrl,
          method: 'PUT',
          ...(ticket.headers ? { headers: ticket.headers } : {}),
          // The URL is signed for one Content-Type: sent once, from the answer's headers or the file.
          ...(hasContentTypeHeader(ticket.headers) ? {} : { contentType: captureContentType(file) }),
        },
        file,
        (percent) => setEntries((e) => withProgress(e, key, percent)),
      );
      setEntries((e) => withUploaded(e, key));
    } catch {
      setEntries((e) => withUploadError(e, key, INVOICE_MESSAGES.uploadProblem));
    }
  }

  function addFiles(files: File[]) {
    if (files.length === 0) return;
    const added = newEntries(files, count.current);
    count.current += files.length;
    setEntries((e) => [...e, ...added]);
    files.forEach((file, i) => {
      const key = added[i]?.key as string;
      const ticket = calls.current.then(() => register(file, key));
      calls.current = ticket;
      void ticket.then((t) => (t ? puts.current(() => put(file, key, t)) : undefined));
    });
  }

  const { forValidation, errored, inProgress, validating } = summarise(entries);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={nested ? 3 : 2}>{title}</Title>
        {!nested && (
          <Button component={Link} to="/invoice-validation/failed" variant="subtle">
            Go to Bill Validation
          </Button>
        )}
      </Group>
      <DropZone onFiles={addFiles} />
      {entries.length === 0 ? (
        <EmptyPanel>No invoices uploaded yet.</EmptyPanel>
      ) : (
        <Paper withBorder>
          <Table aria-label="Uploads">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Upload</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th aria-label="Links" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <UploadRow key={entry.key} entry={entry} />
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      {entries.length > 0 && (
        <Text size="sm" role="status" aria-live="polite">
          {inProgress.length > 0 ? `${inProgress.length} still uploading or being captured. ` : ''}
          {forValidation.length === 1
            ? '1 new invoice for validation'
            : `${forValidation.length} new invoices for validation`}
          {validating.length > 0 ? `, ${validating.length} still being checked` : ''}.
          {inProgress.length + validating.length > 0 ? ' This list updates by itself as they change.' : ''}
        </Text>
      )}
      {errored.length > 0 && (
        <Alert color="red" title="Not captured" aria-label="Errored invoices">
          <Stack gap={4}>
            {errored.map((e) => (
              <Text key={e.key} size="sm">
                <b>{e.fileName}</b>: {e.error?.message ?? 'The document could not be captured.'}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
