import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { rectSortingStrategy, SortableContext, sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { Button, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { canUseRoute } from '../../../shared/access/route-access.ts';
import type { DashboardData, DashboardWidget } from '../../../shared/schemas/dashboard-widgets.ts';
import { PORTFOLIO_READERS } from '../../../shared/system/permission-sets.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { choiceOf, WidgetCard } from './widget-card.tsx';
import { WidgetForm } from './widget-form.tsx';
import { moved } from './widget-order.ts';
import {
  useAddWidget,
  useDashboardData,
  useRemoveWidget,
  useSaveOrder,
  useUpdateWidget,
} from './widgets-api.ts';

/** The widgets in a grid; in edit mode they can be added, edited, removed and dragged into a new order. */
function Widgets({ data, editing }: { data: DashboardData; editing: boolean }) {
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<string>();
  const [saveError, setSaveError] = useState<unknown>();
  const addWidget = useAddWidget();
  const updateWidget = useUpdateWidget();
  const removeWidget = useRemoveWidget();
  const saveOrder = useSaveOrder();
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const widgets = data.widgets;
  const beingEdited = widgets.find((w) => w._id === editingId);

  async function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = widgets.findIndex((w) => w._id === active.id);
    const to = widgets.findIndex((w) => w._id === over.id);
    setSaveError(undefined);
    try {
      await saveOrder(data, moved(widgets, from, to));
    } catch (err) {
      setSaveError(err);
    }
  }

  async function remove(widget: DashboardWidget) {
    setSaveError(undefined);
    try {
      await removeWidget(widget);
    } catch (err) {
      setSaveError(err);
    }
  }

  return (
    <Stack>
      {saveError !== undefined && <ErrorPanel error={saveError} title="The dashboard could not be saved" />}
      {editing && !adding && (
        <Group>
          <Button variant="light" onClick={() => setAdding(true)}>
            Add widget
          </Button>
        </Group>
      )}
      {editing && adding && (
        <WidgetForm
          heading="New widget"
          submitLabel="Add"
          hideCost={data.hideCostData}
          onCancel={() => setAdding(false)}
          onSubmit={async (choice) => {
            const last = widgets.at(-1)?.position?.y ?? widgets.length - 1;
            await addWidget(data.dashboard._id, choice, last + 1);
            setAdding(false);
          }}
        />
      )}
      {editing && beingEdited && (
        <WidgetForm
          key={beingEdited._id}
          heading={`Edit ${choiceOf(beingEdited).title}`}
          submitLabel="Save"
          initial={choiceOf(beingEdited)}
          hideCost={data.hideCostData}
          onCancel={() => setEditingId(undefined)}
          onSubmit={async (choice) => {
            await updateWidget(beingEdited, choice);
            setEditingId(undefined);
          }}
        />
      )}
      {widgets.length === 0 ? (
        <EmptyPanel>No widgets on your dashboard. Choose Edit dashboard, then Add widget.</EmptyPanel>
      ) : (
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={widgets.map((w) => w._id)} strategy={rectSortingStrategy}>
            <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} aria-label="Dashboard widgets">
              {widgets.map((widget) => (
                <WidgetCard
                  key={widget._id}
                  widget={widget}
                  editing={editing}
                  onEdit={() => setEditingId(widget._id)}
                  onRemove={() => remove(widget)}
                />
              ))}
            </SimpleGrid>
          </SortableContext>
        </DndContext>
      )}
    </Stack>
  );
}

function Dashboard() {
  const { data, error, isLoading } = useDashboardData();
  const [editing, setEditing] = useState(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>
          {data?.dashboard.name === 'Home' || !data ? 'Your dashboard' : data.dashboard.name}
        </Title>
        {data && (
          <Button variant={editing ? 'filled' : 'default'} onClick={() => setEditing((e) => !e)}>
            {editing ? 'Done' : 'Edit dashboard'}
          </Button>
        )}
      </Group>
      {isLoading && <LoadingPanel label="Loading dashboard" />}
      {error && <ErrorPanel error={error} />}
      {data && <Widgets data={data} editing={editing} />}
    </Stack>
  );
}

/**
 * The caller's dashboard: its widgets, and the switch into edit mode. The widgets' figures are the
 * portfolio's: people who only validate bills see the page's counts alone.
 */
export function HomeWidgets() {
  const { access } = useSession();
  return canUseRoute(PORTFOLIO_READERS, access) ? <Dashboard /> : null;
}
