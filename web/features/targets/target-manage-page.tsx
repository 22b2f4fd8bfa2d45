import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import {
  EMISSION_SCOPES,
  type EmissionScope,
  TARGET_MEASURES,
  type TargetMeasure,
  type TargetScope,
} from '../../../shared/schemas/targets.ts';
import { unitOf } from '../../../shared/targets/target-maths.ts';
import { DataTable, type DataTableColumn } from '../../components/data-table.tsx';
import { FormPanel } from '../../components/form-panel.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useSession } from '../../lib/app-context.tsx';
import { type FormFailure, formFailureOf, NO_FAILURE } from '../../lib/form-errors.ts';
import { formatNumber } from '../../lib/format.ts';
import {
  type Scopes,
  type TargetView,
  useCreateTarget,
  useDeleteTarget,
  useTargetScopes,
  useTargets,
  useUpdateTarget,
} from './api.ts';
import { listOf, mayChangeTarget, writableScopeKinds } from './target-scopes.ts';

interface MilestoneDraft {
  year: string;
  reductionPercent: string;
}

interface Draft {
  name: string;
  scope: TargetScope;
  scopeId: string;
  measure: TargetMeasure;
  emissionScope: EmissionScope;
  normalisation: 'absolute' | 'per-m2';
  baselineYear: string;
  baselineOverride: string;
  targetYear: string;
  reductionPercent: string;
  linearPath: boolean;
  milestones: MilestoneDraft[];
}

const thisYear = new Date().getFullYear();

const EMPTY: Draft = {
  name: '',
  scope: 'company',
  scopeId: '',
  measure: 'emissions',
  emissionScope: 'all',
  normalisation: 'absolute',
  baselineYear: String(thisYear - 2),
  baselineOverride: '',
  targetYear: '2030',
  reductionPercent: '',
  linearPath: true,
  milestones: [],
};

const MEASURE_LABELS: Record<TargetMeasure, string> = {
  energy: 'Energy (kWh)',
  emissions: 'Emissions (kgCO2e)',
  cost: 'Cost (£)',
  water: 'Water (m³)',
  waste: 'Waste (kg)',
};

const EMISSION_LABELS: Record<EmissionScope, string> = {
  all: 'Scopes 1, 2 and 3',
  scope1: 'Scope 1',
  scope2: 'Scope 2 (location-based)',
  scope1and2: 'Scopes 1 and 2',
  scope3: 'Scope 3',
};

const SCOPE_LABELS: Record<TargetScope, string> = {
  company: 'Whole company',
  entity: 'Entity',
  portfolio: 'Portfolio',
  site: 'Site',
};

/** A number typed in a form: empty is left out, so the server names the field as required. */
const numberOf = (text: string) => (text.trim() === '' ? undefined : Number(text.replace(/,/g, '')));

function bodyOf(d: Draft, editing: boolean) {
  const override = numberOf(d.baselineOverride);
  return {
    name: d.name,
    scope: d.scope,
    ...(d.scope !== 'company' && d.scopeId ? { scopeId: d.scopeId } : {}),
    measure: d.measure,
    emissionScope: d.measure === 'emissions' ? d.emissionScope : 'all',
    normalisation: d.normalisation,
    baselineYear: numberOf(d.baselineYear),
    // Emptied on an edit: the baseline goes back to the figure worked out from the data.
    ...(override !== undefined ? { baselineOverride: override } : editing ? { baselineOverride: null } : {}),
    targetYear: numberOf(d.targetYear),
    reductionPercent: numberOf(d.reductionPercent),
    linearPath: d.linearPath,
    milestones: d.milestones.map((m) => ({
      year: numberOf(m.year),
      reductionPercent: numberOf(m.reductionPercent),
    })),
  };
}

const draftOf = (t: TargetView): Draft => ({
  name: t.name,
  scope: t.scope,
  scopeId: t.scopeId ?? '',
  measure: t.measure,
  emissionScope: t.emissionScope,
  normalisation: t.normalisation,
  baselineYear: String(t.baselineYear),
  baselineOverride: t.baselineOverride === undefined ? '' : String(t.baselineOverride),
  targetYear: String(t.targetYear),
  reductionPercent: String(t.reductionPercent),
  linearPath: t.linearPath,
  milestones: t.milestones.map((m) => ({
    year: String(m.year),
    reductionPercent: String(m.reductionPercent),
  })),
});

function scopeChoices(scopes: Scopes | undefined, scope: Exclude<TargetScope, 'company'>) {
  return [
    { value: '', label: 'Choose…' },
    ...listOf(scopes, scope).map((o) => ({ value: o._id, label: o.name })),
  ];
}

