import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { type AreaUnitSystem, formatArea, formatDate } from '../../lib/format.ts';
import {
  type AssetView,
  addressLine,
  useAssetAccountTypes,
  useAssetGroupsOf,
  useRefreshGeocoordinates,
  useSetSatelliteImages,
} from './api.ts';
import { AssetFrame, assetPath, useMayChangeSite } from './asset-frame.tsx';
import { AssetPictures } from './asset-pictures.tsx';
import { AreaUnitToggle, EpcBadge, FormAlert, useFormFailure } from './ui.tsx';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={180}>{label}</Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

function Location({ asset }: { asset: AssetView }) {
  const refreshGeocoordinates = useRefreshGeocoordinates();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const at = asset.geocoordinates;
  const mayChange = useMayChangeSite(asset);
  async function lookUp() {
    setBusy(true);
    setProblem(undefined);
    try {
      await refreshGeocoordinates(asset._id);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Group gap="xs">
      <Text size="sm">{at ? `${at.lat.toFixed(5)}, ${at.lng.toFixed(5)}` : 'Not known yet'}</Text>
      {mayChange && (
        <Button size="compact-xs" variant="subtle" onClick={lookUp} loading={busy}>
          Look up from postcode
        </Button>
      )}
      {problem && (
        <Text size="sm" c="red" role="alert">
          {problem}
        </Text>
      )}
    </Group>
  );
}

function Details({ asset }: { asset: AssetView }) {
  const [units, setUnits] = useState<AreaUnitSystem>(asset.floorAreaUnit === 'ft2' ? 'imperial' : 'metric');
  const types = useAssetAccountTypes(asset._id);
  const groups = useAssetGroupsOf(asset._id);
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        Details
      </Title>
      <Table>
        <Table.Tbody>
          <Row label="Address">{addressLine(asset.address) || '—'}</Row>
          <Row label="Type">{asset.assetType ?? '—'}</Row>
          <Row label="Floor area">
            <Group gap="sm">
              <Text size="sm">{formatArea(asset.floorArea, units) || '—'}</Text>
              <AreaUnitToggle value={units} onChange={setUnits} />
            </Group>
          </Row>
          <Row label="EPC">
            {asset.epc ? (
              <Group gap="xs">
                <EpcBadge band={asset.epc.band} />
                <Text size="sm">
                  rating {asset.epc.rating}
                  {asset.epc.lodgementDate ? `, lodged ${formatDate(asset.epc.lodgementDate)}` : ''}
                </Text>
              </Group>
            ) : (
              <Group gap="xs">
                <EpcBadge band={asset.epcRating} />
                <Anchor component={Link} to={assetPath(asset._id, 'documents')} size="sm">
                  Find the certificate
                </Anchor>
              </Group>
            )}
          </Row>
          <Row label="Location">
            <Location asset={asset} />
          </Row>
          <Row label="Utilities">
            <Group gap={4}>
              {(types.data?.data ?? []).map((t) => (
                <Badge key={t} variant="light">
                  {t} ({types.data?.counts[t]})
                </Badge>
              ))}
              {types.data?.data.length === 0 && <Text size="sm">No meters yet</Text>}
            </Group>
          </Row>
          <Row label="Portfolios">
            {(groups.data?.data ?? []).map((g) => g.name).join(', ') || (groups.data ? 'None' : '')}
          </Row>
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function SatelliteImages({ asset }: { asset: AssetView }) {
  const setSatelliteImages = useSetSatelliteImages();
  const [url, setUrl] = useState('');
  const form = useFormFailure();
  const mayChange = useMayChangeSite(asset);
  const list = asset.satelliteImages ?? [];
  async function save(next: { url: string; label?: string }[]) {
    const done = await form.run(() => setSatelliteImages(asset._id, next));
    if (done) {
      setUrl('');
    }
  }
  const add = (event: FormEvent) => {
    event.preventDefault();
    void save([...list, { url }]);
  };
  const field = Object.entries(form.fields).find(([k]) => k.startsWith('satelliteImages'))?.[1];
  return (
    <Paper withBorder p="md">
      <Title order={4} mb="sm">
        Satellite images
      </Title>
      <Stack gap="xs">
        <FormAlert failure={form.failure} />
        {list.map((image, i) => (
          <Group key={image.url} gap="xs">
            <Anchor href={image.url} target="_blank" rel="noreferrer" size="sm">
              {image.label ?? image.url}
            </Anchor>
            {mayChange && (
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                onClick={() => save(list.filter((_, j) => j !== i))}
              >
                Remove
              </Button>
            )}
          </Group>
        ))}
        {list.length === 0 && !mayChange && <Text c="dimmed">No satellite images.</Text>}
        {mayChange && (
          <Group component="form" onSubmit={add} align="end">
            <TextInput
              label="Image address"
              placeholder="https://…"
              value={url}
              error={field}
              onChange={(e) => setUrl(e.currentTarget.value)}
            />
            <Button type="submit" variant="light" loading={form.busy} disabled={!url.trim()}>
              Add
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** /assets/{id}/overview: the site's details, pictures and satellite images. */
export function AssetOverviewPage() {
  return (
    <AssetFrame tab="overview">
      {(asset) => (
        <Stack>
          {asset.deleted && <Alert color="red">This site has been deleted.</Alert>}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Details asset={asset} />
            <Stack>
              <Paper withBorder p="md">
                <AssetPictures asset={asset} />
              </Paper>
              <SatelliteImages asset={asset} />
            </Stack>
          </SimpleGrid>
        </Stack>
      )}
    </AssetFrame>
  );
}
