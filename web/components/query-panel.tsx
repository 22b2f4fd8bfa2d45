import { Alert, Button, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { EmptyPanel, LoadingPanel } from './page-state.tsx';

/** A read as SWR holds it; `mutate` revalidates it. */
export interface QueryState<T> {
  data?: T;
  error?: unknown;
  isLoading: boolean;
  mutate?: () => unknown;
}

export type QueryView<T> =
  | { kind: 'loading' }
  | { kind: 'error'; message: string }
  | { kind: 'empty' }
  | { kind: 'ready'; data: T };

/**
 * What a read shows. An error wins over data SWR kept from before, so a failed refresh is never shown as
 * current; no data and no error yet is still loading.
 */
export function queryViewOf<T>(query: QueryState<T>, isEmpty?: (data: T) => boolean): QueryView<T> {
  if (query.error) {
    return {
      kind: 'error',
      message: query.error instanceof Error ? query.error.message : String(query.error),
    };
  }
  if (query.data === undefined) return { kind: 'loading' };
  if (isEmpty?.(query.data)) return { kind: 'empty' };
  return { kind: 'ready', data: query.data };
}

/** A read shown as its loader, its error with a retry, its empty message, or its content. */
export function QueryPanel<T>({
  query,
  isEmpty,
  empty,
  errorTitle = 'Could not load this data',
  loadingLabel,
  onRetry,
  children,
}: {
  query: QueryState<T>;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  errorTitle?: string;
  loadingLabel?: string;
  /** Retry reads again through `query.mutate` unless told otherwise. */
  onRetry?: () => unknown;
  children: (data: T) => ReactNode;
}) {
  const view = queryViewOf(query, isEmpty);
  const retry = onRetry ?? query.mutate;
  switch (view.kind) {
    case 'loading':
      return <LoadingPanel label={loadingLabel} />;
    case 'error':
      return (
        <Alert color="red" title={errorTitle} role="alert">
          <Stack gap="xs" align="flex-start">
            {view.message}
            {retry && (
              <Button size="xs" variant="light" color="red" onClick={() => retry()}>
                Retry
              </Button>
            )}
          </Stack>
        </Alert>
      );
    case 'empty':
      return <EmptyPanel>{empty}</EmptyPanel>;
    case 'ready':
      return <>{children(view.data)}</>;
  }
}
