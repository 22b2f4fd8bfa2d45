import { Alert, Button, Center, Stack } from '@mantine/core';
import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { isChunkLoadError } from '../../lib/chunk-error.ts';
import { reportClientError } from '../../lib/error-reporting.ts';
import { useT } from '../../lib/i18n-context.tsx';
import { SomethingWentWrongPage } from './message-pages.tsx';

export function RouteError() {
  const error = useRouteError();
  const t = useT();
  const chunk = isChunkLoadError(error);
  useEffect(() => {
    // Unknown paths are answers, not faults; a part that failed to load is a new version (01 §8).
    if (!chunk && !isRouteErrorResponse(error)) reportClientError(error, 'render');
  }, [error, chunk]);
  if (chunk) {
    return (
      <Center py={80}>
        <Stack align="center">
          <Alert color="blue" role="alert">
            <Button variant="subtle" onClick={() => window.location.reload()}>
              {t('banner.newVersion')}
            </Button>
          </Alert>
        </Stack>
      </Center>
    );
  }
  return <SomethingWentWrongPage />;
}
