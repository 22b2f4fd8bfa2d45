import { Anchor, Group, Paper, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useSWRConfig } from 'swr';
import {
  ENTITY_IMPORT_COLUMNS,
  type ImportResult,
  type ImportRollbackResult,
  importTemplateHeader,
} from '../../../shared/schemas/register-imports.ts';
import { CsvImport } from '../../components/csv-import.tsx';
import { useApi } from '../../lib/app-context.tsx';
import { isEntityKey } from './api.ts';

/** /entities/import: a CSV of entities, parents named by legal name or id; undone from here too. */
export function EntityImportPage() {
  const api = useApi();
  const { mutate } = useSWRConfig();
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Import entities</Title>
        <Anchor component={Link} to="/entities">
          Back to entities
        </Anchor>
      </Group>
      <Paper withBorder p="md">
        <CsvImport
          noun={{ one: 'entity', many: 'entities' }}
          columns={importTemplateHeader(ENTITY_IMPORT_COLUMNS)}
          onImport={async (file) => {
            const result = await api.post<ImportResult>('/entities/import', file);
            await mutate(isEntityKey);
            return result;
          }}
          onRollback={async (batchId) => {
            const result = await api.post<ImportRollbackResult>('/entities/import-rollback', { batchId });
            await mutate(isEntityKey);
            return result;
          }}
        />
      </Paper>
    </Stack>
  );
}
