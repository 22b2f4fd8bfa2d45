import { Alert, Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { DataTable } from '../../components/data-table.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useMayChange } from '../../lib/may-change.ts';
import { useImport, useImportItems, useStartRollback } from './api.ts';
import { StatusBadge, Totals, typeLabel, WizardSteps } from './import-parts.tsx';
import { OUTCOME_COLUMNS } from './import-preview-page.tsx';

/**
 * /imports/wizard/{id}/import and /imports/{id}/detail: the import's progress as the worker reports it
 * over the live connection, its results, and its rollback.
 */
export function ImportRunPage() {
  const { id = '' } = useParams();
  const inWizard = useLocation().pathname.startsWith('/imports/wizard');
  const { data: state, error: loadError } = useImport(id);
  const startRollback = useStartRollback();
  const mayChange = useMayChange();
  const [error, setError] = useState<string | undefined>();
  const done = state?.status === 'completed' || state?.status === 'rolled-back';
  const { data: items } = useImportItems(
    done ? id : undefined,
    state?.status === 'rolled-back' ? 'rollback' : 'import',
  );

  // Another company's import, or one the user may not read, is answered 404: say so rather than "a problem".
  if (loadError)
    return (
      <Alert color="red" role="alert">
        {loadError instanceof ApiError && loadError.status === 404
          ? 'This import was not found.'
          : 'There was a problem getting import data.'}
      </Alert>
    );
  if (!state) return <Text>Loading…</Text>;

  const rollback = async () => {
    try {
      await startRollback(id);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'There was a problem.');
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{state.fileName ?? 'Import'}</Title>
        <StatusBadge status={state.status} />
      </Group>
      {inWizard && <WizardSteps step="import" />}
      <Text>{typeLabel(state.type)}</Text>
      {state.status === 'processing' && (
        <Stack gap={4}>
          <Progress value={state.progress} aria-label="Import progress" animated />
          <Text size="sm">{state.progress}%</Text>
        </Stack>
      )}
      {state.error && (
        <Alert color="red" role="alert">
          {state.error}
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {state.results && <Totals totals={state.results} />}
      {state.rollback && (
        <Text>
          Rolled back: {state.rollback.removed} removed, {state.rollback.restored} restored,{' '}
          {state.rollback.kept} kept because they were changed after the import
        </Text>
      )}
      {done && (
        <DataTable
          label={state.status === 'rolled-back' ? 'Rows kept' : 'Rows'}
          columns={OUTCOME_COLUMNS}
          rows={items?.rows}
          rowKey={(r) => `${r.row}-${r.reason ?? ''}`}
          empty="No rows"
        />
      )}
      {state.status === 'completed' && mayChange && (
        <Group>
          <Button color="red" variant="light" onClick={() => void rollback()}>
            Roll back this import
          </Button>
        </Group>
      )}
    </Stack>
  );
}