function TargetForm({
  initial,
  editing,
  kinds,
  onDone,
}: {
  initial: Draft;
  editing?: TargetView;
  kinds: readonly TargetScope[];
  onDone: () => void;
}) {
  const scopes = useTargetScopes();
  const createTarget = useCreateTarget();
  const updateTarget = useUpdateTarget();
  const [draft, setDraft] = useState(initial);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const err = failure.fields;

  async function submit() {
    setBusy(true);
    try {
      const saved = editing
        ? await updateTarget(editing._id, bodyOf(draft, true))
        : await createTarget(bodyOf(draft, false));
      showToast(`${saved.name} was saved`, 'success');
      setFailure(NO_FAILURE);
      if (!editing) setDraft(EMPTY);
      onDone();
    } catch (error) {
      setFailure(formFailureOf(error));
    } finally {
      setBusy(false);
    }
  }

  const scopeOptions = kinds.map((s) => ({ value: s, label: SCOPE_LABELS[s] }));
  const milestone = (i: number, patch: Partial<MilestoneDraft>) =>
    set({ milestones: draft.milestones.map((m, j) => (j === i ? { ...m, ...patch } : m)) });

  return (
    <FormPanel
      title={editing ? `Edit ${editing.name}` : 'New target'}
      label="Target"
      failure={failure}
      onSubmit={submit}
    >
      <TextInput
        label="Name"
        required
        value={draft.name}
        error={err.name}
        onChange={(e) => set({ name: e.currentTarget.value })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect
          label="Covers"
          data={scopeOptions}
          value={draft.scope}
          error={err.scope}
          onChange={(e) => set({ scope: e.currentTarget.value as TargetScope, scopeId: '' })}
        />
        {draft.scope !== 'company' && (
          <NativeSelect
            label={SCOPE_LABELS[draft.scope]}
            data={scopeChoices(scopes.data, draft.scope)}
            value={draft.scopeId}
            error={err.scopeId}
            onChange={(e) => set({ scopeId: e.currentTarget.value })}
          />
        )}
        <NativeSelect
          label="Measure"
          data={TARGET_MEASURES.map((m) => ({ value: m, label: MEASURE_LABELS[m] }))}
          value={draft.measure}
          error={err.measure}
          onChange={(e) => set({ measure: e.currentTarget.value as TargetMeasure })}
        />
        {draft.measure === 'emissions' && (
          <NativeSelect
            label="Emission scopes"
            data={EMISSION_SCOPES.map((s) => ({ value: s, label: EMISSION_LABELS[s] }))}
            value={draft.emissionScope}
            error={err.emissionScope}
            onChange={(e) => set({ emissionScope: e.currentTarget.value as EmissionScope })}
          />
        )}
        <NativeSelect
          label="Counted as"
          data={[
            { value: 'absolute', label: 'Absolute' },
            { value: 'per-m2', label: 'Per m² of floor area' },
          ]}
          value={draft.normalisation}
          error={err.normalisation}
          onChange={(e) => set({ normalisation: e.currentTarget.value === 'per-m2' ? 'per-m2' : 'absolute' })}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 4 }}>
        <TextInput
          label="Baseline year"
          required
          inputMode="numeric"
          value={draft.baselineYear}
          error={err.baselineYear}
          onChange={(e) => set({ baselineYear: e.currentTarget.value })}
        />
        <TextInput
          label={`Baseline (${unitOf(draft)})`}
          description="Leave empty to use the figure from the data"
          inputMode="decimal"
          value={draft.baselineOverride}
          error={err.baselineOverride}
          onChange={(e) => set({ baselineOverride: e.currentTarget.value })}
        />
        <TextInput
          label="Target year"
          required
          inputMode="numeric"
          value={draft.targetYear}
          error={err.targetYear}
          onChange={(e) => set({ targetYear: e.currentTarget.value })}
        />
        <TextInput
          label="Reduction (%)"
          required
          inputMode="decimal"
          value={draft.reductionPercent}
          error={err.reductionPercent}
          onChange={(e) => set({ reductionPercent: e.currentTarget.value })}
        />
      </SimpleGrid>
      <Checkbox
        label="Straight path from the baseline to the target (SBTi-style linear reduction); otherwise steps at milestones"
        checked={draft.linearPath}
        onChange={(e) => set({ linearPath: e.currentTarget.checked })}
      />
      <Stack gap="xs">
        <Text fw={600} size="sm">
          Milestones
        </Text>
        {err.milestones && (
          <Text c="red" size="sm">
            {err.milestones}
          </Text>
        )}
        {draft.milestones.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: milestones have no identity but their place
          <Group key={i} align="flex-start">
            <TextInput
              label={`Milestone ${i + 1} year`}
              inputMode="numeric"
              value={m.year}
              error={err[`milestones.${i}.year`]}
              onChange={(e) => milestone(i, { year: e.currentTarget.value })}
            />
            <TextInput
              label={`Milestone ${i + 1} reduction (%)`}
              inputMode="decimal"
              value={m.reductionPercent}
              error={err[`milestones.${i}.reductionPercent`]}
              onChange={(e) => milestone(i, { reductionPercent: e.currentTarget.value })}
            />
            <ActionIcon
              mt={28}
              variant="subtle"
              color="red"
              aria-label={`Remove milestone ${i + 1}`}
              onClick={() => set({ milestones: draft.milestones.filter((_, j) => j !== i) })}
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        <Group>
          <Button
            variant="light"
            size="xs"
            onClick={() => set({ milestones: [...draft.milestones, { year: '', reductionPercent: '' }] })}
          >
            Add milestone
          </Button>
        </Group>
      </Stack>
      <Group justify="flex-end">
        {editing && (
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        )}
        <Button type="submit" loading={busy}>
          {editing ? 'Save target' : 'Create target'}
        </Button>
      </Group>
    </FormPanel>
  );
}

