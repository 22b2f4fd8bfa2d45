import {
  Alert,
  Button,
  Group,
  NativeSelect,
  NumberInput,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import {
  RATE_COLUMNS,
  type RateColumn,
  type Template,
  type TemplateBound,
  type TemplateRate,
  type TemplateValue,
  type TemplateValueType,
} from '../../../shared/capture/model.ts';
import {
  type InvoiceKeyOption,
  TEMPLATE_MESSAGES,
  useDeleteTemplateRate,
  useDeleteTemplateValue,
  useInvoiceKeys,
  useSaveTemplateRate,
  useSaveTemplateValue,
  useValueFormats,
  type ValueFormats,
} from './template-api.ts';
import { ItemForm, ItemList, RemoveIcon, RowActions, useListEditing, useSave } from './template-list.tsx';

const TYPES: TemplateValueType[] = ['text', 'number', 'price', 'date', 'boolean'];

function formatsFor(formats: ValueFormats | undefined, type: TemplateValueType): string[] {
  if (!formats) return [];
  if (type === 'price') return formats.formats.price.map((f) => f.value);
  if (type === 'date') return formats.formats.date.map((f) => f.value);
  if (type === 'number') return formats.formats.number.map((f) => f.value);
  return [];
}

const COLUMN_TYPES: Record<RateColumn, TemplateValueType> = {
  description: 'text',
  units: 'number',
  unitRate: 'price',
  amount: 'price',
  unit: 'text',
  startDate: 'date',
  endDate: 'date',
};

const COLUMN_NAMES: Record<RateColumn, string> = {
  description: 'Description',
  units: 'Units',
  unitRate: 'Unit rate',
  amount: 'Amount',
  unit: 'Unit',
  startDate: 'From',
  endDate: 'To',
};

interface ValueDraft {
  key: string;
  boundId: string;
  type: TemplateValueType;
  format: string;
  regex: string;
}

function ValueForm({
  template,
  versionId,
  bounds,
  keys,
  value,
  onDone,
}: {
  template: Template;
  versionId: string;
  bounds: TemplateBound[];
  keys: InvoiceKeyOption[];
  value?: TemplateValue;
  onDone: () => Promise<unknown>;
}) {
  const saveValue = useSaveTemplateValue(template._id);
  const { data: formats } = useValueFormats();
  const first = keys[0];
  const [draft, setDraft] = useState<ValueDraft>({
    key: value?.key ?? first?.key ?? '',
    boundId: value?.boundId ?? bounds[0]?._id ?? '',
    type: value?.type ?? first?.type ?? 'text',
    format: value?.format ?? '',
    regex: value?.regex ?? '',
  });
  const { failure, busy, save } = useSave();
  const typeOfKey = (key: string) => keys.find((k) => k.key === key)?.type ?? 'text';
  const set = (patch: Partial<ValueDraft>) => setDraft((d) => ({ ...d, ...patch }));

  async function submit() {
    const body = {
      versionId,
      key: draft.key,
      boundId: draft.boundId,
      type: draft.type,
      ...(draft.format ? { format: draft.format } : value?.format ? { format: null } : {}),
      ...(draft.regex ? { regex: draft.regex } : value?.regex ? { regex: null } : {}),
    };
    await save(
      async () => {
        await saveValue(body, value?._id);
        await onDone();
      },
      value ? TEMPLATE_MESSAGES.updateValue : TEMPLATE_MESSAGES.addValue,
    );
  }

  const formatOptions = formatsFor(formats, draft.type);
  return (
    <ItemForm failure={failure}>
      <Group grow align="flex-start">
        <NativeSelect
          label="Key"
          value={draft.key}
          data={keys.map((k) => ({ value: k.key, label: k.name }))}
          onChange={(e) => {
            const key = e.currentTarget.value;
            set({ key, type: typeOfKey(key), format: '' });
          }}
          error={failure.fields.key}
        />
        <NativeSelect
          label="Bound"
          value={draft.boundId}
          data={[{ value: '', label: '—' }, ...bounds.map((b) => ({ value: b._id, label: b.name }))]}
          onChange={(e) => set({ boundId: e.currentTarget.value })}
          error={failure.fields.boundId}
        />
      </Group>
      <Group grow align="flex-start">
        <NativeSelect
          label="Type"
          value={draft.type}
          data={TYPES}
          onChange={(e) => set({ type: e.currentTarget.value as TemplateValueType, format: '' })}
          error={failure.fields.type}
        />
        <NativeSelect
          label="Format"
          value={draft.format}
          data={[{ value: '', label: formatOptions.length ? 'Any' : 'None' }, ...formatOptions]}
          disabled={formatOptions.length === 0}
          onChange={(e) => set({ format: e.currentTarget.value })}
          error={failure.fields.format}
        />
      </Group>
      <TextInput
        label="Regular expression (optional)"
        description="Applied to the bound's text: the first group, or the whole match, is the value"
        value={draft.regex}
        onChange={(e) => set({ regex: e.currentTarget.value })}
        error={failure.fields.regex}
      />
      <Group justify="flex-end">
        <Button variant="subtle" onClick={() => onDone()}>
          Cancel
        </Button>
        <Button onClick={submit} loading={busy} disabled={!draft.key || !draft.boundId}>
          {value ? 'Save value' : 'Add value'}
        </Button>
      </Group>
    </ItemForm>
  );
}

/** The values a template reads, each from a bound of the version, with its type and format. */
export function ValuesPanel({
  template,
  versionId,
  refresh,
}: {
  template: Template;
  versionId: string;
  refresh: () => Promise<unknown>;
}) {
  const { data: keyList, error: keyError } = useInvoiceKeys();
  const { editing, setEditing, done, remove } = useListEditing<TemplateValue>();
  const deleteValue = useDeleteTemplateValue(template._id);
  const bounds = template.bounds.filter((b) => b.versionId === versionId);
  const values = template.values.filter((v) => v.versionId === versionId);
  const keys = keyList?.data ?? [];
  const keyName = (key: string) => keys.find((k) => k.key === key)?.name ?? key;
  const boundName = (id: string) => bounds.find((b) => b._id === id)?.name ?? id;
  return (
    <Stack gap="sm">
      {keyError && <Alert color="red">{TEMPLATE_MESSAGES.invoiceKeys}</Alert>}
      {bounds.length === 0 && (
        <Text size="sm" c="dimmed">
          Draw a bound on the sample first: each value is read from one.
        </Text>
      )}
      <ItemList
        editing={editing !== null}
        newLabel="New value"
        newDisabled={bounds.length === 0 || keys.length === 0}
        onNew={() => setEditing('new')}
        form={
          editing !== null &&
          keys.length > 0 && (
            <ValueForm
              key={editing === 'new' ? 'new' : editing._id}
              template={template}
              versionId={versionId}
              bounds={bounds}
              keys={keys}
              value={editing === 'new' ? undefined : editing}
              onDone={done}
            />
          )
        }
        emptyText="No values yet."
        label="Values"
        headers={['Key', 'Bound', 'Type', 'Format']}
        empty={values.length === 0}
      >
        {values.map((v) => (
          <Table.Tr key={v._id}>
            <Table.Td>{keyName(v.key)}</Table.Td>
            <Table.Td>{boundName(v.boundId)}</Table.Td>
            <Table.Td>{v.type}</Table.Td>
            <Table.Td>{v.format ?? '—'}</Table.Td>
            <RowActions
              onEdit={() => setEditing(v)}
              deleteLabel={`Delete value ${keyName(v.key)}`}
              onDelete={() => remove(() => deleteValue(v._id), TEMPLATE_MESSAGES.deleteValue)}
            />
          </Table.Tr>
        ))}
      </ItemList>
    </Stack>
  );
}

interface ColumnDraft {
  field: RateColumn;
  left: number;
  right: number;
  format: string;
}

function RateForm({
  template,
  versionId,
  bounds,
  rate,
  onDone,
}: {
  template: Template;
  versionId: string;
  bounds: TemplateBound[];
  rate?: TemplateRate;
  onDone: () => Promise<unknown>;
}) {
  const saveRate = useSaveTemplateRate(template._id);
  const { data: formats } = useValueFormats();
  const [boundId, setBoundId] = useState(rate?.boundId ?? bounds[0]?._id ?? '');
  const [skipRegex, setSkipRegex] = useState(rate?.skipRegex ?? '');
  const [columns, setColumns] = useState<ColumnDraft[]>(
    rate?.columns.map((c) => ({ ...c, format: c.format ?? '' })) ?? [
      { field: 'description', left: 0, right: 0.5, format: '' },
      { field: 'amount', left: 0.8, right: 1, format: '' },
    ],
  );
  const { failure, busy, save } = useSave();
  const setColumn = (i: number, patch: Partial<ColumnDraft>) =>
    setColumns((cs) => cs.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const unused = RATE_COLUMNS.filter((f) => !columns.some((c) => c.field === f));

  async function submit() {
    const body = {
      versionId,
      boundId,
      columns: columns.map((c) => ({
        field: c.field,
        left: c.left,
        right: c.right,
        ...(c.format ? { format: c.format } : {}),
      })),
      ...(skipRegex ? { skipRegex } : rate?.skipRegex ? { skipRegex: null } : {}),
    };
    await save(
      async () => {
        await saveRate(body, rate?._id);
        await onDone();
      },
      rate ? TEMPLATE_MESSAGES.updateRate : TEMPLATE_MESSAGES.addRate,
    );
  }

  const columnError = (i: number) =>
    Object.entries(failure.fields)
      .filter(([k]) => k.startsWith(`columns.${i}.`))
      .map(([, m]) => m)
      .join(' ');
  return (
    <ItemForm failure={failure}>
      <Group grow align="flex-start">
        <NativeSelect
          label="Bound"
          value={boundId}
          data={[{ value: '', label: '—' }, ...bounds.map((b) => ({ value: b._id, label: b.name }))]}
          onChange={(e) => setBoundId(e.currentTarget.value)}
          error={failure.fields.boundId}
        />
        <TextInput
          label="Skip rows matching (optional)"
          value={skipRegex}
          onChange={(e) => setSkipRegex(e.currentTarget.value)}
          error={failure.fields.skipRegex}
        />
      </Group>
      <Text size="sm" fw={500}>
        Columns (left and right edges as fractions of the page width)
      </Text>
      {columns.map((c, i) => {
        const options = formatsFor(formats, COLUMN_TYPES[c.field]);
        return (
          <Stack key={c.field} gap={2}>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <NativeSelect
                aria-label={`Column ${i + 1} field`}
                value={c.field}
                data={[c.field, ...unused].map((f) => ({ value: f, label: COLUMN_NAMES[f] }))}
                onChange={(e) => setColumn(i, { field: e.currentTarget.value as RateColumn, format: '' })}
              />
              {(['left', 'right'] as const).map((edge) => (
                <NumberInput
                  key={edge}
                  aria-label={`Column ${i + 1} ${edge}`}
                  value={c[edge]}
                  min={0}
                  max={1}
                  step={0.01}
                  decimalScale={4}
                  w={90}
                  onChange={(v) => setColumn(i, { [edge]: Number(v) || 0 })}
                />
              ))}
              <NativeSelect
                aria-label={`Column ${i + 1} format`}
                value={c.format}
                disabled={options.length === 0}
                data={[{ value: '', label: options.length ? 'Any' : 'None' }, ...options]}
                onChange={(e) => setColumn(i, { format: e.currentTarget.value })}
              />
              <RemoveIcon
                label={`Remove column ${i + 1}`}
                onClick={() => setColumns((cs) => cs.filter((_c, j) => j !== i))}
              />
            </Group>
            {columnError(i) && (
              <Text size="xs" c="red">
                {columnError(i)}
              </Text>
            )}
          </Stack>
        );
      })}
      {failure.fields.columns && (
        <Text size="xs" c="red">
          {failure.fields.columns}
        </Text>
      )}
      <Group justify="space-between">
        <Button
          variant="light"
          size="compact-sm"
          disabled={unused.length === 0}
          onClick={() => {
            const field = unused[0];
            if (field) setColumns((cs) => [...cs, { field, left: 0, right: 1, format: '' }]);
          }}
        >
          Add column
        </Button>
        <Group>
          <Button variant="subtle" onClick={() => onDone()}>
            Cancel
          </Button>
          <Button onClick={submit} loading={busy} disabled={!boundId || columns.length === 0}>
            {rate ? 'Save rate' : 'Add rate'}
          </Button>
        </Group>
      </Group>
    </ItemForm>
  );
}

/** Charge lines: each rate reads the rows of a bound as a table, column by column. */
export function RatesPanel({
  template,
  versionId,
  refresh,
}: {
  template: Template;
  versionId: string;
  refresh: () => Promise<unknown>;
}) {
  const { editing, setEditing, done, remove } = useListEditing<TemplateRate>();
  const deleteRate = useDeleteTemplateRate(template._id);
  const bounds = template.bounds.filter((b) => b.versionId === versionId);
  const rates = template.rates.filter((r) => r.versionId === versionId);
  const boundName = (id: string) => bounds.find((b) => b._id === id)?.name ?? id;
  return (
    <Stack gap="sm">
      <ItemList
        editing={editing !== null}
        newLabel="New rate"
        newDisabled={bounds.length === 0}
        onNew={() => setEditing('new')}
        form={
          editing !== null && (
            <RateForm
              key={editing === 'new' ? 'new' : editing._id}
              template={template}
              versionId={versionId}
              bounds={bounds}
              rate={editing === 'new' ? undefined : editing}
              onDone={done}
            />
          )
        }
        emptyText="No rates yet."
        label="Rates"
        headers={['Bound', 'Columns', 'Skips']}
        empty={rates.length === 0}
      >
        {rates.map((r, i) => (
          <Table.Tr key={r._id}>
            <Table.Td>{boundName(r.boundId)}</Table.Td>
            <Table.Td>{r.columns.map((c) => COLUMN_NAMES[c.field]).join(', ')}</Table.Td>
            <Table.Td>{r.skipRegex ?? '—'}</Table.Td>
            <RowActions
              onEdit={() => setEditing(r)}
              deleteLabel={`Delete rate ${i + 1}`}
              onDelete={() => remove(() => deleteRate(r._id), TEMPLATE_MESSAGES.deleteRate)}
            />
          </Table.Tr>
        ))}
      </ItemList>
    </Stack>
  );
}
