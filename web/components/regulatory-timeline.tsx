import { Badge, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import type { CalendarEvent, MeesScenario } from '../../shared/targets/regulatory-calendar.ts';
import { formatDate } from '../lib/format.ts';

const KIND_LABELS: Record<CalendarEvent['kind'], string> = {
  'epc-expiry': 'EPC',
  mees: 'MEES',
  'lease-end': 'Lease',
  'lease-break': 'Lease',
  'lease-start': 'Lease',
  'crrem-misalignment': 'CRREM',
};

/** The MEES scenario: the E minimum in force alone, or with the proposed C (2027) and B (2030). */
export function ScenarioToggle({
  value,
  onChange,
}: {
  value: MeesScenario;
  onChange: (next: MeesScenario) => void;
}) {
  return (
    <SegmentedControl
      aria-label="MEES scenario"
      value={value}
      onChange={(v) => onChange(v === 'in-force' ? 'in-force' : 'proposed')}
      data={[
        { value: 'in-force', label: 'In force (E)' },
        { value: 'proposed', label: 'With proposed C 2027, B 2030' },
      ]}
    />
  );
}

/** Regulatory dates in date order, each with what to do; proposed dates are marked as proposed. */
export function RegulatoryTimeline({
  events,
  today,
  showSite,
  label,
}: {
  events: readonly CalendarEvent[];
  today: string;
  showSite: boolean;
  label: string;
}) {
  if (events.length === 0) return <Text c="dimmed">No regulatory dates in this period.</Text>;
  return (
    <Table aria-label={label} verticalSpacing="sm">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Date</Table.Th>
          {showSite && <Table.Th>Site</Table.Th>}
          <Table.Th>Event</Table.Th>
          <Table.Th>What to do</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {events.map((e) => (
          <Table.Tr key={e.id}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>
              <Stack gap={2}>
                <Text size="sm">{formatDate(e.date)}</Text>
                {e.date < today && e.needsAction && (
                  <Badge color="red" size="xs">
                    Overdue
                  </Badge>
                )}
              </Stack>
            </Table.Td>
            {showSite && <Table.Td>{e.siteName}</Table.Td>}
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Badge variant="light" size="sm">
                  {KIND_LABELS[e.kind]}
                </Badge>
                {e.proposed && (
                  <Badge color="yellow" variant="outline" size="sm">
                    Proposed
                  </Badge>
                )}
              </Group>
              <Text size="sm" mt={4} c={e.needsAction ? undefined : 'dimmed'}>
                {e.title}
              </Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{e.action}</Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
