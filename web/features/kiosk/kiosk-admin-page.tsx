import {
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatDateTime } from '../../lib/format.ts';
import {
  type KioskCredential,
  type KioskRecord,
  type PairedScreen,
  useCreateKiosk,
  useKioskPreview,
  useKioskSites,
  useKiosks,
  usePairScreen,
  useRotateKiosk,
  useScreens,
  useUnpairScreen,
  useUpdateKiosk,
} from './admin-api.ts';
import { SLIDES, type SlideKey, slidesOf } from './kiosk-data.ts';

interface Choice {
  key: SlideKey;
  on: boolean;
}

/** Every slide, the chosen ones first in their order. */
const choicesOf = (chosen: readonly SlideKey[]): Choice[] => {
  const picked = slidesOf(chosen).map((s) => s.key);
  const on = new Set(chosen.length > 0 ? picked : SLIDES.map((s) => s.key));
  return [...picked, ...SLIDES.map((s) => s.key).filter((k) => !picked.includes(k))].map((key) => ({
    key,
    on: on.has(key),
  }));
};

const titleOf = (key: SlideKey) => SLIDES.find((s) => s.key === key)?.title ?? key;

function SlideRow({
  choice,
  index,
  count,
  onToggle,
  onMove,
}: {
  choice: Choice;
  index: number;
  count: number;
  onToggle: () => void;
  onMove: (to: number) => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id: choice.key });
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      p="xs"
      style={{ transform: CSS.Transform.toString(transform), transition }}
      aria-label={`Slide ${titleOf(choice.key)}`}
    >
      <Group justify="space-between">
        <Group>
          <button
            type="button"
            {...attributes}
            {...listeners}
            style={{ cursor: 'grab', border: 0, background: 'none' }}
            aria-label={`Drag ${titleOf(choice.key)}`}
          >
            ⠿
          </button>
          <Checkbox label={titleOf(choice.key)} checked={choice.on} onChange={onToggle} />
        </Group>
        <Group gap={4}>
          <ActionIcon
            variant="subtle"
            aria-label={`Move ${titleOf(choice.key)} up`}
            disabled={index === 0}
            onClick={() => onMove(index - 1)}
          >
            ↑
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            aria-label={`Move ${titleOf(choice.key)} down`}
            disabled={index === count - 1}
            onClick={() => onMove(index + 1)}
          >
            ↓
          </ActionIcon>
        </Group>
      </Group>
    </Paper>
  );
}

