import { Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSession } from '../../lib/app-context.tsx';
import { useT } from '../../lib/i18n-context.tsx';
import { ApiAccessSection } from './api-access-section.tsx';
import { DetailsForm } from './details-form.tsx';
import { TwoFactorSection } from './two-factor-section.tsx';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={180}>{label}</Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

/** The signed-in user's page: details, API access and two-factor. API-only users reach this page only. */
export function ProfilePage() {
  const { me, company, access } = useSession();
  const t = useT();
  return (
    <Stack>
      <Title order={2}>{t('profile.title')}</Title>
      <DetailsForm />
      <Paper withBorder p="md">
        <Title order={4} mb="sm">
          {t('profile.account')}
        </Title>
        <Table>
          <Table.Tbody>
            <Row label={t('profile.email')}>{me.email ?? '—'}</Row>
            <Row label={t('profile.company')}>{company.name}</Row>
            <Row label={t('profile.role')}>{me.role?.name ?? (access.isAdmin ? 'Administrator' : '—')}</Row>
            <Row label={t('profile.permissions')}>
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
          </Table.Tbody>
        </Table>
      </Paper>
      <ApiAccessSection />
      <TwoFactorSection />
    </Stack>
  );
}
