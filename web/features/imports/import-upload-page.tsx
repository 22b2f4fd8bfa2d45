import { Alert, Button, FileInput, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { IMPORT_UPLOAD_MAX_BYTES } from '../../../shared/imports/import-api.ts';
import { IMPORT_TYPES, type ImportType } from '../../../shared/imports/import-mapping.ts';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { putWithProgress } from '../../lib/upload.ts';
import { useImportInfo, useRequestUpload } from './api.ts';
import { typeLabel, WizardSteps } from './import-parts.tsx';

/** /imports/wizard/upload: the kind of data and the file, sent straight to storage with its progress. */
function ImportUploadSteps() {
  const navigate = useNavigate();
  const requestUpload = useRequestUpload();
  const [type, setType] = useState<ImportType>('monthly-consumption');
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [id, setId] = useState<string | undefined>();
  const { data: info } = useImportInfo(id);

  useEffect(() => {
    if (id && info?.fileRead) void navigate(`/imports/wizard/${id}/mapping`);
  }, [id, info?.fileRead, navigate]);

  const upload = async () => {
    if (!file) return;
    setError(undefined);
    if (file.size > IMPORT_UPLOAD_MAX_BYTES) {
      setError('The file is larger than 100 MB');
      return;
    }
    try {
      const ticket = await requestUpload(type, file);
      await putWithProgress(
        { uploadUrl: ticket.url, method: 'PUT', headers: ticket.headers },
        file,
        setProgress,
      );
      setId(ticket.id);
    } catch (err) {
      setProgress(undefined);
      setError(err instanceof Error ? err.message : 'There was a problem getting an upload URL.');
    }
  };

  const failed = info?.status === 'error' ? info.error : undefined;
  return (
    <Stack maw={640}>
      <Title order={2}>Import data</Title>
      <WizardSteps step="upload" />
      <Select
        label="What the file holds"
        data={IMPORT_TYPES.map((t) => ({ value: t, label: typeLabel(t) }))}
        value={type}
        onChange={(v) => v && setType(v as ImportType)}
        allowDeselect={false}
      />
      <FileInput
        label="CSV or XLSX file"
        accept=".csv,.txt,.xlsx"
        value={file}
        onChange={setFile}
        placeholder="Choose a file"
      />
      {progress !== undefined && (
        <Stack gap={4}>
          <Progress value={progress} aria-label="Upload progress" />
          <Text size="sm">{progress < 100 ? `Uploading… ${progress}%` : 'Uploaded; reading the file…'}</Text>
        </Stack>
      )}
      {(error || failed) && (
        <Alert color="red" role="alert">
          {error ?? failed}
        </Alert>
      )}
      <Button onClick={() => void upload()} disabled={!file || (progress !== undefined && !failed && !error)}>
        Upload
      </Button>
    </Stack>
  );
}

/** Staff looking into another company are told the wizard is not offered rather than given its forms. */
export function ImportUploadPage() {
  return (
    <ChangesOnly>
      <ImportUploadSteps />
    </ChangesOnly>
  );
}
