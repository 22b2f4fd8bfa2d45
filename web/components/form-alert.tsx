import { Alert } from '@mantine/core';

/** The message above a form after a failed submit. */
export function FormAlert({ failure }: { failure: { message?: string } }) {
  if (!failure.message) return null;
  return (
    <Alert color="red" role="alert">
      {failure.message}
    </Alert>
  );
}
