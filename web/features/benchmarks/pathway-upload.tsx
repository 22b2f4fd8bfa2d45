import {
  Alert,
  Button,
  Checkbox,
  FileInput,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useUploadPathways } from './api.ts';

/** Staff load a pathway set from CRREM's workbook, exported as CSV (country, property type, year, kWh/m², kgCO2e/m²). */
export function PathwayUploadPanel() {
  const upload = useUploadPathways();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [version, setVersion] = useState('');
  const [source, setSource] = useState('');
  const [illustrative, setIllustrative] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (!file) return;
    setBusy(true);
    setMessage(undefined);
    try {
      const set = await upload({ name, version, source, illustrative, csv: await file.text() });
      setMessage({ ok: true, text: `Loaded ${set.name} (${set.version}).` });
    } catch (e) {
      setMessage({ ok: false, text: e instanceof Error ? e.message : 'The pathways could not be loaded' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md">
      <Stack gap="xs">
        <Title order={4}>Load a pathway set</Title>
        <Text size="sm" c="dimmed">
          CRREM's pathways are licensed: load the set your licence covers, one row per country, property type
          and year (kWh/m², kgCO2e/m², and optionally the grid factor in kgCO2e/kWh).
        </Text>
        <Group align="end">
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required />
          <TextInput
            label="Version"
            value={version}
            onChange={(e) => setVersion(e.currentTarget.value)}
            required
          />
          <TextInput
            label="Source"
            value={source}
            onChange={(e) => setSource(e.currentTarget.value)}
            required
          />
          <FileInput label="Pathway CSV" accept=".csv,text/csv" value={file} onChange={setFile} clearable />
        </Group>
        <Checkbox
          label="Illustrative figures (not a published set)"
          checked={illustrative}
          onChange={(e) => setIllustrative(e.currentTarget.checked)}
        />
        {message && (
          <Alert color={message.ok ? 'green' : 'red'} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </Alert>
        )}
        <Group>
          <Button onClick={submit} loading={busy} disabled={!file || !name || !version || !source}>
            Load pathways
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
