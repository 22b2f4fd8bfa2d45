import { Anchor, Table, Text } from '@mantine/core';
import { addsUp, type Shown, showKg, showMoney, showQuantity, sumOf } from './provenance-figures.ts';

export interface Part {
  key: string;
  label: string;
  /** A second line under the label: a period, a share, why the part is there. */
  note?: string | undefined;
  /** Opens the part's own breakdown. */
  onOpen?: (() => void) | undefined;
  shown: Shown;
}

/**
 * The parts of a figure, one row each, their sum and the figure itself below, and whether they agree:
 * the point of the drill-down is that every figure is seen to be made of the rows above it.
 */
export function PartsTable({
  label,
  parts,
  figure,
  figureLabel,
}: {
  label: string;
  parts: readonly Part[];
  figure: Shown;
  figureLabel: string;
}) {
  const sum = sumOf(parts.map((p) => p.shown));
  const withCost = figure.cost !== undefined;
  const withConsumption = figure.consumption !== undefined;
  const agrees = addsUp(sum, figure);
  const cells = (s: Shown) => (
    <>
      {withConsumption && <Table.Td ta="right">{showQuantity(s.consumption)}</Table.Td>}
      {withCost && <Table.Td ta="right">{showMoney(s.cost)}</Table.Td>}
      <Table.Td ta="right">{showKg(s.emissionsKg)}</Table.Td>
    </>
  );
  return (
    <div>
      <Table aria-label={label} withTableBorder striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{label}</Table.Th>
            {withConsumption && <Table.Th ta="right">Consumption</Table.Th>}
            {withCost && <Table.Th ta="right">Cost (net)</Table.Th>}
            <Table.Th ta="right">Emissions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {parts.map((p) => (
            <Table.Tr key={p.key}>
              <Table.Td>
                {p.onOpen ? (
                  <Anchor component="button" type="button" size="sm" onClick={p.onOpen}>
                    {p.label}
                  </Anchor>
                ) : (
                  <Text size="sm">{p.label}</Text>
                )}
                {p.note && (
                  <Text size="xs" c="dimmed">
                    {p.note}
                  </Text>
                )}
              </Table.Td>
              {cells(p.shown)}
            </Table.Tr>
          ))}
          <Table.Tr fw={600} data-testid="provenance-sum">
            <Table.Td>Sum of the {parts.length} parts</Table.Td>
            {cells(sum)}
          </Table.Tr>
          <Table.Tr fw={700}>
            <Table.Td>{figureLabel}</Table.Td>
            {cells(figure)}
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Text size="sm" mt={4} c={agrees ? 'teal' : 'red'} data-testid="provenance-check">
        {agrees ? '✓ The parts add up to the figure.' : '✗ The parts do not add up to the figure.'}
      </Text>
    </div>
  );
}