/** The slides to show, chosen with checkboxes and put in order by dragging (or the arrow buttons). */
function SlidePicker({ value, onChange }: { value: Choice[]; onChange: (next: Choice[]) => void }) {
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const move = (from: number, to: number) => onChange(arrayMove(value, from, to));
  const onDragEnd = (e: DragEndEvent) => {
    const from = value.findIndex((c) => c.key === e.active.id);
    const to = value.findIndex((c) => c.key === e.over?.id);
    if (from >= 0 && to >= 0 && from !== to) move(from, to);
  };
  return (
    <DndContext sensors={sensors} onDragEnd={onDragEnd}>
      <SortableContext items={value.map((c) => c.key)} strategy={verticalListSortingStrategy}>
        <Stack gap={4} role="list" aria-label="Slides">
          {value.map((choice, i) => (
            <SlideRow
              key={choice.key}
              choice={choice}
              index={i}
              count={value.length}
              onToggle={() => onChange(value.map((c) => (c.key === choice.key ? { ...c, on: !c.on } : c)))}
              onMove={(to) => move(i, to)}
            />
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}

const chosenOf = (choices: readonly Choice[]) => choices.filter((c) => c.on).map((c) => c.key);

function ScreenAddress({ credential }: { credential: KioskCredential }) {
  const path = `/kiosk/${credential.kioskId}?kioskAuth=${encodeURIComponent(credential.kioskAuth)}`;
  return (
    <Alert color="teal" title="The screen's address, shown this once" role="status">
      <Stack gap={4}>
        <Code block>{`${window.location.origin}${path}`}</Code>
        <Anchor href={`${path}&preview`} target="_blank" rel="noopener">
          Open a preview
        </Anchor>
        {credential.screensNotUpdated ? (
          <Text c="red">
            {credential.screensNotUpdated} paired screen(s) could not be told the new address.
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}

function Preview({ id }: { id: string }) {
  const { data, error, isLoading } = useKioskPreview(id);
  if (isLoading) return <LoadingPanel />;
  if (error) return <ErrorPanel error={error} title="The preview could not be loaded." />;
  if (!data) return null;
  return (
    <Paper withBorder p="md" aria-label="Preview" component="section">
      <Title order={4}>{data.asset?.siteName ?? data.kiosk.name}</Title>
      <Text c="dimmed">
        Slides in turn:{' '}
        {slidesOf(data.kiosk.slides)
          .map((s) => s.title)
          .join(' → ')}
      </Text>
    </Paper>
  );
}

function KioskCard({ kiosk, siteName }: { kiosk: KioskRecord; siteName: string }) {
  const update = useUpdateKiosk();
  const rotate = useRotateKiosk();
  const pair = usePairScreen();
  const [choices, setChoices] = useState(() => choicesOf(kiosk.slides ?? []));
  const [credential, setCredential] = useState<KioskCredential>();
  const [code, setCode] = useState('');
  const [message, setMessage] = useState<{ ok: boolean; text: string }>();
  const [previewing, setPreviewing] = useState(false);
  const run = async (what: () => Promise<string | undefined>) => {
    setMessage(undefined);
    try {
      const text = await what();
      if (text) setMessage({ ok: true, text });
    } catch (err) {
      const fields = (err as { formMessages?: Record<string, string> }).formMessages;
      setMessage({
        ok: false,
        text: fields ? Object.values(fields).join(' ') : err instanceof Error ? err.message : String(err),
      });
    }
  };
  return (
    <Paper withBorder p="md" component="section" aria-label={`Kiosk ${kiosk.name}`}>
      <Stack>
        <Group justify="space-between">
          <div>
            <Title order={3}>{kiosk.name}</Title>
            <Text c="dimmed">{siteName}</Text>
          </div>
          {kiosk.lastSeenAt && <Badge variant="light">Last seen {formatDateTime(kiosk.lastSeenAt)}</Badge>}
        </Group>
        <SlidePicker value={choices} onChange={setChoices} />
        <Group>
          <Button
            onClick={() =>
              void run(async () => {
                await update(kiosk._id, { slides: chosenOf(choices) });
                return 'Slides saved.';
              })
            }
            disabled={chosenOf(choices).length === 0}
          >
            Save slides
          </Button>
          <Button variant="default" onClick={() => setPreviewing((p) => !p)}>
            Preview
          </Button>
          <Button
            variant="default"
            color="red"
            onClick={() =>
              void run(async () => {
                setCredential(await rotate(kiosk._id));
                return undefined;
              })
            }
          >
            Rotate secret
          </Button>
        </Group>
        {previewing && <Preview id={kiosk._id} />}
        {credential && <ScreenAddress credential={credential} />}
        <Group align="flex-end">
          <TextInput
            label="Pairing code on the signage screen"
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
          />
          <Button
            variant="light"
            disabled={code.trim() === ''}
            onClick={() =>
              void run(async () => {
                const screen = await pair(kiosk._id, code.trim());
                setCode('');
                return `Screen ${screen.name ?? screen.deviceId} paired: it now shows this kiosk.`;
              })
            }
          >
            Pair screen
          </Button>
        </Group>
        {message && (
          <Alert color={message.ok ? 'teal' : 'red'} role={message.ok ? 'status' : 'alert'}>
            {message.text}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

function NewKiosk() {
  const sites = useKioskSites();
  const create = useCreateKiosk();
  const [name, setName] = useState('');
  const [assetId, setAssetId] = useState<string | null>(null);
  const [choices, setChoices] = useState(() => choicesOf([]));
  const [made, setMade] = useState<KioskCredential>();
  const [failed, setFailed] = useState<string>();
  const submit = async () => {
    if (!assetId) return;
    setFailed(undefined);
    try {
      const kiosk = await create({ name: name.trim(), assetId, slides: chosenOf(choices) });
      setMade(kiosk);
      setName('');
    } catch (err) {
      const fields = (err as { formMessages?: Record<string, string> }).formMessages;
      setFailed(fields ? Object.values(fields).join(' ') : err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <Paper withBorder p="md" component="section" aria-label="New kiosk">
      <Stack>
        <Title order={3}>New kiosk</Title>
        <Group align="flex-end">
          <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Select
            label="Site"
            searchable
            data={(sites.data?.data ?? []).map((s) => ({ value: s._id, label: s.siteName }))}
            value={assetId}
            onChange={setAssetId}
          />
        </Group>
        <SlidePicker value={choices} onChange={setChoices} />
        <Group>
          <Button
            onClick={() => void submit()}
            disabled={!assetId || name.trim() === '' || chosenOf(choices).length === 0}
          >
            Create kiosk
          </Button>
        </Group>
        {failed && (
          <Alert color="red" role="alert">
            {failed}
          </Alert>
        )}
        {made && <ScreenAddress credential={made} />}
      </Stack>
    </Paper>
  );
}

/** Releases a screen from its kiosk; the signage service is told first, so a failure leaves it listed. */
function UnpairButton({ screen }: { screen: PairedScreen }) {
  const unpair = useUnpairScreen();
  const [busy, setBusy] = useState(false);
  const name = screen.name ?? screen.deviceId;
  const run = async () => {
    setBusy(true);
    try {
      await unpair(screen.deviceId);
      showToast(`Screen ${name} unpaired.`, 'success');
    } catch (e) {
      showToast(e instanceof Error ? e.message : 'Could not unpair the screen', 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="xs" variant="default" color="red" loading={busy} onClick={() => void run()}>
      Unpair {name}
    </Button>
  );
}

/** /admin/kiosks: the company's wall displays: made for a site, their slides chosen and ordered, screens paired. */
export function KioskAdminPage() {
  const { data, error, isLoading } = useKiosks();
  const sites = useKioskSites();
  const screens = useScreens();
  const siteName = (id: string) => sites.data?.data.find((s) => s._id === id)?.siteName ?? '';
  return (
    <Stack>
      <Title order={2}>Kiosks</Title>
      <NewKiosk />
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} title="There was a problem getting the kiosks." />}
      {data && data.data.length === 0 && <EmptyPanel>No kiosk yet.</EmptyPanel>}
      {data?.data.map((k) => (
        <KioskCard key={k._id} kiosk={k} siteName={siteName(k.assetId)} />
      ))}
      <Title order={3}>Paired screens</Title>
      {screens.data && screens.data.data.length === 0 && <Text c="dimmed">No signage screen is paired.</Text>}
      {screens.data && screens.data.data.length > 0 && (
        <Table aria-label="Paired screens">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Screen</Table.Th>
              <Table.Th>Kiosk</Table.Th>
              <Table.Th>Paired</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {screens.data.data.map((s) => (
              <Table.Tr key={s.deviceId}>
                <Table.Td>{s.name ?? s.deviceId}</Table.Td>
                <Table.Td>{s.kioskName}</Table.Td>
                <Table.Td>{formatDateTime(s.pairedAt)}</Table.Td>
                <Table.Td>
                  <UnpairButton screen={s} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
