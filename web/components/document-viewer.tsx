import { Alert, Button, Center, Group, Loader, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { BoundingBox } from '../../shared/capture/textract.ts';
import type { LoadedPdf } from '../lib/pdf-document.ts';

/** Where a value was read: a page of the document and a box in fractions of that page. */
export interface Highlight {
  page: number;
  bbox: BoundingBox;
  label: string;
}

export interface DocumentViewerProps {
  url: string;
  fileName: string;
  /** 1-based */
  page: number;
  onPage: (page: number) => void;
  highlight?: Highlight | undefined;
}

const isImage = (name: string) => /\.(png|jpe?g|gif|webp)$/i.test(name);
const isPdf = (name: string) => /\.pdf$/i.test(name) || !/\.[a-z0-9]{2,5}$/i.test(name);

function HighlightBox({ highlight }: { highlight: Highlight }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, []);
  const { Left, Top, Width, Height } = highlight.bbox;
  return (
    <div
      ref={box}
      data-testid="value-highlight"
      title={highlight.label}
      style={{
        position: 'absolute',
        left: `${Left * 100}%`,
        top: `${Top * 100}%`,
        width: `${Width * 100}%`,
        height: `${Height * 100}%`,
        outline: '2px solid var(--mantine-color-orange-6)',
        background: 'rgba(255, 146, 43, 0.18)',
        borderRadius: 2,
        pointerEvents: 'none',
      }}
    />
  );
}

function PageControls({ page, pages, onPage }: { page: number; pages: number; onPage: (p: number) => void }) {
  return (
    <Group justify="space-between" gap="xs">
      <Button size="compact-xs" variant="subtle" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </Button>
      <Text size="sm" aria-live="polite" data-testid="page-indicator">
        Page {page} of {pages}
      </Text>
      <Button size="compact-xs" variant="subtle" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next page
      </Button>
    </Group>
  );
}

function PdfDocument({ url, fileName, page, onPage, highlight }: DocumentViewerProps) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [doc, setDoc] = useState<LoadedPdf>();
  const [error, setError] = useState<string>();
  const [width, setWidth] = useState(0);
  const [rendered, setRendered] = useState<number>();

  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    let cancelled = false;
    let loaded: LoadedPdf | undefined;
    setDoc(undefined);
    setError(undefined);
    // PDF.js is loaded with the first document shown, never with the page.
    import('../lib/pdf-document.ts')
      .then(({ loadPdf }) => (cancelled ? undefined : loadPdf(url)))
      .then((d) => {
        loaded = d;
        if (cancelled) void d?.destroy();
        else setDoc(d);
      })
      .catch((e: unknown) => {
        if (!cancelled) setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      cancelled = true;
      void loaded?.destroy();
    };
  }, [url]);

  const pages = doc?.pageCount ?? 0;
  const shown = pages > 0 ? Math.min(Math.max(1, page), pages) : page;

  useEffect(() => {
    if (!doc || width <= 0 || !canvas.current) return;
    let cancelled = false;
    doc
      .render(shown, canvas.current, width)
      .then(() => {
        if (!cancelled) setRendered(shown);
      })
      .catch((e: unknown) => {
        if (!cancelled) setError(e instanceof Error ? e.message : String(e));
      });
    return () => {
      cancelled = true;
    };
  }, [doc, shown, width]);

  if (error) return <Alert color="red">The document could not be shown: {error}</Alert>;
  return (
    <div>
      {pages > 0 && <PageControls page={shown} pages={pages} onPage={onPage} />}
      <div ref={frame} style={{ position: 'relative', marginTop: 8, minHeight: doc ? undefined : 300 }}>
        {!doc && (
          <Center h={300}>
            <Loader size="sm" aria-label="Loading the document" />
          </Center>
        )}
        <canvas
          ref={canvas}
          role="img"
          aria-label={`${fileName}, page ${shown}${pages ? ` of ${pages}` : ''}`}
          data-rendered-page={rendered}
          style={{ display: doc ? 'block' : 'none', boxShadow: '0 0 0 1px var(--mantine-color-gray-3)' }}
        />
        {doc && highlight && highlight.page === shown && rendered === shown && (
          <HighlightBox key={`${highlight.label}-${highlight.page}`} highlight={highlight} />
        )}
      </div>
    </div>
  );
}

function ImageDocument({ url, fileName, highlight }: DocumentViewerProps) {
  return (
    <div>
      <Text size="sm" ta="center">
        Page 1 of 1
      </Text>
      <div style={{ position: 'relative', marginTop: 8 }}>
        <img src={url} alt={fileName} style={{ display: 'block', width: '100%' }} />
        {highlight && highlight.page === 1 && (
          <HighlightBox key={`${highlight.label}-${highlight.page}`} highlight={highlight} />
        )}
      </div>
    </div>
  );
}

/**
 * A bill's document: a PDF drawn page by page (current page / total pages) or an
 * image, with the box the focused value was read from outlined on its page.
 */
export default function DocumentViewer(props: DocumentViewerProps) {
  if (isImage(props.fileName)) return <ImageDocument {...props} />;
  if (isPdf(props.fileName)) return <PdfDocument {...props} />;
  return (
    <Alert color="gray">
      This file cannot be shown in the browser.{' '}
      <a href={props.url} target="_blank" rel="noopener noreferrer">
        Download {props.fileName}
      </a>
    </Alert>
  );
}
