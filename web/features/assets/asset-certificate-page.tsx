import { Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { type AssetView, useCertificate, useLinkCertificate } from './api.ts';
import { AssetFrame, assetPath, useMayChangeSite } from './asset-frame.tsx';
import { KIND_LABELS } from './certificate-search.tsx';
import { EpcBadge, FormAlert, useFormFailure } from './ui.tsx';

function Certificate({ asset }: { asset: AssetView }) {
  const navigate = useNavigate();
  const linkCertificate = useLinkCertificate();
  const { certificateId = '' } = useParams();
  const [params] = useSearchParams();
  const kind = params.get('kind');
  const { data, error, isLoading } = useCertificate(certificateId, kind);
  const form = useFormFailure();
  const mayChange = useMayChangeSite(asset);
  if (isLoading) return <LoadingPanel />;
  if (error || !data) return <ErrorPanel error={error ?? new Error('No such certificate')} />;
  const linked = asset.epc?.certificateId === data.id;

  async function link() {
    const done = await form.run(() =>
      linkCertificate(asset._id, { certificateId: data?.id, kind: data?.kind }),
    );
    if (!done) return;
    showToast(`EPC ${data?.band} is now the site's rating`, 'success');
    navigate(assetPath(asset._id, 'overview'));
  }

  return (
    <Paper withBorder p="md">
      <Stack>
        <Group justify="space-between">
          <Group gap="sm">
            <Title order={4}>{data.address}</Title>
            <EpcBadge band={data.band} />
          </Group>
          {mayChange && (
            <Button onClick={link} loading={form.busy} disabled={linked}>
              {linked ? "This is the site's certificate" : 'Use for this site'}
            </Button>
          )}
        </Group>
        <FormAlert failure={form.failure} />
        <Table>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={200}>Register</Table.Th>
              <Table.Td>{KIND_LABELS[data.kind] ?? data.kind}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Rating</Table.Th>
              <Table.Td>
                {data.rating} (band {data.band})
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Postcode</Table.Th>
              <Table.Td>{data.postcode}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Lodged</Table.Th>
              <Table.Td>{formatDate(data.lodgementDate)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Floor area</Table.Th>
              <Table.Td>{data.floorArea ? `${formatNumber(data.floorArea)} m²` : ''}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Property type</Table.Th>
              <Table.Td>{data.propertyType}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Certificate</Table.Th>
              <Table.Td>
                <Text size="xs" ff="monospace">
                  {data.id}
                </Text>
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Anchor component={Link} to={assetPath(asset._id, 'documents')} size="sm">
          Back to documents
        </Anchor>
      </Stack>
    </Paper>
  );
}

/** /assets/{id}/documents/{certificateId}: one EPC certificate, which can become the site's rating. */
export function AssetCertificatePage() {
  return <AssetFrame tab="documents">{(asset) => <Certificate asset={asset} />}</AssetFrame>;
}
