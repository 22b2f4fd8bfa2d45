import {
  Alert,
  Badge,
  Button,
  Card,
  FileButton,
  Group,
  Image,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { ASSET_MESSAGES } from '../../../shared/schemas/asset-messages.ts';
import { ApiError } from '../../lib/api-client.ts';
import {
  type AssetImageView,
  type AssetView,
  useAssetWhile,
  useEnhanceImage,
  useRefresh,
  useSetPrimaryImage,
  useUploadAssetImage,
} from './api.ts';
import { useMayChangeSite } from './asset-frame.tsx';
import { UploadProgress } from './ui.tsx';

const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status < 500 ? error.message : fallback;

/**
 * The site's pictures: upload one (it appears once its thumbnail is made), pick the primary one, and
 * make an enhanced copy of an uploaded picture.
 */
export function AssetPictures({ asset }: { asset: AssetView }) {
  const refresh = useRefresh();
  const uploadImage = useUploadAssetImage(asset._id);
  const setPrimary = useSetPrimaryImage(asset._id);
  const enhanceImage = useEnhanceImage(asset._id);
  const mayChange = useMayChangeSite(asset);
  const [percent, setPercent] = useState<number>();
  const [waitingFor, setWaitingFor] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [enhanced, setEnhanced] = useState<Record<string, string>>({});
  const { data } = useAssetWhile(asset._id, waitingFor !== undefined);
  const images = (data ?? asset).images ?? [];
  const arrived = waitingFor !== undefined && images.some((i) => i._id === waitingFor);
  useEffect(() => {
    if (!arrived) return;
    setWaitingFor(undefined);
    setPercent(undefined);
    void refresh('/assets');
  }, [arrived, refresh]);
  // A picture the worker cannot read never arrives; stop waiting rather than spin for ever.
  useEffect(() => {
    if (!waitingFor) return;
    const timer = setTimeout(() => {
      setWaitingFor(undefined);
      setPercent(undefined);
      setProblem('The picture could not be read. Please try another one.');
    }, 45_000);
    return () => clearTimeout(timer);
  }, [waitingFor]);

  async function upload(file: File | null) {
    if (!file) return;
    setProblem(undefined);
    const type = file.type === 'image/png' || file.type === 'image/jpeg' ? file.type : undefined;
    if (!type) {
      setProblem(ASSET_MESSAGES.unsupportedImage);
      return;
    }
    try {
      const ticket = await uploadImage(file, type, setPercent);
      setWaitingFor(ticket.imageId);
    } catch (error) {
      setPercent(undefined);
      setProblem(messageOf(error, ASSET_MESSAGES.uploadUrlProblem));
    }
  }

  async function makePrimary(image: AssetImageView, index: number) {
    await setPrimary(image._id ? { imageId: image._id } : { index });
  }

  async function enhance(image: AssetImageView) {
    setProblem(undefined);
    try {
      const result = await enhanceImage(String(image._id));
      setEnhanced((e) => ({ ...e, [String(image._id)]: result.previewUrl }));
    } catch (error) {
      setProblem(messageOf(error, ASSET_MESSAGES.enhanceProblem));
    }
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={4}>Pictures</Title>
        {mayChange && (
          <FileButton onChange={upload} accept="image/png,image/jpeg">
            {(props) => (
              <Button {...props} size="xs" variant="light" disabled={percent !== undefined}>
                Upload a picture
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      <UploadProgress percent={percent} label="Picture upload" />
      {waitingFor && (
        <Text size="sm" c="dimmed" role="status">
          Making the thumbnail…
        </Text>
      )}
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {images.length === 0 && !waitingFor && <Text c="dimmed">No pictures yet.</Text>}
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        {images.map((image, index) => {
          const preview = enhanced[String(image._id)] ?? image.enhancedUrl;
          return (
            <Card key={image._id ?? index} withBorder padding="xs">
              <Card.Section>
                <Image
                  src={image.thumbUrl ?? image.url}
                  alt={`Picture ${index + 1} of ${asset.siteName}`}
                  h={110}
                  fit="cover"
                />
              </Card.Section>
              <Group gap={4} mt="xs">
                {image.isPrimary ? (
                  <Badge size="sm">Primary</Badge>
                ) : (
                  mayChange && (
                    <Button size="compact-xs" variant="subtle" onClick={() => makePrimary(image, index)}>
                      Make primary
                    </Button>
                  )
                )}
                {mayChange && image._id && (
                  <Button size="compact-xs" variant="subtle" onClick={() => enhance(image)}>
                    Enhance
                  </Button>
                )}
              </Group>
              {preview && (
                <a href={preview} target="_blank" rel="noreferrer">
                  <Text size="xs">Enhanced preview</Text>
                </a>
              )}
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
