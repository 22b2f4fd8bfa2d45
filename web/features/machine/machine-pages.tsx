import { Alert, Center, Image, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { useServices } from '../../lib/app-context.tsx';
import {
  createMachineApi,
  type DeviceApi,
  type MachineAuth,
  machineErrorPath,
  readMachineAuth,
} from '../../lib/device-auth.ts';
import { formatArea } from '../../lib/format.ts';
import { type MachineAsset, useMachineAsset, useMachineSelf } from './api.ts';

type Asset = MachineAsset;

type View = 'asset' | 'pdf';

/**
 * /m2m/asset and /m2m/pdf: pages a machine (report rendering) opens with the id and key stored in this
 * browser. Without both: INVALID_STORAGE; when the key is refused: AUTH_ERROR with the status (01 §8).
 */
function MachinePage({ view }: { view: View }) {
  const auth = readMachineAuth(window.localStorage);
  if (!auth) {
    return (
      <Navigate
        to={machineErrorPath('INVALID_STORAGE', 'No machine id and key are stored in this browser.')}
        replace
      />
    );
  }
  return <MachineView auth={auth} view={view} />;
}

function MachineView({ auth, view }: { auth: MachineAuth; view: View }) {
  const { config } = useServices();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const assetId = params.get('assetId') ?? params.get('id');
  const api = useMemo(
    () =>
      createMachineApi({
        baseUrl: config.apiBase,
        auth,
        leave: (path) => navigate(path, { replace: true }),
      }),
    [config.apiBase, auth, navigate],
  );
  const check = useMachineSelf(api, auth.id);
  useEffect(() => {
    if (!check.error) return;
    const status = check.error instanceof ApiError ? check.error.status : 0;
    navigate(machineErrorPath('AUTH_ERROR', String(status)), { replace: true });
  }, [check.error, navigate]);

  if (!check.data) {
    return (
      <Center h="100vh" role="status" aria-label="Checking the machine key">
        <Loader />
      </Center>
    );
  }
  if (!assetId) {
    return (
      <Center h="100vh">
        <Stack align="center" gap="xs">
          <Title order={2}>{check.data.name ?? 'Machine'}</Title>
          <Text c="dimmed">Signed in as a machine. Add ?assetId= to the address to show a site.</Text>
        </Stack>
      </Center>
    );
  }
  return <AssetSheet api={api} assetId={assetId} printable={view === 'pdf'} />;
}

function AssetSheet({ api, assetId, printable }: { api: DeviceApi; assetId: string; printable: boolean }) {
  const { data, error } = useMachineAsset(api, assetId);
  if (error) {
    return (
      <Alert m="xl" color="red" title="The site could not be loaded" role="alert">
        {error instanceof Error ? error.message : String(error)}
      </Alert>
    );
  }
  if (!data) {
    return (
      <Center h="100vh" role="status" aria-label="Loading the site">
        <Loader />
      </Center>
    );
  }
  const image = data.images?.find((i) => i.isPrimary) ?? data.images?.[0];
  const address = data.address;
  return (
    <Stack p={printable ? 0 : 'xl'} maw={900} mx="auto" data-ready="true">
      <Title order={1}>{data.siteName ?? data._id}</Title>
      {image?.url && <Image src={image.url} alt={data.siteName ?? ''} mah={320} fit="cover" radius="md" />}
      <Table>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={200}>Address</Table.Th>
            <Table.Td>
              {[address?.streetAddress, address?.locality, address?.region, address?.postCode]
                .filter(Boolean)
                .join(', ')}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Floor area</Table.Th>
            <Table.Td>{formatArea(data.floorArea)}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

export const MachineAssetPage = () => <MachinePage view="asset" />;
export const MachinePdfPage = () => <MachinePage view="pdf" />;
