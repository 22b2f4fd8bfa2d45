import { Anchor, Button, Group, NativeSelect, Paper, Stack, Table, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { EPC_KINDS } from '../../../shared/schemas/asset-public-data.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDate } from '../../lib/format.ts';
import type { AssetView } from './api.ts';
import { useCertificateSearch } from './api.ts';
import { EpcBadge } from './ui.tsx';

export const KIND_LABELS: Record<string, string> = {
  'non-domestic': 'Non-domestic',
  domestic: 'Domestic',
  display: 'Display (DEC)',
};

/** EPC register search by postcode, starting from the site's own; each result opens as a certificate page. */
export function CertificateSearch({ asset }: { asset: AssetView }) {
  const [postcode, setPostcode] = useState(asset.address?.postCode ?? '');
  const [kind, setKind] = useState<string>('non-domestic');
  const [asked, setAsked] = useState<{ postcode: string; kind: string } | undefined>(
    asset.address?.postCode ? { postcode: asset.address.postCode, kind: 'non-domestic' } : undefined,
  );
  const { data, error, isLoading } = useCertificateSearch(asked);
  const search = (event: FormEvent) => {
    event.preventDefault();
    setAsked({ postcode: postcode.trim(), kind });
  };

  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={4}>Energy Performance Certificates</Title>
        <Group component="form" onSubmit={search} align="end">
          <TextInput label="Postcode" value={postcode} onChange={(e) => setPostcode(e.currentTarget.value)} />
          <NativeSelect
            label="Register"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value)}
            data={EPC_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] ?? k }))}
          />
          <Button type="submit" variant="light" disabled={!postcode.trim()}>
            Search the register
          </Button>
        </Group>
        {isLoading && <LoadingPanel />}
        {error && <ErrorPanel error={error} title="Could not search the EPC register" />}
        {data && data.total === 0 && <EmptyPanel>No certificates for this postcode.</EmptyPanel>}
        {data && data.total > 0 && (
          <Table aria-label="Certificates">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Band</Table.Th>
                <Table.Th>Rating</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Lodged</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.data.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <EpcBadge band={c.band} />
                  </Table.Td>
                  <Table.Td>{c.rating}</Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`/assets/${asset._id}/documents/${encodeURIComponent(c.id)}?kind=${c.kind}`}
                    >
                      {c.address}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{formatDate(c.lodgementDate)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
