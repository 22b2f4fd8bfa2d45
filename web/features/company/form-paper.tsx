import { Alert, Paper, Stack } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import type { FormFailure } from '../../lib/form-errors.ts';

/** A bordered form named by its aria-label, with the failure that belongs to no one field shown above it. */
export function FormPaper({
  label,
  maw,
  failure,
  onSubmit,
  children,
}: {
  label: string;
  maw: number;
  failure: FormFailure;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="form" onSubmit={onSubmit} noValidate maw={maw} aria-label={label}>
      <Stack>
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
