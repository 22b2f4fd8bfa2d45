import { Alert, Badge, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { useServices } from '../../lib/app-context.tsx';
import {
  createDeviceApi,
  type KioskAuth,
  kioskErrorPath,
  kioskHeaders,
  parseKioskAuth,
} from '../../lib/device-auth.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useKioskConsumption, useKioskLive, useKioskNews } from './api.ts';
import {
  addressLine,
  type KioskConsumption,
  type KioskLive,
  type KioskNews,
  SLIDE_MS,
  slidesOf,
} from './kiosk-data.ts';
import { SlideBody } from './kiosk-slides.tsx';

/** /kiosk/{id}?kioskAuth=id|secret[&preview]: the wall display of one building (01 §2.1). */
export function KioskPage() {
  const { id } = useParams();
  const [params] = useSearchParams();
  const raw = params.get('kioskAuth');
  const auth = parseKioskAuth(raw);
  if (!auth || auth.id !== id) {
    const why = !raw
      ? 'The address has no kioskAuth parameter.'
      : !auth
        ? 'kioskAuth must be the kiosk id and its secret separated by a bar (id|secret).'
        : 'kioskAuth belongs to another kiosk.';
    return <Navigate to={kioskErrorPath('INVALID_AUTH', why)} replace />;
  }
  const preview = params.has('preview') && params.get('preview') !== 'false';
  return <KioskDisplay auth={auth} preview={preview} />;
}

function KioskDisplay({ auth, preview }: { auth: KioskAuth; preview: boolean }) {
  const { config } = useServices();
  const navigate = useNavigate();
  const api = useMemo(
    () =>
      createDeviceApi({
        baseUrl: config.apiBase,
        headers: kioskHeaders(auth, preview),
        // A refused key marks the screen unauthorised; it shows the error page with the API's reason.
        onUnauthorized: (error) =>
          navigate(
            kioskErrorPath(error.code === 'INVALID_AUTH' ? error.code : 'INVALID_AUTH', error.message),
            {
              replace: true,
            },
          ),
      }),
    [config.apiBase, auth, preview, navigate],
  );
  const live = useKioskLive(api, auth.id);
  const consumption = useKioskConsumption(api, auth.id);
  const news = useKioskNews(api, auth.id);
  const online = useOnline();
  const failing = Boolean(live.error || consumption.error || news.error);
  // When the data last came in whole: what a screen that lost its network says it is showing.
  const [lastGood, setLastGood] = useState<Date | undefined>();
  const received = `${live.data ? 1 : 0}${consumption.data?.generatedAt ?? ''}${news.data?.fetchedAt ?? ''}`;
  useEffect(() => {
    if (received !== '0' && !failing) setLastGood(new Date());
  }, [received, failing]);
  // Back on the network: ask at once rather than at the next slow poll.
  useEffect(() => {
    if (!online) return;
    void live.mutate();
    void consumption.mutate();
    void news.mutate();
  }, [online, live.mutate, consumption.mutate, news.mutate]);

  if (!live.data) {
    if (live.error) return <LoadFailed error={live.error} onRetry={() => void live.mutate()} />;
    return (
      <Center h="100vh" role="status" aria-label="Loading the display">
        <Loader />
      </Center>
    );
  }
  return (
    <Slides
      live={live.data}
      consumption={consumption.data}
      consumptionError={consumption.error}
      news={news.data}
      offlineSince={!online || failing ? (lastGood ?? null) : undefined}
      preview={preview}
    />
  );
}

/** Whether the browser believes it is on a network, following its online and offline events. */
function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

function LoadFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" maw={640}>
        <Alert color="red" title="This display could not be loaded" role="alert" w="100%">
          {error instanceof Error ? error.message : String(error)}
        </Alert>
        <Text c="dimmed">The screen tries again by itself every 30 seconds.</Text>
        <Button variant="light" onClick={onRetry}>
          Try again now
        </Button>
      </Stack>
    </Center>
  );
}

function Slides({
  live,
  consumption,
  consumptionError,
  news,
  offlineSince,
  preview,
}: {
  live: KioskLive;
  consumption: KioskConsumption | undefined;
  consumptionError: unknown;
  news: KioskNews | undefined;
  /** undefined while connected; otherwise when the data shown was fetched (null: not known). */
  offlineSince: Date | null | undefined;
  preview: boolean;
}) {
  const slides = slidesOf(live.kiosk.slides);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (preview) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % slides.length), SLIDE_MS);
    return () => clearInterval(timer);
  }, [slides.length, preview]);
  const slide = slides[index % slides.length] ?? slides[0];
  if (!slide) return null;
  const go = (step: number) => setIndex((i) => (i + step + slides.length) % slides.length);

  return (
    <Stack h="100dvh" p="xl" gap="lg" justify="space-between" style={{ overflow: 'hidden' }}>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>{live.asset?.siteName ?? live.kiosk.name ?? 'Voltfolio'}</Title>
          <Text c="dimmed" size="lg">
            {addressLine(live.asset)}
          </Text>
        </div>
        <Group gap="xs">
          {preview && <Badge color="orange">Preview</Badge>}
          {offlineSince !== undefined && (
            <Badge color="gray" size="lg" role="status">
              {offlineSince
                ? `Offline: showing data from ${formatDateTime(offlineSince)}`
                : 'Offline: showing earlier data'}
            </Badge>
          )}
          {live.company?.name && (
            <Text fw={700} size="lg">
              {live.company.name}
            </Text>
          )}
        </Group>
      </Group>
      <section
        aria-roledescription="slide"
        aria-label={slide.title}
        style={{ flex: 1, minHeight: 0, overflow: 'hidden' }}
      >
        <Title order={2} fz={40}>
          {slide.title}
        </Title>
        <Text size="xl" c="dimmed" mb="xl">
          {slide.subtitle}
        </Text>
        <SlideBody
          slide={slide.key}
          live={live}
          consumption={consumption}
          consumptionError={consumptionError}
          news={news}
        />
      </section>
      <Group justify="space-between">
        <Group gap={6} aria-label="Slides">
          {slides.map((s, i) => (
            <span
              key={s.key}
              className="vf-live-dot"
              data-status={i === index % slides.length ? 'open' : 'closed'}
              title={s.title}
            />
          ))}
        </Group>
        {preview && (
          <Group gap="xs">
            <Button variant="default" onClick={() => go(-1)}>
              Previous slide
            </Button>
            <Button variant="default" onClick={() => go(1)}>
              Next slide
            </Button>
          </Group>
        )}
      </Group>
    </Stack>
  );
}
