import { Center, Code, Stack, Text, Title } from '@mantine/core';
import { Navigate, useSearchParams } from 'react-router';
import { MESSAGES } from '../../../shared/messages.ts';
import { parseKioskAuth, readMachineAuth } from '../../lib/device-auth.ts';

/** /kiosk/error and /m2m/error: the error code and data come from the query (01 §2.1). */
function DeviceErrorPage({ kind }: { kind: 'kiosk' | 'machine' }) {
  const [params] = useSearchParams();
  const code = params.get('code') ?? params.get('errorCode');
  const data = params.get('data') ?? params.get('errorData');
  return (
    <Center h="100vh" p="md">
      <Stack align="center" maw={560}>
        <Title order={2}>{MESSAGES.oops}</Title>
        {code && (
          <Text>
            Error code: <Code>{code}</Code>
          </Text>
        )}
        {data && (
          <Code block w="100%">
            {data}
          </Code>
        )}
        {kind === 'kiosk' && (
          <Text c="dimmed" ta="center">
            Please unplug the device, wait a few seconds and plug it back in.
          </Text>
        )}
      </Stack>
    </Center>
  );
}

function DeviceViewNotAvailable({ title }: { title: string }) {
  return (
    <Center h="100vh">
      <Stack align="center" gap="xs">
        <Title order={2}>{title}</Title>
        <Text c="dimmed">This view is not available yet.</Text>
      </Stack>
    </Center>
  );
}

export function KioskPage() {
  const [params] = useSearchParams();
  if (!parseKioskAuth(params.get('kioskAuth')))
    return <Navigate to="/kiosk/error?code=INVALID_AUTH" replace />;
  return <DeviceViewNotAvailable title="Kiosk" />;
}

function MachinePage({ view }: { view: 'asset' | 'pdf' }) {
  if (!readMachineAuth(window.localStorage)) return <Navigate to="/m2m/error?code=INVALID_STORAGE" replace />;
  return <DeviceViewNotAvailable title={view === 'asset' ? 'Site view' : 'PDF view'} />;
}

export const KioskErrorPage = () => <DeviceErrorPage kind="kiosk" />;
export const MachineErrorPage = () => <DeviceErrorPage kind="machine" />;
export const MachineAssetPage = () => <MachinePage view="asset" />;
export const MachinePdfPage = () => <MachinePage view="pdf" />;
