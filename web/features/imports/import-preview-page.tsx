import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { DataTable, type DataTableColumn, downloadCsv } from '../../components/data-table.tsx';
import { type PreviewAnswer, type RowOutcome, useFailedRows, useRunPreview, useStartImport } from './api.ts';
import { Totals, WizardSteps } from './import-parts.tsx';

export const OUTCOME_COLUMNS: readonly DataTableColumn<RowOutcome>[] = [
  { key: 'row', label: 'Row', value: (r) => r.row, numeric: true },
  { key: 'outcome', label: 'Outcome', value: (r) => r.outcome },
  { key: 'meter', label: 'Meter', value: (r) => r.meter ?? '' },
  { key: 'field', label: 'Field', value: (r) => r.field ?? '' },
  { key: 'changes', label: 'Changes', value: (r) => r.changes?.join(', ') ?? '' },
  { key: 'reason', label: 'Reason', value: (r) => r.reason ?? '' },
];

/** /imports/wizard/{id}/preview: the whole file judged, nothing written, before the import is started. */
function ImportPreviewSteps() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const runPreview = useRunPreview();
  const startImport = useStartImport();
  const failedRows = useFailedRows();
  const [preview, setPreview] = useState<PreviewAnswer | undefined>();
  const [error, setError] = useState<string | undefined>();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    runPreview(id).then(setPreview, (err: unknown) =>
      setError(err instanceof Error ? err.message : 'There was a problem getting preview data.'),
    );
  }, [id, runPreview]);

  const start = async () => {
    try {
      await startImport(id);
      void navigate(`/imports/wizard/${id}/import`);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'There was a problem.');
    }
  };

  return (
    <Stack>
      <Title order={2}>Preview</Title>
      <WizardSteps step="preview" />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      {!preview && !error && <Text>Checking every row…</Text>}
      {preview && (
        <>
          <Totals totals={preview.totals} />
          <Text size="sm">Nothing has been written yet.</Text>
          <DataTable
            label="Rows"
            columns={OUTCOME_COLUMNS}
            rows={preview.rows}
            rowKey={(r) => String(r.row)}
            empty="The file has no rows to import"
          />
          <Group>
            <Button variant="default" onClick={() => void navigate(`/imports/wizard/${id}/mapping`)}>
              Back to mapping
            </Button>
            {preview.totals.error > 0 && (
              <Button
                variant="default"
                onClick={() => void failedRows(id).then((f) => downloadCsv(f.fileName, f.csv))}
              >
                Download failed rows
              </Button>
            )}
            <Button
              onClick={() => void start()}
              disabled={preview.totals.create + preview.totals.update === 0}
            >
              Import {preview.totals.create + preview.totals.update} rows
            </Button>
          </Group>
        </>
      )}
    </Stack>
  );
}

/** Staff looking into another company are told the wizard is not offered rather than given its forms. */
export function ImportPreviewPage() {
  return (
    <ChangesOnly>
      <ImportPreviewSteps />
    </ChangesOnly>
  );
}
