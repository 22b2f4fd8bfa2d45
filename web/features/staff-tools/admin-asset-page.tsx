import { Badge, Button, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { type FoundSite, useAssetFinder, useSiteView } from './api.ts';
import { StaffTable } from './staff-table.tsx';

const addressOf = (a: FoundSite['address']) =>
  [a?.streetAddress, a?.locality, a?.postCode].filter(Boolean).join(', ');

function SiteDetails({ site }: { site: FoundSite }) {
  const { data, error, isLoading } = useSiteView(site);
  if (isLoading) return <LoadingPanel />;
  if (error) return <ErrorPanel error={error} title="There was a problem opening the site." />;
  if (!data) return null;
  const fields = ['siteName', 'assetType', 'status', 'floorArea', 'epcRating'] as const;
  return (
    <Paper withBorder p="md" aria-label={`Site ${data.site.siteName ?? ''}`} component="section">
      <Group justify="space-between">
        <Title order={3}>{data.site.siteName}</Title>
        <Badge variant="light">Read only</Badge>
      </Group>
      <Text c="dimmed" mb="sm">
        {data.company.name}
      </Text>
      <Table aria-label="Site details">
        <Table.Tbody>
          {fields.map((f) => (
            <Table.Tr key={f}>
              <Table.Th>{f}</Table.Th>
              <Table.Td>{data.site[f] === undefined ? '' : String(data.site[f])}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Title order={4} mt="md">
        Meters ({data.meters.length})
      </Title>
      {data.meters.map((m) => (
        <Text key={m._id}>
          {m.name ?? m._id} · {m.utilityType ?? ''} {m.meterNumber ? `· ${m.meterNumber}` : ''}
        </Text>
      ))}
    </Paper>
  );
}

/** /admin/tools/asset: find a site of any company by name, street or postcode, and read it. */
export function AdminAssetPage() {
  const [text, setText] = useState('');
  const [open, setOpen] = useState<FoundSite>();
  const { data, error, isLoading } = useAssetFinder(text);
  return (
    <Stack>
      <Title order={2}>Find a site</Title>
      <TextInput
        label="Site name, street or postcode"
        description="Every company's sites are searched."
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        maw={480}
      />
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title="There was a problem searching." />}
      {data && data.data.length === 0 && <EmptyPanel>No site matches.</EmptyPanel>}
      {data && data.data.length > 0 && (
        <StaffTable
          label="Sites found"
          head={
            <>
              <Table.Th>Site</Table.Th>
              <Table.Th>Company</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th />
            </>
          }
        >
          {data.data.map((s) => (
            <Table.Tr key={`${s.companyId}${s._id}`}>
              <Table.Td>{s.siteName}</Table.Td>
              <Table.Td>{s.companyName}</Table.Td>
              <Table.Td>{addressOf(s.address)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => setOpen(s)}
                  aria-label={`Open ${s.siteName ?? ''}`}
                >
                  Open
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </StaffTable>
      )}
      {open && <SiteDetails site={open} />}
    </Stack>
  );
}
