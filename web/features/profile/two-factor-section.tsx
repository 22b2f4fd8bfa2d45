import { Badge, Button, Code, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useT } from '../../lib/i18n-context.tsx';
import {
  errorMessage,
  groupSecret,
  isMissingRoute,
  type TotpEnrolment,
  useMfaStatus,
  useRemoveTotp,
  useStartTotp,
  useVerifyTotp,
} from './profile-api.ts';
import { QrCode } from './qr-code.tsx';

function Enrolment({ enrolment, onDone }: { enrolment: TotpEnrolment; onDone: () => Promise<unknown> }) {
  const verifyTotp = useVerifyTotp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await verifyTotp(code.trim());
      showToast('Two-factor authentication is on.', 'success');
      await onDone();
    } catch (e) {
      setError(e instanceof ApiError && e.formMessages?.code ? e.formMessages.code : errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Text size="sm">
        Scan this code with your authenticator app, or type the key into it, then enter the code the app
        shows.
      </Text>
      <Group align="flex-start" gap="lg">
        <QrCode text={enrolment.otpauthUri} label="QR code for your authenticator app" />
        <Stack gap="xs" maw={360}>
          <Text size="sm" fw={600}>
            Key
          </Text>
          <Code data-testid="totp-secret">{groupSecret(enrolment.secret)}</Code>
          <Text size="sm" fw={600}>
            Address
          </Text>
          <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {enrolment.otpauthUri}
          </Code>
        </Stack>
      </Group>
      <form onSubmit={verify} noValidate>
        <Group align="flex-end">
          <TextInput
            label="Code from the app"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            error={error}
          />
          <Button type="submit" loading={busy}>
            Confirm
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

/** Removing the app asks for a code from it, as the server does, so an unattended session cannot. */
function Removal() {
  const removeTotp = useRemoveTotp();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const remove = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await removeTotp(code.trim());
      showToast('The authenticator app was removed.', 'success');
    } catch (e) {
      setError(e instanceof ApiError && e.formMessages?.code ? e.formMessages.code : errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      <Group>
        <Badge color="teal">On</Badge>
        <Text size="sm">An authenticator app is set up for your account.</Text>
      </Group>
      <form onSubmit={remove} noValidate>
        <Group align="flex-end">
          <TextInput
            label="Code from the app"
            description="To remove the app, enter the code it shows now."
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            error={error}
          />
          <Button type="submit" color="red" variant="light" loading={busy}>
            Remove authenticator app
          </Button>
        </Group>
      </form>
    </Stack>
  );
}

/** Two-factor enrolment with an authenticator app: start, scan or type the key, confirm a code; or remove. */
export function TwoFactorSection() {
  const t = useT();
  const startTotp = useStartTotp();
  const { data, error, isLoading } = useMfaStatus();
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setBusy(true);
    try {
      setEnrolment(await startTotp());
    } catch (e) {
      showToast(errorMessage(e), 'error');
    } finally {
      setBusy(false);
    }
  };

  let body: ReactNode;
  if (isLoading) body = <LoadingPanel />;
  else if (isMissingRoute(error)) body = <Text c="dimmed">Two-factor set-up is not offered yet.</Text>;
  else if (error) body = <ErrorPanel error={error} />;
  else if (data?.totp.enabled) {
    body = <Removal />;
  } else if (enrolment) {
    body = <Enrolment enrolment={enrolment} onDone={async () => setEnrolment(null)} />;
  } else if (data) {
    body = (
      <Group>
        <Badge color="gray">Off</Badge>
        <Button onClick={start} loading={busy}>
          Set up an authenticator app
        </Button>
      </Group>
    );
  }

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>{t('profile.twoFactor')}</Title>
        {body}
      </Stack>
    </Paper>
  );
}
