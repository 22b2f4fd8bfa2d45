import { Alert, Button, Group, Text } from '@mantine/core';
import { useSession } from '../../lib/app-context.tsx';
import { useSwitchCompany } from './switch-company.ts';

/**
 * Shown while staff look into a company they are not a member of: whose data this is, that it is only
 * read (the API refuses changes to it, and the pages offer none), that the look is in the company's
 * activity log, and the way back to their own company.
 */
export function StaffViewBanner() {
  const { me, company } = useSession();
  const switchTo = useSwitchCompany();
  const home = me.companies[0];
  if (!me.isAdmin || me.companies.includes(company._id)) return null;
  return (
    <Alert color="grape" variant="filled" mb="md" role="status" aria-label="Staff view">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" fw={600}>
          Staff view, read only: you are looking into {company.name}, a company you are not a member of. You
          can read its data but not change it. This look is recorded in its activity log.
        </Text>
        {home && (
          <Button size="xs" variant="white" color="grape" onClick={() => void switchTo(home)}>
            Back to my company
          </Button>
        )}
      </Group>
    </Alert>
  );
}
