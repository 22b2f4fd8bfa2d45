import {
  Alert,
  Box,
  Button,
  FileButton,
  Group,
  Paper,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type PointerEvent, useEffect, useRef, useState } from 'react';
import type { Template, TemplateBound } from '../../../shared/capture/model.ts';
import type { BoundingBox } from '../../../shared/capture/textract.ts';
import { LoadingPanel } from '../../components/page-state.tsx';
import type { LoadedPdf } from '../../lib/pdf-document.ts';
import {
  type PreviewPage,
  problemOf,
  TEMPLATE_MESSAGES,
  useSampleUrl,
  useUploadSample,
} from './template-api.ts';

/** Uploads a sample PDF to the template's own place (never the invoice inbox), then makes it the sample. */
export function SampleUpload({
  template,
  onUploaded,
  label = 'Upload sample PDF',
}: {
  template: Template;
  onUploaded: () => Promise<unknown>;
  label?: string;
}) {
  const uploadSample = useUploadSample(template._id);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string>();

  async function upload(file: File | null) {
    if (!file) return;
    setProblem(undefined);
    if (file.type && file.type !== 'application/pdf') {
      setProblem('The sample must be a PDF document.');
      return;
    }
    try {
      setProgress(0);
      await uploadSample(file, setProgress);
      await onUploaded();
    } catch (error) {
      setProblem(problemOf(error, TEMPLATE_MESSAGES.upload));
    } finally {
      setProgress(null);
    }
  }

  return (
    <Stack gap="xs">
      <Group>
        <FileButton onChange={upload} accept="application/pdf">
          {(props) => (
            <Button {...props} variant={template.sampleKey ? 'light' : 'filled'} loading={progress !== null}>
              {label}
            </Button>
          )}
        </FileButton>
        {progress !== null && (
          <Group gap="xs" style={{ flex: 1 }}>
            <progress value={progress} max={100} aria-label="Upload progress" style={{ flex: 1 }} />
            <Text size="xs">{progress === 100 ? 'Uploaded' : `Uploading ${progress}%`}</Text>
          </Group>
        )}
      </Group>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
    </Stack>
  );
}

export interface Overlays {
  lines: boolean;
  bounds: boolean;
  cells: boolean;
  draw: boolean;
}

type Frac = Pick<BoundingBox, 'Left' | 'Top' | 'Width' | 'Height'>;

const pct = (n: number) => `${(n * 100).toFixed(3)}%`;
const place = (b: Frac) => ({
  left: pct(b.Left),
  top: pct(b.Top),
  width: pct(b.Width),
  height: pct(b.Height),
});
const clamp = (n: number) => Math.min(1, Math.max(0, n));

function Rect({
  box,
  color,
  kind,
  label,
  dashed,
}: {
  box: Frac;
  color: string;
  kind: 'line' | 'cell' | 'bound' | 'drawing';
  label?: string;
  dashed?: boolean;
}) {
  return (
    <Box
      title={label}
      data-overlay={kind}
      style={{
        position: 'absolute',
        ...place(box),
        border: `1px ${dashed ? 'dashed' : 'solid'} ${color}`,
        background: `${color}1a`,
        pointerEvents: 'none',
      }}
    >
      {label && (
        <Text
          size="10px"
          style={{ position: 'absolute', top: -14, left: 0, color, whiteSpace: 'nowrap', fontWeight: 600 }}
        >
          {label}
        </Text>
      )}
    </Box>
  );
}

/** Bounds shown on a page: their own page, or the last page for bounds placed on it (-1). */
export const boundsOnPage = (bounds: TemplateBound[], page: number, pageCount: number) =>
  bounds.filter((b) => b.page === page || (b.page === -1 && page === pageCount));

/**
 * The sample, page by page, with what Textract read (lines, table cells) and the template's bounds drawn
 * over it; with drawing on, dragging over the page marks out a new bound.
 */
