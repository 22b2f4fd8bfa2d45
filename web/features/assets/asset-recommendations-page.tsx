import {
  Anchor,
  Button,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { canUseRoute } from '../../../shared/access/route-access.ts';
import { ASSET_MESSAGES } from '../../../shared/schemas/asset-messages.ts';
import { RECOMMENDATION_STATUSES } from '../../../shared/schemas/recommendation.ts';
import { FormAlert } from '../../components/form-alert.tsx';
import { FormPanel } from '../../components/form-panel.tsx';
import { ListPanel } from '../../components/list-panel.tsx';
import { PRIORITIES, PriorityBadge, typedAmount } from '../../components/recommendation-parts.tsx';
import { useSession } from '../../lib/app-context.tsx';
import { formatNumber } from '../../lib/format.ts';
import {
  companyOwn,
  type RecommendationView,
  useAddAssetRecommendation,
  useAssetRecommendations,
  useDeleteAssetRecommendation,
  useRecommendations,
  useSetRecommendationStatus,
} from '../../lib/recommendations-api.ts';
import { useFormValues } from '../../lib/use-form-values.ts';
import type { AssetView } from './api.ts';
import { AssetFrame, useMayChangeSite } from './asset-frame.tsx';
import { useFormFailure } from './ui.tsx';

/** Who may open /recommendations, the company's own list that sites copy from. */
const COMPANY_LIST_USERS = ['company_user', 'company_user_full'] as const;
const EMPTY = {
  title: '',
  description: '',
  category: '',
  priority: 'medium',
  estimatedSaving: '',
  estimatedCost: '',
};

function AddRecommendation({ asset, globals }: { asset: AssetView; globals: RecommendationView[] }) {
  const addRecommendation = useAddAssetRecommendation(asset._id);
  const [globalId, setGlobalId] = useState('');
  const form = useFormFailure();
  const { values: v, field, reset } = useFormValues(EMPTY, form.fields);

  async function add() {
    const body = {
      ...(globalId ? { globalRecommendationId: globalId } : {}),
      ...(v.title.trim() || !globalId ? { title: v.title } : {}),
      ...(v.description.trim() ? { description: v.description } : {}),
      ...(v.category.trim() ? { category: v.category } : {}),
      priority: v.priority,
      estimatedSaving: typedAmount(v.estimatedSaving),
      estimatedCost: typedAmount(v.estimatedCost),
    };
    if (await form.run(() => addRecommendation(body))) {
      reset();
      setGlobalId('');
    }
  }

  return (
    <FormPanel
      title="Add a recommendation"
      label="Add a recommendation"
      failure={form.failure}
      onSubmit={add}
    >
      {globals.length > 0 && (
        <NativeSelect
          label="From the company's list"
          value={globalId}
          error={form.fields.globalRecommendationId}
          onChange={(e) => setGlobalId(e.currentTarget.value)}
          data={[
            { value: '', label: 'Write a new one' },
            ...globals.map((g) => ({ value: g._id, label: g.title })),
          ]}
        />
      )}
      <TextInput label="Title" required={!globalId} {...field('title')} />
      <Textarea label="Description" {...field('description')} />
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <TextInput label="Category" {...field('category')} />
        <NativeSelect label="Priority" {...field('priority')} data={[...PRIORITIES]} />
        <TextInput label="Saving (kWh/yr)" inputMode="decimal" {...field('estimatedSaving')} />
        <TextInput label="Cost (£)" inputMode="decimal" {...field('estimatedCost')} />
      </SimpleGrid>
      <Group>
        <Button type="submit" loading={form.busy}>
          Add
        </Button>
      </Group>
    </FormPanel>
  );
}

function Recommendations({ asset }: { asset: AssetView }) {
  const setStatus = useSetRecommendationStatus();
  const deleteRecommendation = useDeleteAssetRecommendation(asset._id);
  const mine = useAssetRecommendations(asset._id);
  const all = useRecommendations();
  const form = useFormFailure(ASSET_MESSAGES.recommendationsProblem);
  const globals = companyOwn(all.data);
  const act = (action: () => Promise<unknown>) => form.run(action);
  const { access } = useSession();
  const mayChange = useMayChangeSite(asset);
  return (
    <Stack>
      {canUseRoute(COMPANY_LIST_USERS, access) && (
        <Group justify="flex-end">
          <Anchor component={Link} to="/recommendations" size="sm">
            Company recommendations
          </Anchor>
        </Group>
      )}
      <FormAlert failure={form.failure} />
      <ListPanel
        list={mine}
        label="Recommendations"
        empty="No recommendations for this site yet."
        errorTitle={ASSET_MESSAGES.recommendationsProblem}
        head={
          <>
            <Table.Th>Recommendation</Table.Th>
            <Table.Th>Priority</Table.Th>
            <Table.Th ta="right">Saving (kWh/yr)</Table.Th>
            <Table.Th ta="right">Cost (£)</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th aria-label="Actions" />
          </>
        }
        row={(r) => (
          <Table.Tr key={r._id}>
            <Table.Td>{r.title}</Table.Td>
            <Table.Td>
              <PriorityBadge priority={r.priority} />
            </Table.Td>
            <Table.Td ta="right">{formatNumber(r.estimatedSaving)}</Table.Td>
            <Table.Td ta="right">{formatNumber(r.estimatedCost)}</Table.Td>
            <Table.Td>
              {mayChange ? (
                <NativeSelect
                  size="xs"
                  aria-label={`Status of ${r.title}`}
                  value={r.status}
                  onChange={(e) => act(() => setStatus(r._id, e.currentTarget.value))}
                  data={[...RECOMMENDATION_STATUSES]}
                />
              ) : (
                r.status
              )}
            </Table.Td>
            <Table.Td>
              {mayChange && (
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  onClick={() => act(() => deleteRecommendation(r._id))}
                >
                  Delete
                </Button>
              )}
            </Table.Td>
          </Table.Tr>
        )}
      />
      {mayChange && <AddRecommendation asset={asset} globals={globals} />}
    </Stack>
  );
}

/** /assets/{id}/recommendations */
export function AssetRecommendationsPage() {
  return <AssetFrame tab="recommendations">{(asset) => <Recommendations asset={asset} />}</AssetFrame>;
}