/** /targets/manage: the targets the user may see, and a form to add or change one. */
export function TargetManagePage() {
  const targets = useTargets();
  const deleteTarget = useDeleteTarget();
  const [editing, setEditing] = useState<TargetView | undefined>();
  const scopes = useTargetScopes();
  const kinds = writableScopeKinds(useSession().access, scopes.data);
  const mayChange = (t: TargetView) => mayChangeTarget(kinds, scopes.data, t);

  async function remove(t: TargetView) {
    if (!window.confirm(`Delete the target ${t.name}?`)) return;
    try {
      await deleteTarget(t._id);
      showToast(`${t.name} was deleted`, 'success');
    } catch (error) {
      showToast(formFailureOf(error).message ?? 'The target could not be deleted', 'error');
    }
  }

  const columns: DataTableColumn<TargetView>[] = [
    { key: 'name', label: 'Name', value: (t) => t.name },
    { key: 'scope', label: 'Covers', value: (t) => t.scopeName ?? SCOPE_LABELS[t.scope] },
    {
      key: 'measure',
      label: 'Measure',
      value: (t) =>
        `${MEASURE_LABELS[t.measure]}${t.measure === 'emissions' ? `, ${EMISSION_LABELS[t.emissionScope]}` : ''}${t.normalisation === 'per-m2' ? ' per m²' : ''}`,
    },
    { key: 'baselineYear', label: 'Baseline year', value: (t) => t.baselineYear, numeric: true },
    { key: 'targetYear', label: 'Target year', value: (t) => t.targetYear, numeric: true },
    {
      key: 'reduction',
      label: 'Reduction',
      value: (t) => t.reductionPercent,
      render: (t) => `${formatNumber(t.reductionPercent)}%`,
      numeric: true,
    },
  ];
  if (kinds.length > 0)
    columns.push({
      key: 'actions',
      csv: false,
      label: 'Actions',
      sortable: false,
      value: () => '',
      render: (t) =>
        mayChange(t) && (
          <Group gap="xs" wrap="nowrap">
            <Button size="xs" variant="light" onClick={() => setEditing(t)}>
              Edit
            </Button>
            <Button size="xs" variant="subtle" color="red" onClick={() => remove(t)}>
              Delete
            </Button>
          </Group>
        ),
    });

  return (
    <Stack>
      <Title order={2}>Manage targets</Title>
      <DataTable
        label="Targets"
        columns={columns}
        rows={targets.data?.data}
        rowKey={(t) => t._id}
        loading={targets.isLoading}
        empty="No targets yet."
        csvFilename="targets.csv"
      />
      {kinds.length === 0 ? null : editing ? (
        <TargetForm
          key={editing._id}
          initial={draftOf(editing)}
          editing={editing}
          kinds={kinds}
          onDone={() => setEditing(undefined)}
        />
      ) : (
        <TargetForm
          key={`new-${kinds.join()}`}
          initial={{ ...EMPTY, scope: kinds[0] ?? EMPTY.scope }}
          kinds={kinds}
          onDone={() => undefined}
        />
      )}
    </Stack>
  );
}
