import {
  Button,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { ASSET_MESSAGES } from '../../../shared/schemas/asset-messages.ts';
import { RECOMMENDATION_STATUSES } from '../../../shared/schemas/recommendation.ts';
import { FormAlert } from '../../components/form-alert.tsx';
import { FormPanel } from '../../components/form-panel.tsx';
import { ListPanel } from '../../components/list-panel.tsx';
import { LoadingPanel } from '../../components/page-state.tsx';
import { PRIORITIES, PriorityBadge, typedAmount } from '../../components/recommendation-parts.tsx';
import { RowActions } from '../../components/row-actions.tsx';
import { clearedFields } from '../../lib/cleared-fields.ts';
import { type FormFailure, formFailureOf } from '../../lib/form-errors.ts';
import { formatNumber } from '../../lib/format.ts';
import { useMayChange } from '../../lib/may-change.ts';
import {
  companyOwn,
  type RecommendationView as GlobalRecommendation,
  useAddGlobalRecommendation,
  useDeleteGlobalRecommendation,
  useGlobalRecommendation,
  useRecommendations,
  useUpdateGlobalRecommendation,
} from '../../lib/recommendations-api.ts';
import { useFormValues } from '../../lib/use-form-values.ts';

const EMPTY = {
  title: '',
  description: '',
  category: '',
  priority: 'medium',
  status: 'open',
  estimatedSaving: '',
  estimatedCost: '',
};
type Values = typeof EMPTY;
const FIELDS = Object.keys(EMPTY);
const NO_FAILURE: FormFailure = { fields: {} };

const valuesOf = (r: GlobalRecommendation): Values => ({
  title: r.title,
  description: r.description ?? '',
  category: r.category ?? '',
  priority: r.priority,
  status: r.status,
  estimatedSaving: r.estimatedSaving === undefined ? '' : String(r.estimatedSaving),
  estimatedCost: r.estimatedCost === undefined ? '' : String(r.estimatedCost),
});

const bodyOf = (v: Values) => ({
  title: v.title,
  ...(v.description.trim() ? { description: v.description } : {}),
  ...(v.category.trim() ? { category: v.category } : {}),
  priority: v.priority,
  status: v.status,
  ...(typedAmount(v.estimatedSaving) === undefined
    ? {}
    : { estimatedSaving: typedAmount(v.estimatedSaving) }),
  ...(typedAmount(v.estimatedCost) === undefined ? {} : { estimatedCost: typedAmount(v.estimatedCost) }),
});

/** The fields of a recommendation, for adding one and for editing one. */
function RecommendationForm({
  title,
  label,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  title: string;
  label: string;
  initial: Values;
  submitLabel: string;
  onSubmit: (values: Values) => Promise<FormFailure | null>;
  onCancel?: () => void;
}) {
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const { values, field, reset } = useFormValues(initial, failure.fields);
  async function submit() {
    setBusy(true);
    const failed = await onSubmit(values);
    setBusy(false);
    setFailure(failed ?? NO_FAILURE);
    if (!failed) reset();
  }
  return (
    <FormPanel title={title} label={label} failure={failure} onSubmit={submit}>
      <TextInput label="Title" required {...field('title')} />
      <Textarea label="Description" {...field('description')} />
      <SimpleGrid cols={{ base: 1, sm: 5 }}>
        <TextInput label="Category" {...field('category')} />
        <NativeSelect label="Priority" {...field('priority')} data={[...PRIORITIES]} />
        <NativeSelect label="Status" {...field('status')} data={[...RECOMMENDATION_STATUSES]} />
        <TextInput label="Saving (kWh/yr)" inputMode="decimal" {...field('estimatedSaving')} />
        <TextInput label="Cost (£)" inputMode="decimal" {...field('estimatedCost')} />
      </SimpleGrid>
      <Group>
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="subtle" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </Group>
    </FormPanel>
  );
}

/** The edit form, filled from the recommendation as the server has it now. */
function EditRecommendation({ id, onDone }: { id: string; onDone: () => void }) {
  const updateRecommendation = useUpdateGlobalRecommendation();
  const { data, error } = useGlobalRecommendation(id);
  if (error) return <FormAlert failure={{ message: ASSET_MESSAGES.recommendationsProblem }} />;
  if (!data) return <LoadingPanel />;
  return (
    <RecommendationForm
      key={data._id}
      title={`Edit ${data.title}`}
      label="Edit recommendation"
      initial={valuesOf(data)}
      submitLabel="Save"
      onCancel={onDone}
      onSubmit={async (values) => {
        try {
          await updateRecommendation(id, { ...clearedFields(values, data), ...bodyOf(values) });
          onDone();
          return null;
        } catch (err) {
          return formFailureOf(err, FIELDS);
        }
      }}
    />
  );
}

/**
 * /recommendations: the company's own list of recommendations, which any site can copy; company-wide
 * users list, add, edit and delete them here.
 */
export function GlobalRecommendationsPage() {
  const addRecommendation = useAddGlobalRecommendation();
  const deleteRecommendation = useDeleteGlobalRecommendation();
  const all = useRecommendations();
  const [editing, setEditing] = useState<string | null>(null);
  const [problem, setProblem] = useState<string>();
  const mayChange = useMayChange();
  const globals = companyOwn(all.data);
  const list = { ...all, data: all.data ? { data: globals, total: globals.length } : undefined };

  async function remove(r: GlobalRecommendation) {
    if (!window.confirm(`Delete ${r.title}?`)) return;
    setProblem(undefined);
    try {
      await deleteRecommendation(r._id);
      if (editing === r._id) setEditing(null);
    } catch (err) {
      setProblem(formFailureOf(err).message ?? ASSET_MESSAGES.recommendationsProblem);
    }
  }

  async function add(values: Values): Promise<FormFailure | null> {
    try {
      await addRecommendation(bodyOf(values));
      return null;
    } catch (err) {
      return formFailureOf(err, FIELDS);
    }
  }

  return (
    <Stack>
      <Title order={2}>Company recommendations</Title>
      <Text c="dimmed" size="sm">
        Recommendations kept for the whole company: a site's recommendations page can copy any of them.
      </Text>
      <FormAlert failure={{ message: problem }} />
      <ListPanel
        list={list}
        label="Company recommendations"
        empty="The company has no recommendations of its own yet."
        errorTitle={ASSET_MESSAGES.recommendationsProblem}
        head={
          <>
            <Table.Th>Recommendation</Table.Th>
            <Table.Th>Category</Table.Th>
            <Table.Th>Priority</Table.Th>
            <Table.Th ta="right">Saving (kWh/yr)</Table.Th>
            <Table.Th ta="right">Cost (£)</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th aria-label="Actions" />
          </>
        }
        row={(r) => (
          <Table.Tr key={r._id}>
            <Table.Td>
              <Text size="sm">{r.title}</Text>
              {r.description && (
                <Text size="xs" c="dimmed">
                  {r.description}
                </Text>
              )}
            </Table.Td>
            <Table.Td>{r.category}</Table.Td>
            <Table.Td>
              <PriorityBadge priority={r.priority} />
            </Table.Td>
            <Table.Td ta="right">{formatNumber(r.estimatedSaving)}</Table.Td>
            <Table.Td ta="right">{formatNumber(r.estimatedCost)}</Table.Td>
            <Table.Td>{r.status}</Table.Td>
            <Table.Td>
              <RowActions mayChange={mayChange} onEdit={() => setEditing(r._id)} onDelete={() => remove(r)} />
            </Table.Td>
          </Table.Tr>
        )}
      />
      {!mayChange ? null : editing ? (
        <EditRecommendation key={editing} id={editing} onDone={() => setEditing(null)} />
      ) : (
        <RecommendationForm
          title="Add a company recommendation"
          label="Add a company recommendation"
          initial={EMPTY}
          submitLabel="Add"
          onSubmit={add}
        />
      )}
    </Stack>
  );
}
