import { ActionIcon, Alert, Button, Group, Paper, Stack, Table } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { EmptyPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { ApiError } from '../../lib/api-client.ts';
import { problemOf } from './template-api.ts';

/** A small red × that removes or deletes the row it stands in. */
export function RemoveIcon({ label, onClick, size }: { label: string; onClick: () => void; size?: 'sm' }) {
  return (
    <ActionIcon size={size} variant="subtle" color="red" aria-label={label} onClick={onClick}>
      ×
    </ActionIcon>
  );
}

export interface Failure {
  fields: Record<string, string>;
  message?: string;
}

/** Field errors from the server beside their inputs; anything else above the form. */
function failureOf(error: unknown, fallback: string): Failure {
  if (error instanceof ApiError && error.formMessages) return { fields: error.formMessages };
  return { fields: {}, message: problemOf(error, fallback) };
}

/** A form's save: busy while it runs, and what went wrong when it failed. */
export function useSave() {
  const [failure, setFailure] = useState<Failure>({ fields: {} });
  const [busy, setBusy] = useState(false);
  async function save(action: () => Promise<unknown>, fallback: string) {
    setBusy(true);
    setFailure({ fields: {} });
    try {
      await action();
    } catch (error) {
      setFailure(failureOf(error, fallback));
    } finally {
      setBusy(false);
    }
  }
  return { failure, busy, save };
}

/** The frame of an item's form, with the problem that is not about one field on top. */
export function ItemForm({ failure, children }: { failure: Failure; children: ReactNode }) {
  return (
    <Paper withBorder p="sm" bg="gray.0">
      <Stack gap="xs">
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        {children}
      </Stack>
    </Paper>
  );
}

/** Which item of a list is being edited (or a new one), and its removal. */
export function useListEditing<T>() {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const done = async () => setEditing(null);
  async function remove(call: () => Promise<unknown>, problem: string) {
    try {
      await call();
    } catch (error) {
      showToast(problemOf(error, problem), 'error');
    }
  }
  return { editing, setEditing, done, remove };
}

/** A row's Edit button and its delete ×. */
export function RowActions({
  onEdit,
  deleteLabel,
  onDelete,
}: {
  onEdit: () => void;
  deleteLabel: string;
  onDelete: () => void;
}) {
  return (
    <Table.Td>
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <Button size="compact-xs" variant="light" onClick={onEdit}>
          Edit
        </Button>
        <RemoveIcon label={deleteLabel} onClick={onDelete} />
      </Group>
    </Table.Td>
  );
}

/**
 * A list of a template's items: a button for a new one, the form of the one being edited, and the items
 * as a table.
 */
export function ItemList({
  editing,
  newLabel,
  newDisabled,
  onNew,
  form,
  emptyText,
  label,
  headers,
  empty,
  children,
}: {
  editing: boolean;
  newLabel: string;
  newDisabled: boolean;
  onNew: () => void;
  form: ReactNode;
  emptyText: string;
  label: string;
  headers: string[];
  empty: boolean;
  children: ReactNode;
}) {
  return (
    <>
      {!editing && (
        <Group>
          <Button onClick={onNew} disabled={newDisabled}>
            {newLabel}
          </Button>
        </Group>
      )}
      {editing && form}
      {empty ? (
        <EmptyPanel>{emptyText}</EmptyPanel>
      ) : (
        <Table aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {headers.map((h) => (
                <Table.Th key={h}>{h}</Table.Th>
              ))}
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{children}</Table.Tbody>
        </Table>
      )}
    </>
  );
}
