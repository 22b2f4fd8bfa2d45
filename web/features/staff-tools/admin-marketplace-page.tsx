import { Anchor, Badge, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { useMarketplaceInterests } from './api.ts';
import { StaffTable } from './staff-table.tsx';

/** /admin/marketplace: the interest companies registered in carbon projects, for staff to follow up. */
export function AdminMarketplacePage() {
  const { data, error, isLoading } = useMarketplaceInterests();
  return (
    <Stack>
      <Title order={2}>Marketplace interest</Title>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title="There was a problem getting the registered interest." />}
      {data && data.data.length === 0 && <EmptyPanel>No company has registered interest yet.</EmptyPanel>}
      {data && data.data.length > 0 && (
        <StaffTable
          label="Marketplace interest"
          scroll
          head={
            <>
              <Table.Th>Registered</Table.Th>
              <Table.Th>Company</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>Project</Table.Th>
              <Table.Th>Tonnes</Table.Th>
              <Table.Th>Note</Table.Th>
            </>
          }
        >
          {data.data.map((i) => (
            <Table.Tr key={`${i.companyId}-${i._id}`}>
              <Table.Td>{formatDateTime(i.createdAt)}</Table.Td>
              <Table.Td>{i.companyName}</Table.Td>
              <Table.Td>
                {i.userName ?? i.userEmail ?? i.userSub}
                {i.userName && i.userEmail && (
                  <Text size="xs" c="dimmed">
                    {i.userEmail}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/marketplace/carbon/${i.projectId}`}>
                  {i.projectName}
                </Anchor>{' '}
                {i.isExample && <Badge variant="light">Example</Badge>}
              </Table.Td>
              <Table.Td>{formatNumber(i.tonnes)}</Table.Td>
              <Table.Td>{i.note ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </StaffTable>
      )}
    </Stack>
  );
}
