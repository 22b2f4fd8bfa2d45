import {
  Alert,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import type { InvoiceKey } from '../../../shared/capture/model.ts';
import { ApiError } from '../../lib/api-client.ts';
import { formatNumber } from '../../lib/format.ts';
import type { ExtractedValueView, InvoiceView } from './api.ts';
import { checkDrafts, type Drafts, inputOf, VALUE_FIELDS, type ValueField } from './invoice-values.ts';
import { INVOICE_MESSAGES } from './messages.ts';

/** Field messages of a refused save, keyed by value ('values.consumption' and 'consumption' alike). */
function fieldMessagesOf(error: unknown): Partial<Record<InvoiceKey, string>> {
  if (!(error instanceof ApiError) || !error.formMessages) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(error.formMessages)) out[k.replace(/^values\./, '')] = v;
  return out;
}

function readNote(read: ExtractedValueView | undefined): string | undefined {
  if (!read) return undefined;
  const parts = [
    read.text ? `Read as “${read.text}”` : 'Read',
    read.page ? `on page ${read.page}` : undefined,
    read.confidence !== undefined
      ? `${formatNumber(read.confidence, { maximumFractionDigits: 0 })}% sure`
      : undefined,
  ];
  return parts.filter(Boolean).join(' ');
}

function ValueInput({
  field,
  value,
  error,
  read,
  focused,
  disabled,
  onChange,
  onFocus,
}: {
  field: ValueField;
  value: string;
  error: string | undefined;
  read: ExtractedValueView | undefined;
  focused: boolean;
  disabled: boolean;
  onChange: (v: string) => void;
  onFocus: () => void;
}) {
  const doubtful = read?.confidence !== undefined && read.confidence < 80;
  const common = {
    label: field.label,
    error,
    disabled,
    onFocus,
    description: focused ? readNote(read) : undefined,
    styles: doubtful && !error ? { input: { borderColor: 'var(--mantine-color-yellow-6)' } } : undefined,
  };
  if (field.type === 'boolean')
    return (
      <NativeSelect
        {...common}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        data={[
          { value: '', label: '—' },
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]}
      />
    );
  return (
    <TextInput
      {...common}
      type={field.type === 'date' ? 'date' : 'text'}
      inputMode={field.type === 'text' || field.type === 'date' ? undefined : 'decimal'}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
}

/**
 * The invoice's values, each in an input of its type (dates, numbers, prices); focusing one outlines on
 * the document where it was read. Only changed values are sent.
 */
export function InvoiceValuesForm({
  invoice,
  focused,
  onFocus,
  onSave,
  saving,
  onDirty,
  readOnly = false,
}: {
  invoice: InvoiceView;
  focused: InvoiceKey | undefined;
  onFocus: (key: InvoiceKey) => void;
  onSave: (changes: Record<string, unknown>) => Promise<{ ok: true } | { ok: false; error: unknown }>;
  saving: boolean;
  onDirty: (dirty: boolean) => void;
  /** Shown but not editable (staff looking into another company). */
  readOnly?: boolean;
}) {
  const [drafts, setDrafts] = useState<Drafts>({});
  const [errors, setErrors] = useState<Partial<Record<InvoiceKey, string>>>({});
  const [message, setMessage] = useState<string>();
  const values = invoice.values ?? {};
  const reads = invoice.results?.values ?? {};
  const completed = invoice.completed === true;
  const locked = completed || readOnly;
  const { changes, errors: unreadable } = checkDrafts(values, drafts);
  const dirty = Object.keys(changes).length > 0 || Object.keys(unreadable).length > 0;

  const edit = (key: InvoiceKey, text: string) => {
    const next = { ...drafts, [key]: text };
    setDrafts(next);
    setErrors(({ [key]: _gone, ...rest }) => rest);
    const check = checkDrafts(values, next);
    onDirty(Object.keys(check.changes).length > 0 || Object.keys(check.errors).length > 0);
  };

  async function save() {
    setMessage(undefined);
    if (Object.keys(unreadable).length > 0) {
      setErrors(unreadable);
      return;
    }
    if (Object.keys(changes).length === 0) return;
    const result = await onSave(changes);
    if (result.ok) {
      setDrafts({});
      setErrors({});
      onDirty(false);
      return;
    }
    const fields = fieldMessagesOf(result.error);
    setErrors(fields);
    if (Object.keys(fields).length === 0) setMessage(INVOICE_MESSAGES.updateProblem);
  }

  return (
    <Paper
      withBorder
      p="md"
      component="form"
      aria-label="Invoice values"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>Values</Title>
          {!locked && (
            <Group gap="xs">
              {dirty && (
                <Button
                  size="xs"
                  variant="subtle"
                  onClick={() => {
                    setDrafts({});
                    setErrors({});
                    onDirty(false);
                  }}
                >
                  Undo changes
                </Button>
              )}
              <Button size="xs" type="submit" loading={saving} disabled={!dirty}>
                Save values
              </Button>
            </Group>
          )}
        </Group>
        {completed && (
          <Text size="sm" c="dimmed">
            This invoice is completed; its values can no longer be changed.
          </Text>
        )}
        {message && (
          <Alert color="red" role="alert">
            {message}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
          {VALUE_FIELDS.map((field) => (
            <ValueInput
              key={field.key}
              field={field}
              value={drafts[field.key] ?? inputOf(field.type, values[field.key])}
              error={errors[field.key]}
              read={reads[field.key]}
              focused={focused === field.key}
              disabled={locked}
              onChange={(v) => edit(field.key, v)}
              onFocus={() => onFocus(field.key)}
            />
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
