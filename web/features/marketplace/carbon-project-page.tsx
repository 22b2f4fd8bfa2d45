import {
  Anchor,
  Button,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useParams } from 'react-router';
import { MARKETPLACE_MESSAGES } from '../../../shared/schemas/carbon-marketplace.ts';
import { Breadcrumbs } from '../../components/breadcrumbs.tsx';
import { FormPanel } from '../../components/form-panel.tsx';
import { useFormSubmit } from '../../components/form-parts.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formatDate, formatNumber } from '../../lib/format.ts';
import { useMayChange } from '../../lib/may-change.ts';
import { type ProjectView, useProject, useProjectTypes, useRegisterInterest } from './api.ts';
import { ApproachBadge, ExampleBadge, moneyPerTonne, NotNettedNote } from './carbon-parts.tsx';

function Fact({ label, value }: { label: string; value: string | number | undefined }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value ?? '—'}</Text>
    </Stack>
  );
}

function InterestForm({ project }: { project: ProjectView }) {
  const register = useRegisterInterest();
  const form = useFormSubmit();
  const [tonnes, setTonnes] = useState('');
  const [note, setNote] = useState('');
  const submit = () =>
    form.submit(async () => {
      const done = await register(project._id, {
        tonnes: tonnes.trim() === '' ? Number.NaN : Number(tonnes),
        note,
      });
      showToast(done.message, 'success');
      setTonnes('');
      setNote('');
    });
  return (
    <FormPanel
      title="Register interest"
      label="Register interest"
      failure={form.failure}
      onSubmit={submit}
      maw={520}
    >
      <Text size="sm" c="dimmed">
        Our team will contact you about buying from this project.
      </Text>
      <TextInput
        label="Tonnes"
        inputMode="decimal"
        required
        value={tonnes}
        onChange={(e) => setTonnes(e.currentTarget.value)}
        error={form.fields.tonnes}
      />
      <Textarea
        label="Note"
        value={note}
        onChange={(e) => setNote(e.currentTarget.value)}
        error={form.fields.note}
      />
      <Group justify="flex-end">
        <Button type="submit" loading={form.busy}>
          Register interest
        </Button>
      </Group>
    </FormPanel>
  );
}

/** /marketplace/carbon/:id: one project, its documents and the company's interest in it. */
export function CarbonProjectPage() {
  const { id } = useParams();
  const project = useProject(id);
  const types = useProjectTypes();
  const mayChange = useMayChange();
  if (project.isLoading) return <LoadingPanel />;
  if (project.error || !project.data)
    return (
      <ErrorPanel
        error={project.error ?? new Error('Project not found')}
        title={MARKETPLACE_MESSAGES.problem}
      />
    );
  const p = project.data;
  const type = types.data?.data.find((t) => t.key === p.projectType)?.name ?? p.projectType;
  return (
    <Stack gap="md">
      <Breadcrumbs items={[{ label: 'Carbon marketplace', to: '/marketplace/carbon' }, { label: p.name }]} />
      <Group gap="sm">
        <Title order={2}>{p.name}</Title>
        <ApproachBadge approach={p.approach} />
        <ExampleBadge example={p.isExample} />
      </Group>
      {p.isExample && <Text c="dimmed">{MARKETPLACE_MESSAGES.example}</Text>}
      <NotNettedNote />
      <Paper withBorder p="md">
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Fact label="Project type" value={type} />
          <Fact label="Registry" value={[p.registry, p.registryId].filter(Boolean).join(' · ')} />
          <Fact label="Vintage" value={p.vintage} />
          <Fact label="Location" value={[p.location, p.country].filter(Boolean).join(', ')} />
          <Fact label="Price" value={moneyPerTonne(p.pricePerTonne, p.currency)} />
          <Fact label="Available" value={`${formatNumber(p.availableTonnes)} t`} />
        </SimpleGrid>
        {p.description && (
          <Text size="sm" mt="md">
            {p.description}
          </Text>
        )}
      </Paper>
      {p.documents.length > 0 && (
        <Stack gap={4}>
          <Title order={4}>Certification documents</Title>
          <List size="sm">
            {p.documents.map((d) => (
              <List.Item key={d.url}>
                <Anchor href={d.url} target="_blank" rel="noopener noreferrer">
                  {d.name}
                </Anchor>
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
      {p.interests.length > 0 && (
        <Stack gap={4}>
          <Title order={4}>Your company's interest</Title>
          <List size="sm">
            {p.interests.map((i) => (
              <List.Item key={i._id}>
                {formatNumber(i.tonnes)} t on {formatDate(i.createdAt)}
                {i.note ? ` — ${i.note}` : ''}
              </List.Item>
            ))}
          </List>
        </Stack>
      )}
      {/* Staff looking into another company see its interest but register none for it. */}
      {mayChange && <InterestForm project={p} />}
    </Stack>
  );
}
