import { Alert, Anchor, Button, FileButton, Group, List, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { toCsv } from '../../shared/files/csv.ts';
import {
  IMPORT_MAX_FILE_BYTES,
  IMPORT_MESSAGES,
  type ImportResult,
  type ImportRollbackResult,
} from '../../shared/schemas/register-imports.ts';
import { ApiError } from '../lib/api-client.ts';
import { formatCount } from '../lib/format.ts';

/** A row problem as the import call reports it under `rows.{row}.{field}`. */
interface RowProblem {
  row: number;
  field: string;
  message: string;
}

interface Failure {
  message: string;
  rows: RowProblem[];
}

function failureOf(error: unknown): Failure {
  if (!(error instanceof ApiError)) return { message: 'There was a problem with submitting.', rows: [] };
  const rows: RowProblem[] = [];
  const other: string[] = [];
  for (const [key, message] of Object.entries(error.formMessages ?? {})) {
    const m = /^rows\.(\d+)\.(.+)$/.exec(key);
    if (m) rows.push({ row: Number(m[1]), field: m[2] === '_row' ? '' : (m[2] as string), message });
    else if (message !== error.message) other.push(message);
  }
  const shown =
    error.status >= 500 || error.status === 0 ? 'There was a problem with submitting.' : error.message;
  return { message: [shown, ...other].join(' '), rows };
}

export interface CsvImportProps {
  /** What the file holds, one and many: { one: 'site', many: 'sites' }. */
  noun: { one: string; many: string };
  /** The columns of the template file. */
  columns: readonly string[];
  onImport(file: { fileName: string; csv: string }): Promise<ImportResult>;
  onRollback(batchId: string): Promise<ImportRollbackResult>;
}

/**
 * Import of a CSV file: pick it, send it, and see either what was created (with a way to undo it) or
 * every row that needs fixing; nothing is created while any row is wrong.
 */
export function CsvImport({ noun, columns, onImport, onRollback }: CsvImportProps) {
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ImportResult>();
  const [undone, setUndone] = useState<ImportRollbackResult>();
  const [failure, setFailure] = useState<Failure>();
  const template = `data:text/csv;charset=utf-8,${encodeURIComponent(toCsv([columns]))}`;

  const choose = (picked: File | null) => {
    setFile(picked);
    setResult(undefined);
    setUndone(undefined);
    setFailure(undefined);
  };

  const send = async () => {
    if (!file) return;
    if (file.size > IMPORT_MAX_FILE_BYTES) {
      setFailure({ message: IMPORT_MESSAGES.tooLarge, rows: [] });
      return;
    }
    setBusy(true);
    setFailure(undefined);
    try {
      setResult(await onImport({ fileName: file.name, csv: await file.text() }));
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  const undo = async () => {
    if (!result) return;
    setBusy(true);
    try {
      setUndone(await onRollback(result.batchId));
    } catch (error) {
      setFailure(failureOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Text size="sm">
        One {noun.one} per row, with a header row naming the columns:{' '}
        <Text span ff="monospace" size="sm">
          {columns.join(', ')}
        </Text>
        .{' '}
        <Anchor href={template} download={`${noun.many}-template.csv`}>
          Download a template
        </Anchor>
      </Text>
      <Group>
        <FileButton onChange={choose} accept=".csv,text/csv">
          {(props) => (
            <Button variant="default" {...props}>
              {file ? 'Choose another file' : 'Choose a CSV file'}
            </Button>
          )}
        </FileButton>
        {file && <Text size="sm">{file.name}</Text>}
        <Button onClick={send} disabled={!file || Boolean(result)} loading={busy && !result}>
          Import CSV
        </Button>
      </Group>

      {failure && (
        <Alert color="red" title="Nothing was imported" role="alert">
          <Stack gap="xs">
            <Text size="sm">{failure.message}</Text>
            {failure.rows.length > 0 && (
              <Table striped aria-label="Rows to fix">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Row</Table.Th>
                    <Table.Th>Column</Table.Th>
                    <Table.Th>Problem</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {failure.rows.map((p) => (
                    <Table.Tr key={`${p.row}.${p.field}`}>
                      <Table.Td>{p.row}</Table.Td>
                      <Table.Td>{p.field || '—'}</Table.Td>
                      <Table.Td>{p.message}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        </Alert>
      )}

      {result && !undone && (
        <Alert color="green" title="Imported" role="status">
          <Group justify="space-between">
            <Text size="sm">
              {`${formatCount(result.created)} ${result.created === 1 ? noun.one : noun.many} imported${
                result.fileName ? ` from ${result.fileName}` : ''
              }.`}
            </Text>
            <Button size="xs" variant="default" onClick={undo} loading={busy}>
              Undo this import
            </Button>
          </Group>
        </Alert>
      )}

      {undone && (
        <Alert color="blue" title="Import undone" role="status">
          <Text size="sm">
            {formatCount(undone.removed)} {undone.removed === 1 ? noun.one : noun.many} removed.
            {undone.kept.length > 0 && ` ${formatCount(undone.kept.length)} kept:`}
          </Text>
          {undone.kept.length > 0 && (
            <List size="sm">
              {undone.kept.map((k) => (
                <List.Item key={k._id}>
                  {k.name}: {k.reason}
                </List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
    </Stack>
  );
}
