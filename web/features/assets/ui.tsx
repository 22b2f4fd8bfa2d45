import { Badge, Progress, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { MESSAGES } from '../../../shared/messages.ts';
import { ApiError } from '../../lib/api-client.ts';
import { type FormFailure, formFailureOf } from '../../lib/form-errors.ts';
import type { AreaUnitSystem } from '../../lib/format.ts';
import { STATUS_LABELS } from './api.ts';

const STATUS_COLOURS: Record<string, string> = {
  active: 'green',
  inactive: 'gray',
  sold: 'orange',
  development: 'blue',
};

export function SiteStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={STATUS_COLOURS[status] ?? 'gray'} variant="light">
      {STATUS_LABELS[status as keyof typeof STATUS_LABELS] ?? status}
    </Badge>
  );
}

const BAND_COLOURS: Record<string, string> = {
  A: '#008054',
  B: '#19b459',
  C: '#8dce46',
  D: '#ffd500',
  E: '#fcaa65',
  F: '#ef8023',
  G: '#e9153b',
};

export function EpcBadge({ band }: { band: string | undefined }) {
  if (!band) return null;
  return (
    <Badge color={BAND_COLOURS[band] ?? 'gray'} aria-label={`EPC band ${band}`}>
      EPC {band}
    </Badge>
  );
}

export function AreaUnitToggle({
  value,
  onChange,
}: {
  value: AreaUnitSystem;
  onChange: (v: AreaUnitSystem) => void;
}) {
  return (
    <SegmentedControl
      size="xs"
      aria-label="Floor area unit"
      value={value}
      onChange={(v) => onChange(v as AreaUnitSystem)}
      data={[
        { value: 'metric', label: 'm²' },
        { value: 'imperial', label: 'ft²' },
      ]}
    />
  );
}

export { FormAlert } from '../../components/form-alert.tsx';

/** A form error's own message (the wizard's 'There was a problem with some details entered below.'), not the generic one. */
function headingOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || !error.formMessages || error.status >= 500) return undefined;
  return error.message === MESSAGES.formValidationError ? undefined : error.message;
}

/** What a failed save shows: the fields' messages under `message`, else the form error's own heading. */
export function failureOf(error: unknown, message?: string): FormFailure {
  const f = formFailureOf(error);
  const heading = message ?? headingOf(error) ?? f.message;
  return heading ? { ...f, message: heading } : f;
}

/**
 * A form's failure state: `run` calls the API and, on failure, keeps the per-field messages and the
 * form's message; with `message`, that message heads the form whatever the server said.
 */
export function useFormFailure(message?: string) {
  const [failure, setFailure] = useState<FormFailure>({ fields: {} });
  const [busy, setBusy] = useState(false);
  const run = async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setFailure({ fields: {} });
    try {
      return await action();
    } catch (error) {
      setFailure(failureOf(error, message));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { failure, setFailure, busy, run, fields: failure.fields };
}

/** Upload progress from 0 to 100 (02 §4), with the state of the upload beside it. */
export function UploadProgress({ percent, label }: { percent: number | undefined; label: string }) {
  if (percent === undefined) return null;
  return (
    <Stack gap={4}>
      <Progress value={percent} aria-label={label} animated={percent < 100} />
      <Text size="xs" c="dimmed" data-testid="upload-progress">
        {percent < 100 ? `Uploading… ${percent}%` : 'Uploaded 100%'}
      </Text>
    </Stack>
  );
}
