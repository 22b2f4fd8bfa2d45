import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useMatches, useNavigate } from 'react-router';
import { useT } from '../../lib/i18n-context.tsx';
import type { AppRoute } from '../routes.ts';

export function ForbiddenPage() {
  const t = useT();
  return (
    <Center py={80}>
      <Title order={3}>{t('page.forbidden')}</Title>
    </Center>
  );
}

function GoBackButton() {
  const navigate = useNavigate();
  const t = useT();
  // With no earlier page in this tab, going back would leave the app: go to the dashboard instead.
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/'));
  return <Button onClick={back}>{t('page.goBack')}</Button>;
}

/** The 500-style page for unknown paths and failed pages (01 §2.1). */
export function SomethingWentWrongPage() {
  const t = useT();
  return (
    <Center py={80}>
      <Stack align="center">
        <Text fz={48} fw={700} c="dimmed">
          500
        </Text>
        <Title order={3}>{t('page.somethingWentWrong')}</Title>
        <GoBackButton />
      </Stack>
    </Center>
  );
}

/** Shown inside the shell for areas that this version does not offer yet. */
export function NotAvailablePage() {
  const matches = useMatches();
  const handle = matches.at(-1)?.handle as { route?: AppRoute } | undefined;
  const area = handle?.route?.area ?? 'This page';
  const t = useT();
  return (
    <Center py={80}>
      <Stack align="center" gap="xs">
        <Title order={3}>{area}</Title>
        <Text c="dimmed">{t('page.notAvailable')}</Text>
      </Stack>
    </Center>
  );
}
