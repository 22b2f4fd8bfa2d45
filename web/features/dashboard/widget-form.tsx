import { Button, Group, NativeSelect, Paper, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import {
  WIDGET_PERIOD_LABELS,
  WIDGET_PERIODS,
  WIDGET_TYPE_LABELS,
  WIDGET_TYPES,
  type WidgetPeriod,
  type WidgetType,
} from '../../../shared/schemas/dashboard-widgets.ts';
import type { WidgetChoice } from './widgets-api.ts';

/** Title, type and period of a widget: a new one, or one being edited. */
export function WidgetForm({
  heading,
  initial,
  hideCost,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  heading: string;
  initial?: WidgetChoice;
  /** The company hides cost data: no cost widget is offered. */
  hideCost: boolean;
  submitLabel: string;
  onSubmit: (choice: WidgetChoice) => Promise<void>;
  onCancel: () => void;
}) {
  const [type, setType] = useState<WidgetType>(initial?.type ?? 'consumption');
  const [title, setTitle] = useState(initial?.title ?? '');
  const [period, setPeriod] = useState<WidgetPeriod>(initial?.period ?? 'last-12-months');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const types = WIDGET_TYPES.filter((t) => !(hideCost && t === 'cost') || t === initial?.type);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await onSubmit({ type, period, title: title.trim() || WIDGET_TYPE_LABELS[type] });
    } catch (err) {
      setError(err instanceof Error ? err.message : 'There was a problem with submitting.');
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={heading}>
      <Stack gap="sm">
        <Title order={5}>{heading}</Title>
        <Group align="flex-end" grow>
          <NativeSelect
            label="Widget type"
            value={type}
            onChange={(e) => setType(e.currentTarget.value as WidgetType)}
            data={types.map((t) => ({ value: t, label: WIDGET_TYPE_LABELS[t] }))}
          />
          <TextInput
            label="Title"
            placeholder={WIDGET_TYPE_LABELS[type]}
            value={title}
            maxLength={80}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={error}
          />
          <NativeSelect
            label="Period"
            value={period}
            onChange={(e) => setPeriod(e.currentTarget.value as WidgetPeriod)}
            data={WIDGET_PERIODS.map((p) => ({ value: p, label: WIDGET_PERIOD_LABELS[p] }))}
          />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
