import { Paper, Stack, Title, type TitleOrder } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { FormAlert } from './form-alert.tsx';

/**
 * A form in a bordered panel: its heading (if any), the message of a failed submit, then its fields. The browser's
 * own submit is stopped, and the checks are left to the server's formMessages.
 */
export function FormPanel({
  title,
  order = 4,
  label,
  maw,
  gap,
  failure,
  onSubmit,
  children,
}: {
  title?: ReactNode;
  order?: TitleOrder;
  /** The form's accessible name. */
  label?: string;
  maw?: number;
  gap?: string;
  failure: { message?: string };
  onSubmit: () => unknown;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} maw={maw} noValidate aria-label={label}>
      <Stack gap={gap}>
        {title !== undefined && <Title order={order}>{title}</Title>}
        <FormAlert failure={failure} />
        {children}
      </Stack>
    </Paper>
  );
}
