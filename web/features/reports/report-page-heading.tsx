import { Anchor, Group, Title } from '@mantine/core';
import { Link } from 'react-router';

/** A report page's title, the link to the report's other page (file or charts), and the way back. */
export function ReportPageHeading({ title, other }: { title: string; other: { to: string; label: string } }) {
  return (
    <Group justify="space-between">
      <Title order={2}>{title}</Title>
      <Group>
        <Anchor component={Link} to={other.to}>
          {other.label}
        </Anchor>
        <Anchor component={Link} to="/reports/history">
          Report history
        </Anchor>
      </Group>
    </Group>
  );
}