export function SamplePreview({
  template,
  versionId,
  pages,
  onSaveBound,
}: {
  template: Template;
  versionId: string;
  pages: PreviewPage[] | undefined;
  onSaveBound: (bound: Omit<TemplateBound, '_id'>) => Promise<string | undefined>;
}) {
  const { data: sample, error: sampleError } = useSampleUrl(template);
  const [pdf, setPdf] = useState<LoadedPdf>();
  const [loadProblem, setLoadProblem] = useState<string>();
  const [page, setPage] = useState(1);
  const [overlays, setOverlays] = useState<Overlays>({
    lines: false,
    bounds: true,
    cells: false,
    draw: false,
  });
  const [size, setSize] = useState<{ width: number; height: number }>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ x: number; y: number; box: Frac } | null>(null);
  const [pending, setPending] = useState<Frac & { page: number }>();
  const [boundName, setBoundName] = useState('');
  const [saving, setSaving] = useState(false);
  const [boundProblem, setBoundProblem] = useState<string>();

  const sampleUrl = sample?.url;
  const sampleKey = template.sampleKey;
  // The document is fetched once per sample (a new link for the same sample is not a new document).
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the sample, not by its link.
  useEffect(() => {
    if (!sampleUrl) return;
    let live = true;
    let loaded: LoadedPdf | undefined;
    setLoadProblem(undefined);
    (async () => {
      const bytes = await fetch(sampleUrl).then((r) => {
        if (!r.ok) throw new Error(`The sample could not be fetched (${r.status})`);
        return r.arrayBuffer();
      });
      const { loadPdf } = await import('../../lib/pdf-document.ts');
      loaded = await loadPdf(bytes);
      if (live) {
        setPdf(loaded);
        setPage(1);
      } else await loaded.destroy();
    })().catch((err: unknown) => live && setLoadProblem(err instanceof Error ? err.message : String(err)));
    return () => {
      live = false;
      void loaded?.destroy();
    };
  }, [sampleKey, Boolean(sampleUrl)]);

  useEffect(() => {
    if (!pdf || !canvas.current || !frame.current) return;
    const width = Math.max(320, Math.min(900, frame.current.parentElement?.clientWidth ?? 700));
    let live = true;
    pdf
      .render(page, canvas.current, width)
      .then((drawn) => live && setSize(drawn))
      .catch((err: unknown) => live && setLoadProblem(err instanceof Error ? err.message : String(err)));
    return () => {
      live = false;
    };
  }, [pdf, page]);

  const pageCount = pdf?.pageCount ?? 0;
  const textOfPage = pages?.find((p) => p.page === page);
  const bounds = boundsOnPage(
    template.bounds.filter((b) => b.versionId === versionId),
    page,
    pageCount,
  );

  function at(e: PointerEvent<HTMLDivElement>) {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: clamp((e.clientX - r.left) / r.width), y: clamp((e.clientY - r.top) / r.height) };
  }

  function start(e: PointerEvent<HTMLDivElement>) {
    if (!overlays.draw) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    const p = at(e);
    setPending(undefined);
    setDrag({ ...p, box: { Left: p.x, Top: p.y, Width: 0, Height: 0 } });
  }

  function move(e: PointerEvent<HTMLDivElement>) {
    if (!drag) return;
    const p = at(e);
    setDrag({
      ...drag,
      box: {
        Left: Math.min(drag.x, p.x),
        Top: Math.min(drag.y, p.y),
        Width: Math.abs(p.x - drag.x),
        Height: Math.abs(p.y - drag.y),
      },
    });
  }

  function end() {
    if (!drag) return;
    // A click is not a bound: anything under half a percent of the page either way is ignored.
    if (drag.box.Width > 0.005 && drag.box.Height > 0.005) {
      setPending({ ...drag.box, page });
      setBoundName(`Bound ${template.bounds.length + 1}`);
      setBoundProblem(undefined);
    }
    setDrag(null);
  }

  async function saveBound() {
    if (!pending) return;
    setSaving(true);
    const problem = await onSaveBound({ ...pending, versionId, name: boundName.trim() });
    setSaving(false);
    if (problem) setBoundProblem(problem);
    else setPending(undefined);
  }

  const toggle = (name: keyof Overlays) => (e: { currentTarget: { checked: boolean } }) => {
    const checked = e.currentTarget.checked;
    setOverlays((o) => ({ ...o, [name]: checked }));
  };

  if (sampleError) return <Alert color="red">{problemOf(sampleError, TEMPLATE_MESSAGES.get)}</Alert>;
  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => setPage((p) => Math.max(1, p - 1))}
              disabled={page <= 1}
            >
              Previous page
            </Button>
            <Text size="sm" aria-live="polite" data-testid="page-indicator">
              {pageCount > 0 ? `Page ${page} of ${pageCount}` : 'Loading the sample…'}
            </Text>
            <Button
              size="compact-sm"
              variant="default"
              onClick={() => setPage((p) => Math.min(pageCount, p + 1))}
              disabled={page >= pageCount}
            >
              Next page
            </Button>
          </Group>
          <Group gap="md">
            <Switch label="Lines" checked={overlays.lines} onChange={toggle('lines')} disabled={!pages} />
            <Switch label="Bounds" checked={overlays.bounds} onChange={toggle('bounds')} />
            <Switch label="Cells" checked={overlays.cells} onChange={toggle('cells')} disabled={!pages} />
            <Switch label="Draw bound" checked={overlays.draw} onChange={toggle('draw')} />
          </Group>
        </Group>
        {loadProblem && (
          <Alert color="red" role="alert">
            {loadProblem}
          </Alert>
        )}
        {pending && (
          <Paper withBorder p="xs" bg="gray.0">
            <Group align="flex-end">
              <TextInput
                label="Bound name"
                value={boundName}
                onChange={(e) => setBoundName(e.currentTarget.value)}
                error={boundProblem}
                style={{ flex: 1 }}
                data-autofocus
              />
              <Button onClick={saveBound} loading={saving} disabled={!boundName.trim()}>
                Save bound
              </Button>
              <Button variant="subtle" onClick={() => setPending(undefined)}>
                Cancel
              </Button>
            </Group>
          </Paper>
        )}
        <div ref={frame} style={{ position: 'relative', width: size?.width, maxWidth: '100%' }}>
          {!pdf && !loadProblem && <LoadingPanel label="Loading the sample" />}
          <canvas
            ref={canvas}
            style={{ display: size ? 'block' : 'none', border: '1px solid var(--mantine-color-gray-3)' }}
          />
          {size && (
            <div
              role="application"
              aria-label="Sample page"
              onPointerDown={start}
              onPointerMove={move}
              onPointerUp={end}
              onPointerCancel={() => setDrag(null)}
              style={{
                position: 'absolute',
                inset: 0,
                cursor: overlays.draw ? 'crosshair' : 'default',
                touchAction: overlays.draw ? 'none' : 'auto',
              }}
            >
              {overlays.lines &&
                textOfPage?.lines.map((l, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: lines of a page never reorder.
                  <Rect key={`l${i}`} box={l.box} color="#1c7ed6" kind="line" />
                ))}
              {overlays.cells &&
                textOfPage?.cells.map((c) => (
                  <Rect key={`c${c.row}-${c.column}-${c.box.Left}`} box={c.box} color="#2f9e44" kind="cell" />
                ))}
              {overlays.bounds &&
                bounds.map((b) => <Rect key={b._id} box={b} color="#e8590c" kind="bound" label={b.name} />)}
              {drag && <Rect box={drag.box} color="#e8590c" kind="drawing" dashed />}
              {pending && pending.page === page && (
                <Rect box={pending} color="#e8590c" kind="drawing" dashed label="New bound" />
              )}
            </div>
          )}
        </div>
        {!pages && (
          <Text size="xs" c="dimmed">
            Lines and cells appear once the sample has been analysed.
          </Text>
        )}
        <Title order={6} c="dimmed" fw={400}>
          {sample?.fileName}
        </Title>
      </Stack>
    </Paper>
  );
}
