import { Alert, Button, Group, Radio, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  IMPORT_FIELDS,
  type ImportMapping,
  type ImportMode,
  isFieldRequired,
  UPDATABLE_IMPORT_KEYS,
} from '../../../shared/imports/import-mapping.ts';
import { DATE_FORMATS, type DateFormat } from '../../../shared/imports/import-values.ts';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { useImportInfo, useSaveMapping } from './api.ts';
import { typeLabel, WizardSteps } from './import-parts.tsx';

const DATE_FORMAT_LABELS: Record<DateFormat, string> = {
  DMY: 'Day first (31/01/2025)',
  MDY: 'Month first (01/31/2025)',
  YMD: 'Year first (2025-01-31)',
};

/** /imports/wizard/{id}/mapping: which column holds which field, as suggested from the file. */
function ImportMappingSteps() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { data: info, error: loadError } = useImportInfo(id);
  const saveMapping = useSaveMapping();
  const [mapping, setMapping] = useState<ImportMapping | undefined>();
  const [templateName, setTemplateName] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    if (!mapping && info?.fileRead) setMapping(info.mapping ?? info.suggested);
  }, [info, mapping]);

  if (loadError) return <Alert color="red">There was a problem getting mapping data.</Alert>;
  if (!info || !mapping) return <Text>Reading the file…</Text>;

  const columns = info.columns.map((c) => ({
    value: String(c.index),
    label: c.name || `Column ${c.index + 1}`,
  }));
  const setColumn = (field: string, value: string | null) => {
    const next = { ...mapping.columns };
    if (value === null) delete next[field];
    else next[field] = Number(value);
    setMapping({ ...mapping, columns: next });
  };

  const updatableBy =
    mapping.type in UPDATABLE_IMPORT_KEYS
      ? UPDATABLE_IMPORT_KEYS[mapping.type as keyof typeof UPDATABLE_IMPORT_KEYS]
      : undefined;

  const save = async () => {
    setError(undefined);
    setProblems({});
    try {
      await saveMapping(id, mapping, templateName.trim() || undefined);
      void navigate(`/imports/wizard/${id}/preview`);
    } catch (err) {
      const form = (err as { formMessages?: Record<string, string> }).formMessages ?? {};
      setProblems(Object.fromEntries(Object.entries(form).map(([k, v]) => [k.replace(/^mapping\./, ''), v])));
      setError(err instanceof Error ? err.message : 'There was a problem.');
    }
  };

  return (
    <Stack>
      <Title order={2}>Map columns</Title>
      <WizardSteps step="mapping" />
      <Text>
        {typeLabel(mapping.type)}
        {info.fileKind === 'xlsx' && info.sheet ? `, sheet ${info.sheet}` : ''}
        {info.encoding ? `, ${info.encoding}` : ''}
      </Text>
      {info.templates.length > 0 && (
        <Alert color="blue">
          Saved template used for this header: {info.templates.map((t) => t.name).join(', ')}
        </Alert>
      )}
      {updatableBy && (
        <Radio.Group
          label="Rows that match an existing item"
          description={`Matched by ${updatableBy}`}
          value={mapping.mode ?? 'create'}
          onChange={(v) => setMapping({ ...mapping, mode: v as ImportMode })}
        >
          <Group mt="xs">
            <Radio value="create" label="Create new only" />
            <Radio value="upsert" label="Update existing, create new" />
          </Group>
        </Radio.Group>
      )}
      <Group align="flex-start">
        {IMPORT_FIELDS[mapping.type].map((field) => (
          <Select
            key={field.name}
            label={field.label}
            required={isFieldRequired(mapping, field)}
            data={columns}
            value={mapping.columns[field.name] === undefined ? null : String(mapping.columns[field.name])}
            onChange={(v) => setColumn(field.name, v)}
            clearable={!isFieldRequired(mapping, field)}
            error={problems[field.name]}
            w={220}
          />
        ))}
        <Select
          label="Dates are written"
          data={DATE_FORMATS.map((f) => ({ value: f, label: DATE_FORMAT_LABELS[f] }))}
          value={mapping.dateFormat}
          onChange={(v) => v && setMapping({ ...mapping, dateFormat: v as DateFormat })}
          allowDeselect={false}
          w={220}
        />
      </Group>
      {mapping.type === 'half-hourly-wide' && (
        <Text c={problems.periodColumns ? 'red' : undefined}>
          {problems.periodColumns ?? `${mapping.periodColumns?.length ?? 0} half-hour columns found`}
        </Text>
      )}
      <Table.ScrollContainer minWidth={600}>
        <Table aria-label="Sample rows" striped>
          <Table.Thead>
            <Table.Tr>
              {info.columns.map((c) => (
                <Table.Th key={c.index}>{c.name}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {info.samples.map((row, r) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: sample rows have no identity but their place
              <Table.Tr key={r}>
                {info.columns.map((c) => (
                  <Table.Td key={c.index}>{row[c.index] ?? ''}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <TextInput
        label="Save as a template (optional)"
        description="Offered again when a file with the same columns is imported"
        value={templateName}
        onChange={(e) => setTemplateName(e.currentTarget.value)}
        maw={400}
      />
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group>
        <Button onClick={() => void save()}>Preview</Button>
      </Group>
    </Stack>
  );
}

/** Staff looking into another company are told the wizard is not offered rather than given its forms. */
export function ImportMappingPage() {
  return (
    <ChangesOnly>
      <ImportMappingSteps />
    </ChangesOnly>
  );
}
