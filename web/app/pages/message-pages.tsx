import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useMatches, useNavigate } from 'react-router';
import { MESSAGES } from '../../../shared/messages.ts';
import type { AppRoute } from '../routes.ts';

export function ForbiddenPage() {
  return (
    <Center py={80}>
      <Title order={3}>{MESSAGES.forbiddenPage}</Title>
    </Center>
  );
}

function GoBackButton() {
  const navigate = useNavigate();
  // With no earlier page in this tab, going back would leave the app: go to the dashboard instead.
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate('/'));
  return <Button onClick={back}>Go Back</Button>;
}

/** The 500-style page for unknown paths and failed pages (01 §2.1). */
export function SomethingWentWrongPage() {
  return (
    <Center py={80}>
      <Stack align="center">
        <Text fz={48} fw={700} c="dimmed">
          500
        </Text>
        <Title order={3}>{MESSAGES.somethingWentWrong}</Title>
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
  return (
    <Center py={80}>
      <Stack align="center" gap="xs">
        <Title order={3}>{area}</Title>
        <Text c="dimmed">This part of Voltfolio is not available yet.</Text>
      </Stack>
    </Center>
  );
}
