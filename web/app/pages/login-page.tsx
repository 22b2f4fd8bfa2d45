import { Center, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { MESSAGES } from '../../../shared/messages.ts';
import { useServices } from '../../lib/app-context.tsx';
import { safeReturnUrl, scheduleLoginRedirect } from '../../lib/login-redirect.ts';

/** Waits 3 seconds, then sends the browser to the identity provider, keeping the return URL (01 §2.1). */
export function LoginPage() {
  const { auth } = useServices();
  const [params] = useSearchParams();
  const returnUrl = safeReturnUrl(params.get('returnUrl'));
  useEffect(() => scheduleLoginRedirect(() => void auth.signIn(returnUrl)), [auth, returnUrl]);
  return (
    <Center h="100vh">
      <Text size="lg">{MESSAGES.redirecting}</Text>
    </Center>
  );
}
