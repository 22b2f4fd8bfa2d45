import { Button, Group, Stack, Text } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { type FormFailure, formFailureOf } from '../lib/submit-failure.ts';

/**
 * A form's submit state: `submit` clears the last failure and marks the form busy while `action` runs;
 * a failure keeps the server's field messages, else `fallback` above the form.
 */
export function useFormSubmit(fallback?: string) {
  const [failure, setFailure] = useState<FormFailure>({ fields: {} });
  const [busy, setBusy] = useState(false);
  const submit = async (action: () => Promise<void>, onFailure?: () => void) => {
    setBusy(true);
    setFailure({ fields: {} });
    try {
      await action();
    } catch (error) {
      setFailure(formFailureOf(error, fallback));
      onFailure?.();
    } finally {
      setBusy(false);
    }
  };
  return { failure, setFailure, busy, submit, fields: failure.fields };
}

/** A file picked for a presigned upload, with the upload's progress and the server's message about it. */
export function UploadField({
  id,
  label,
  accept,
  invalid,
  progress,
  error,
  onChange,
}: {
  id: string;
  label: ReactNode;
  accept: string;
  invalid?: boolean;
  progress: number | null;
  error: string | undefined;
  onChange: (file: File | null) => void;
}) {
  return (
    <Stack gap={4}>
      <Text component="label" htmlFor={id} size="sm" fw={500}>
        {label}
      </Text>
      <input
        id={id}
        type="file"
        accept={accept}
        aria-invalid={invalid ? true : undefined}
        onChange={(e) => onChange(e.currentTarget.files?.[0] ?? null)}
      />
      {progress !== null && (
        <Group gap="xs">
          <progress value={progress} max={100} aria-label="Upload progress" style={{ flex: 1 }} />
          <Text size="xs">{progress === 100 ? 'Uploaded' : `Uploading ${progress}%`}</Text>
        </Group>
      )}
      {error && (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

export function CheckboxLine({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label style={{ display: 'flex', gap: 8, alignItems: 'center', fontSize: 14 }}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.currentTarget.checked)} />
      {children}
    </label>
  );
}

/** Cancel and submit, at the foot of a form shown in place. */
export function FormButtons({
  busy,
  onCancel,
  children,
}: {
  busy: boolean;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} disabled={busy}>
        Cancel
      </Button>
      <Button type="submit" loading={busy}>
        {children}
      </Button>
    </Group>
  );
}
