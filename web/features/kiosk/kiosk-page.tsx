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
import { useKioskConsumption, useKioskLive } from './api.ts';
import { addressLine, type KioskConsumption, type KioskLive, SLIDE_MS, slidesOf } from './kiosk-data.ts';
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
      stale={Boolean(live.error)}
      preview={preview}
    />
  );
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
  stale,
  preview,
}: {
  live: KioskLive;
  consumption: KioskConsumption | undefined;
  consumptionError: unknown;
  stale: boolean;
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
    <Stack mih="100vh" p="xl" gap="lg" justify="space-between">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1}>{live.asset?.siteName ?? live.kiosk.name ?? 'Voltfolio'}</Title>
          <Text c="dimmed" size="lg">
            {addressLine(live.asset)}
          </Text>
        </div>
        <Group gap="xs">
          {preview && <Badge color="orange">Preview</Badge>}
          {stale && <Badge color="gray">Offline, showing earlier data</Badge>}
          {live.company?.name && (
            <Text fw={700} size="lg">
              {live.company.name}
            </Text>
          )}
        </Group>
      </Group>
      <section aria-roledescription="slide" aria-label={slide.title} style={{ flex: 1 }}>
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
