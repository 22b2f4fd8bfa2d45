import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import {
  type DashboardWidget,
  WIDGET_LINKS,
  WIDGET_PERIOD_LABELS,
  WIDGET_TYPE_LABELS,
  WIDGET_TYPES,
  type WidgetData,
  type WidgetPeriod,
  type WidgetRow,
  type WidgetType,
} from '../../../shared/schemas/dashboard-widgets.ts';
import { BarChart } from '../../components/charts/bar-chart.tsx';
import type { ValueUnit } from '../../components/charts/shape-series.ts';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { formatNumber } from '../../lib/format.ts';
import { changeOf } from './widget-order.ts';
import { useWidgetData, type WidgetChoice } from './widgets-api.ts';

/** A widget's stored settings as the editor shows them. */
export function choiceOf(widget: DashboardWidget): WidgetChoice {
  const type = (WIDGET_TYPES as readonly string[]).includes(widget.settings.type)
    ? (widget.settings.type as WidgetType)
    : 'consumption';
  const custom = widget.settings.customData ?? {};
  const period = (typeof custom.period === 'string' ? custom.period : 'last-12-months') as WidgetPeriod;
  const title = typeof custom.title === 'string' && custom.title ? custom.title : WIDGET_TYPE_LABELS[type];
  return { type, period: period in WIDGET_PERIOD_LABELS ? period : 'last-12-months', title };
}

/** A figure with its unit as people read it: £1,234, 1.2 tCO₂e, 95.5%, 1,200 kWh. */
export function formatFigure(value: number, unit: string): string {
  if (unit === 'GBP') return `£${formatNumber(value, { maximumFractionDigits: 0 })}`;
  if (unit === '%') return `${formatNumber(value, { maximumFractionDigits: 1 })}%`;
  if (unit === 'tCO2e') return `${formatNumber(value, { maximumFractionDigits: 2 })} tCO₂e`;
  return `${formatNumber(value, { maximumFractionDigits: 0 })} ${unit}`;
}

const chartUnit = (unit: string | undefined): ValueUnit =>
  unit === 'GBP' ? { currency: 'GBP' } : unit ? { unit: unit === 'tCO2e' ? 'tCO₂e' : unit } : undefined;

function Headline({ data }: { data: WidgetData }) {
  const h = data.headline;
  if (!h) return null;
  const change = changeOf(h.value, h.previous);
  return (
    <Group gap="xs" align="baseline">
      <Text fz={26} fw={700} aria-label={`${data.title} figure`}>
        {formatFigure(h.value, h.unit)}
      </Text>
      {change !== undefined && (
        <Badge
          color={change > 0 ? 'orange' : 'teal'}
          variant="light"
          title={`Against ${data.comparison?.startDate} to ${data.comparison?.endDate}`}
        >
          {change > 0 ? '▲' : '▼'} {formatNumber(Math.abs(change) * 100, { maximumFractionDigits: 1 })}%
        </Badge>
      )}
      <Text size="xs" c="dimmed">
        {h.label}
      </Text>
    </Group>
  );
}

const ROW_COLUMNS: DataTableColumn<WidgetRow>[] = [
  {
    key: 'label',
    label: 'Name',
    value: (r) => r.label,
    render: (r) =>
      r.to ? (
        <Anchor component={Link} to={r.to} size="sm">
          {r.label}
        </Anchor>
      ) : (
        <Text size="sm" tt="capitalize">
          {r.label}
        </Text>
      ),
  },
  {
    key: 'value',
    label: 'Figure',
    numeric: true,
    value: (r) => r.value,
    render: (r) => formatFigure(r.value, r.unit),
  },
];

function Figures({ data }: { data: WidgetData }) {
  if (data.costHidden && !data.headline)
    return <EmptyPanel>Cost data is hidden for this company.</EmptyPanel>;
  if (data.empty) return <EmptyPanel>No figures for this period yet.</EmptyPanel>;
  const series = data.series ?? [];
  return (
    <Stack gap="xs">
      <Headline data={data} />
      {series.length > 1 && (
        <BarChart
          title={`${data.title} by ${data.type === 'bill-validation' ? 'status' : data.type === 'data-quality' ? 'issue' : 'period'}`}
          series={[{ name: data.title, points: series.map((p) => ({ x: p.label, y: p.value })) }]}
          unit={chartUnit(data.seriesUnit)}
          height={180}
          width={420}
        />
      )}
      {data.rows && data.rows.length > 0 && (
        <DataTable
          label={`${data.title} breakdown`}
          columns={ROW_COLUMNS}
          rows={data.rows}
          rowKey={(r) => r.id}
          empty="Nothing to list."
          pageSize={5}
        />
      )}
    </Stack>
  );
}

function WidgetBody({ widget }: { widget: DashboardWidget }) {
  const { data, error, isLoading } = useWidgetData(widget.dashboardId, widget._id);
  if (isLoading) return <LoadingPanel label="Loading widget" />;
  if (error) return <ErrorPanel error={error} title="Could not load this widget" />;
  return data ? <Figures data={data} /> : null;
}

/** One widget of the grid: its figures, and in edit mode a handle to drag it and buttons to change it. */
export function WidgetCard({
  widget,
  editing,
  onEdit,
  onRemove,
}: {
  widget: DashboardWidget;
  editing: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: widget._id, disabled: !editing });
  const choice = choiceOf(widget);
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="md"
      radius="md"
      role="region"
      aria-label={choice.title}
      data-widget-type={choice.type}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
        zIndex: isDragging ? 2 : undefined,
        position: 'relative',
      }}
    >
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          {editing && (
            <ActionIcon
              ref={setActivatorNodeRef}
              variant="subtle"
              aria-label={`Move ${choice.title}`}
              style={{ cursor: 'grab', touchAction: 'none' }}
              {...attributes}
              {...listeners}
            >
              ⠿
            </ActionIcon>
          )}
          <Anchor component={Link} to={WIDGET_LINKS[choice.type]} fw={600} c="inherit">
            {choice.title}
          </Anchor>
        </Group>
        <Text size="xs" c="dimmed">
          {WIDGET_PERIOD_LABELS[choice.period]}
        </Text>
      </Group>
      {editing && (
        <Group gap="xs" mb="xs">
          <Button size="compact-xs" variant="default" onClick={onEdit}>
            Edit {choice.title}
          </Button>
          <Button size="compact-xs" variant="default" color="red" onClick={onRemove}>
            Remove {choice.title}
          </Button>
        </Group>
      )}
      <WidgetBody widget={widget} />
    </Paper>
  );
}
