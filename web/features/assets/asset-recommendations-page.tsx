import {
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type FormEvent, useState } from 'react';
import useSWR from 'swr';
import { ASSET_MESSAGES } from '../../../shared/schemas/asset-messages.ts';
import { RECOMMENDATION_STATUSES } from '../../../shared/schemas/portfolio.ts';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { useApi } from '../../lib/app-context.tsx';
import { formatNumber } from '../../lib/format.ts';
import { type AssetView, type ListPage, type RecommendationView, useRefresh } from './api.ts';
import { AssetFrame } from './asset-frame.tsx';
import { FormAlert, useFormFailure } from './ui.tsx';

const PRIORITY_COLOURS = { low: 'gray', medium: 'yellow', high: 'red' } as const;
const EMPTY = {
  title: '',
  description: '',
  category: '',
  priority: 'medium',
  estimatedSaving: '',
  estimatedCost: '',
};
const num = (v: string) => (v.trim() ? Number(v.replace(/,/g, '')) : undefined);

function AddRecommendation({ asset, globals }: { asset: AssetView; globals: RecommendationView[] }) {
  const api = useApi();
  const refresh = useRefresh();
  const [v, setV] = useState(EMPTY);
  const [globalId, setGlobalId] = useState('');
  const form = useFormFailure();
  const set = (k: keyof typeof EMPTY) => (value: string) => setV((x) => ({ ...x, [k]: value }));

  async function add(event: FormEvent) {
    event.preventDefault();
    const body = {
      ...(globalId ? { globalRecommendationId: globalId } : {}),
      ...(v.title.trim() || !globalId ? { title: v.title } : {}),
      ...(v.description.trim() ? { description: v.description } : {}),
      ...(v.category.trim() ? { category: v.category } : {}),
      priority: v.priority,
      estimatedSaving: num(v.estimatedSaving),
      estimatedCost: num(v.estimatedCost),
    };
    if (await form.run(() => api.post(`/assets/${asset._id}/recommendations`, body))) {
      setV(EMPTY);
      setGlobalId('');
      await refresh('/recommendations');
    }
  }

  const f = form.fields;
  return (
    <Paper withBorder p="md" component="form" onSubmit={add} noValidate aria-label="Add a recommendation">
      <Stack>
        <Title order={4}>Add a recommendation</Title>
        <FormAlert failure={form.failure} />
        {globals.length > 0 && (
          <NativeSelect
            label="From the company's list"
            value={globalId}
            error={f.globalRecommendationId}
            onChange={(e) => setGlobalId(e.currentTarget.value)}
            data={[
              { value: '', label: 'Write a new one' },
              ...globals.map((g) => ({ value: g._id, label: g.title })),
            ]}
          />
        )}
        <TextInput
          label="Title"
          required={!globalId}
          value={v.title}
          error={f.title}
          onChange={(e) => set('title')(e.currentTarget.value)}
        />
        <Textarea
          label="Description"
          value={v.description}
          error={f.description}
          onChange={(e) => set('description')(e.currentTarget.value)}
        />
        <SimpleGrid cols={{ base: 1, sm: 4 }}>
          <TextInput
            label="Category"
            value={v.category}
            error={f.category}
            onChange={(e) => set('category')(e.currentTarget.value)}
          />
          <NativeSelect
            label="Priority"
            value={v.priority}
            error={f.priority}
            onChange={(e) => set('priority')(e.currentTarget.value)}
            data={['low', 'medium', 'high']}
          />
          <TextInput
            label="Saving (kWh/yr)"
            inputMode="decimal"
            value={v.estimatedSaving}
            error={f.estimatedSaving}
            onChange={(e) => set('estimatedSaving')(e.currentTarget.value)}
          />
          <TextInput
            label="Cost (£)"
            inputMode="decimal"
            value={v.estimatedCost}
            error={f.estimatedCost}
            onChange={(e) => set('estimatedCost')(e.currentTarget.value)}
          />
        </SimpleGrid>
        <Group>
          <Button type="submit" loading={form.busy}>
            Add
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Recommendations({ asset }: { asset: AssetView }) {
  const api = useApi();
  const refresh = useRefresh();
  const mine = useSWR<ListPage<RecommendationView>>(`/recommendations?assetId=${asset._id}`);
  const all = useSWR<ListPage<RecommendationView>>('/recommendations?limit=1000');
  const form = useFormFailure(ASSET_MESSAGES.recommendationsProblem);
  const globals = (all.data?.data ?? []).filter((r) => !r.assetId);
  const act = async (action: () => Promise<unknown>) => {
    if (await form.run(action)) await refresh('/recommendations');
  };
  return (
    <Stack>
      <FormAlert failure={form.failure} />
      {mine.isLoading && <LoadingPanel />}
      {mine.error && <ErrorPanel error={mine.error} title={ASSET_MESSAGES.recommendationsProblem} />}
      {mine.data && mine.data.total === 0 && <EmptyPanel>No recommendations for this site yet.</EmptyPanel>}
      {mine.data && mine.data.total > 0 && (
        <Paper withBorder>
          <Table aria-label="Recommendations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Recommendation</Table.Th>
                <Table.Th>Priority</Table.Th>
                <Table.Th ta="right">Saving (kWh/yr)</Table.Th>
                <Table.Th ta="right">Cost (£)</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mine.data.data.map((r) => (
                <Table.Tr key={r._id}>
                  <Table.Td>{r.title}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={PRIORITY_COLOURS[r.priority] ?? 'gray'}>
                      {r.priority}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">{formatNumber(r.estimatedSaving)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(r.estimatedCost)}</Table.Td>
                  <Table.Td>
                    <NativeSelect
                      size="xs"
                      aria-label={`Status of ${r.title}`}
                      value={r.status}
                      onChange={(e) =>
                        act(() => api.patch(`/recommendations/${r._id}`, { status: e.currentTarget.value }))
                      }
                      data={[...RECOMMENDATION_STATUSES]}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() => act(() => api.del(`/assets/${asset._id}/recommendations/${r._id}`))}
                    >
                      Delete
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      )}
      <AddRecommendation asset={asset} globals={globals} />
    </Stack>
  );
}

/** /assets/{id}/recommendations */
export function AssetRecommendationsPage() {
  return <AssetFrame tab="recommendations">{(asset) => <Recommendations asset={asset} />}</AssetFrame>;
}
