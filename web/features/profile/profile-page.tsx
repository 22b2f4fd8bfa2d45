import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSession } from '../../lib/app-context.tsx';
import { formatDate } from '../../lib/format.ts';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={180}>{label}</Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

/** The signed-in user's details. API-only users can reach this page and nothing else. */
export function ProfilePage() {
  const { me, company, access } = useSession();
  return (
    <Stack>
      <Title order={2}>Profile</Title>
      <Paper withBorder p="md">
        <Table>
          <Table.Tbody>
            <Row label="Name">{me.name ?? '—'}</Row>
            <Row label="Email">{me.email ?? '—'}</Row>
            <Row label="Company">{company.name}</Row>
            <Row label="Role">{me.role?.name ?? (access.isAdmin ? 'Administrator' : '—')}</Row>
            <Row label="Permissions">
              <Group gap={4}>
                {access.permissions.length === 0 ? (
                  <Text size="sm">—</Text>
                ) : (
                  access.permissions.map((p) => (
                    <Badge key={p} variant="light" tt="none">
                      {p}
                    </Badge>
                  ))
                )}
              </Group>
            </Row>
            <Row label="API key">
              {me.apiKey
                ? `${me.apiKey.prefix}…${me.apiKey.createdAt ? ` (created ${formatDate(me.apiKey.createdAt)})` : ''}`
                : 'No API key'}
            </Row>
          </Table.Tbody>
        </Table>
      </Paper>
    </Stack>
  );
}
