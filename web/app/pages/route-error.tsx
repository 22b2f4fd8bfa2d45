import { Alert, Button, Center, Stack } from '@mantine/core';
import { useRouteError } from 'react-router';
import { MESSAGES } from '../../../shared/messages.ts';
import { isChunkLoadError } from '../../lib/chunk-error.ts';
import { SomethingWentWrongPage } from './message-pages.tsx';

export function RouteError() {
  const error = useRouteError();
  if (isChunkLoadError(error)) {
    return (
      <Center py={80}>
        <Stack align="center">
          <Alert color="blue" role="alert">
            <Button variant="subtle" onClick={() => window.location.reload()}>
              {MESSAGES.newVersion}
            </Button>
          </Alert>
        </Stack>
      </Center>
    );
  }
  return <SomethingWentWrongPage />;
}
