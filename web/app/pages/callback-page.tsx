import { Alert, Anchor, Center, Stack } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { FullPageLoader } from '../../components/page-state.tsx';
import { useServices } from '../../lib/app-context.tsx';

/** Completes the authorization code exchange and returns to the page kept at sign-in. */
export function CallbackPage() {
  const { auth } = useServices();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    auth.completeSignIn().then(
      (returnUrl) => navigate(returnUrl, { replace: true }),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  }, [auth, navigate]);
  if (!error) return <FullPageLoader />;
  return (
    <Center h="100vh">
      <Stack maw={480}>
        <Alert color="red" title="Sign-in could not be completed" role="alert">
          {error}
        </Alert>
        <Anchor component={Link} to="/login" ta="center">
          Sign in again
        </Anchor>
      </Stack>
    </Center>
  );
}
