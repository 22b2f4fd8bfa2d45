import { Center, Code, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { MESSAGES } from '../../shared/messages.ts';

/** /kiosk/error and /m2m/error: the error code and data come from the query (01 §2.1, §8). */
function DeviceErrorPage({ kind }: { kind: 'kiosk' | 'machine' }) {
  const [params] = useSearchParams();
  const code = params.get('code') ?? params.get('errorCode');
  const data = params.get('data') ?? params.get('errorData');
  return (
    <Center mih="100vh" p="md">
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
            Please unplug the device, wait a few seconds and plug it back in. If this page comes back, contact
            your administrator.
          </Text>
        )}
      </Stack>
    </Center>
  );
}

export const KioskErrorPage = () => <DeviceErrorPage kind="kiosk" />;
export const MachineErrorPage = () => <DeviceErrorPage kind="machine" />;
