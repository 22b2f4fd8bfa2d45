import { Anchor, Group, Paper, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { ENTITY_IMPORT_COLUMNS, importTemplateHeader } from '../../../shared/schemas/register-imports.ts';
import { CsvImport } from '../../components/csv-import.tsx';
import { useImportEntities, useRollbackEntityImport } from './api.ts';

/** /entities/import: a CSV of entities, parents named by legal name or id; undone from here too. */
export function EntityImportPage() {
  const importEntities = useImportEntities();
  const rollbackImport = useRollbackEntityImport();
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
          onImport={importEntities}
          onRollback={rollbackImport}
        />
      </Paper>
    </Stack>
  );
}
