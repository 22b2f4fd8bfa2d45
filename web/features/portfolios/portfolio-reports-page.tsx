import { Anchor, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SYSTEM_TEMPLATES } from '../../../shared/reports/report-templates.ts';
import type { UtilityType } from '../../../shared/schemas/common.ts';
import type { AssetGroupReport, UtilityTotals } from '../../../shared/schemas/register.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { type AreaUnitSystem, formatArea, formatCount, formatNumber } from '../../lib/format.ts';
import { useReportData } from './api.ts';
import { PortfolioLayout } from './portfolio-layout.tsx';

const UTILITY_ORDER: readonly UtilityType[] = [
  'electricity',
  'gas',
  'water',
  'waste',
  'heating',
  'cooling',
  'solar',
];
const label = (u: string) => u.charAt(0).toUpperCase() + u.slice(1);
const monthLabel = (ym: string) => {
  const [y, m] = ym.split('-');
  return `${m}/${y}`;
};

const money = (v: number | undefined) =>
  v === undefined ? '—' : `£${formatNumber(v, { maximumFractionDigits: 2, minimumFractionDigits: 2 })}`;
const tonnes = (kg: number | undefined) =>
  kg === undefined ? '—' : `${formatNumber(kg / 1000, { maximumFractionDigits: 2 })} t`;
const amount = (t: UtilityTotals | undefined) =>
  t
    ? `${formatNumber(t.consumption, { maximumFractionDigits: 0 })} ${t.unit === 'mixed' ? '' : t.unit}`.trim()
    : '—';

function UtilityCells({
  totals,
  utilities,
  showCost,
}: {
  totals: AssetGroupReport['totals']['utilities'];
  utilities: UtilityType[];
  showCost: boolean;
}) {
  return (
    <>
      {utilities.map((u) => (
        <UtilityCellGroup key={u} t={totals[u]} showCost={showCost} />
      ))}
    </>
  );
}

function UtilityCellGroup({ t, showCost }: { t: UtilityTotals | undefined; showCost: boolean }) {
  return (
    <>
      <Table.Td ta="right">{amount(t)}</Table.Td>
      {showCost && <Table.Td ta="right">{money(t?.cost)}</Table.Td>}
      <Table.Td ta="right">{tonnes(t?.emissionsKg)}</Table.Td>
    </>
  );
}

function Report({ report, unit }: { report: AssetGroupReport; unit: AreaUnitSystem }) {
  const { company } = useSession();
  const showCost = company.settings?.hideCostData !== true;
  const utilities = UTILITY_ORDER.filter((u) => report.totals.utilities[u]);
  if (report.assets.length === 0) return <EmptyPanel>This portfolio has no sites to report on.</EmptyPanel>;
  const perUtility = showCost ? 3 : 2;
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Consumption, {showCost ? 'net cost and ' : ''}emissions from {monthLabel(report.period.from)} to{' '}
        {monthLabel(report.period.to)}
      </Text>
      <ScrollArea>
        <Table striped withColumnBorders aria-label="Portfolio report" style={{ whiteSpace: 'nowrap' }}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th rowSpan={2}>Site</Table.Th>
              <Table.Th rowSpan={2} ta="right">
                Floor area
              </Table.Th>
              <Table.Th rowSpan={2} ta="right">
                Accounts
              </Table.Th>
              {utilities.map((u) => (
                <Table.Th key={u} colSpan={perUtility} ta="center">
                  {label(u)}
                </Table.Th>
              ))}
            </Table.Tr>
            <Table.Tr>
              {utilities.flatMap((u) => [
                <Table.Th key={`${u}-c`} ta="right">
                  Consumption
                </Table.Th>,
                ...(showCost
                  ? [
                      <Table.Th key={`${u}-cost`} ta="right">
                        Cost
                      </Table.Th>,
                    ]
                  : []),
                <Table.Th key={`${u}-e`} ta="right">
                  CO₂e
                </Table.Th>,
              ])}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.assets.map((a) => (
              <Table.Tr key={a._id}>
                <Table.Td>
                  <Anchor component={Link} to={`/assets/${a._id}/overview`}>
                    {a.siteName}
                  </Anchor>
                </Table.Td>
                <Table.Td ta="right">
                  {a.floorAreaM2 === null ? '—' : formatArea(a.floorAreaM2, unit)}
                </Table.Td>
                <Table.Td ta="right">{formatCount(a.accountsCount)}</Table.Td>
                <UtilityCells totals={a.utilities} utilities={utilities} showCost={showCost} />
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={700}>
              <Table.Td>Total</Table.Td>
              <Table.Td ta="right">{formatArea(report.totals.floorAreaM2, unit)}</Table.Td>
              <Table.Td ta="right">{formatCount(report.totals.accountsCount)}</Table.Td>
              <UtilityCells totals={report.totals.utilities} utilities={utilities} showCost={showCost} />
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </ScrollArea>
    </Stack>
  );
}

function ReportPanel({ id, unit }: { id: string; unit: AreaUnitSystem }) {
  const { data, error, isLoading } = useReportData(id);
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        Last 12 months
      </Title>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && <Report report={data} unit={unit} />}
    </Paper>
  );
}

/** The reports a portfolio can be given, each a link to the page that builds and downloads it. */
function ReportLinks({ id }: { id: string }) {
  const templates = SYSTEM_TEMPLATES.filter((t) => t.scopes.includes('portfolio'));
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        Download a report
      </Title>
      <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {templates.map((t) => (
          <li key={t.id}>
            <Anchor component={Link} to={`/portfolios/${id}/reports/${t.id}/download`}>
              {t.name}
            </Anchor>
            <Text size="xs" c="dimmed">
              {t.description} Last calendar year, as a PDF.
            </Text>
          </li>
        ))}
      </Stack>
    </Paper>
  );
}

/** /portfolios/{id}/reports: each site's floor area, accounts, and consumption, cost and emissions per utility. */
export function PortfolioReportsPage() {
  return (
    <PortfolioLayout tab="reports">
      {(group, unit) => (
        <Stack gap="md">
          <ReportLinks id={group._id} />
          <ReportPanel id={group._id} unit={unit} />
        </Stack>
      )}
    </PortfolioLayout>
  );
}
