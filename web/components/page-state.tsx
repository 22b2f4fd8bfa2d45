import { Alert, Center, Loader, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One loading/error/empty panel for every data view. */
export function LoadingPanel({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-label={label}>
      <Loader size="sm" />
    </Center>
  );
}

export function ErrorPanel({
  error,
  title = 'Could not load this data',
}: {
  error: unknown;
  title?: string;
}) {
  const message = error instanceof Error ? error.message : String(error);
  return (
    <Alert color="red" title={title} role="alert">
      {message}
    </Alert>
  );
}

export function EmptyPanel({ children }: { children: ReactNode }) {
  return (
    <Text c="dimmed" ta="center" py="md">
      {children}
    </Text>
  );
}

export function FullPageLoader() {
  return (
    <Center h="100vh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}
