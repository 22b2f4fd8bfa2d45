import { Alert, Button, Group, MultiSelect, Paper, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { type FormFailure, formFailureOf, NO_FAILURE, requiredFields } from '../../lib/form-errors.ts';
import { useMayChange } from '../../lib/may-change.ts';
import { type AssetGroup, useAllAssets, useCreateGroup, useGroup, useUpdateGroup } from './api.ts';
import { PORTFOLIO_WRITERS } from './portfolio-list-page.tsx';

interface Draft {
  name: string;
  description: string;
  assetIds: string[];
}

/** A message about one of the listed assets (`assetIds.3`) belongs beside the asset picker. */
const assetsError = (fields: Record<string, string>) =>
  fields.assetIds ?? Object.entries(fields).find(([k]) => k.startsWith('assetIds.'))?.[1];

function PortfolioForm({
  initial,
  submitLabel,
  send,
}: {
  initial: Draft;
  submitLabel: string;
  send: (draft: Draft) => Promise<AssetGroup>;
}) {
  const navigate = useNavigate();
  const assets = useAllAssets();
  const [draft, setDraft] = useState(initial);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = requiredFields({ name: draft.name });
    if (Object.keys(missing).length > 0) {
      setFailure({ fields: missing });
      return;
    }
    setBusy(true);
    try {
      const group = await send({ ...draft, name: draft.name.trim() });
      showToast(`${group.name} was saved`, 'success');
      navigate(`/portfolios/${group._id}/assets`);
    } catch (error) {
      setFailure(formFailureOf(error));
    } finally {
      setBusy(false);
    }
  }

  const options = (assets.data?.data ?? [])
    .map((a) => ({
      value: a._id,
      label: a.address?.locality ? `${a.siteName}, ${a.address.locality}` : a.siteName,
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate maw={720} aria-label="Portfolio">
      <Stack>
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        <TextInput
          label="Name"
          required
          value={draft.name}
          error={failure.fields.name}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
        />
        <Textarea
          label="Description"
          autosize
          minRows={2}
          value={draft.description}
          error={failure.fields.description}
          onChange={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
        />
        <MultiSelect
          label="Sites"
          placeholder={assets.isLoading ? 'Loading sites…' : 'Choose the sites in this portfolio'}
          searchable
          data={options}
          value={draft.assetIds}
          error={assetsError(failure.fields)}
          onChange={(assetIds) => setDraft({ ...draft, assetIds })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Shown instead of a portfolio form to those who may read portfolios but not change them. */
const READ_ONLY_PORTFOLIOS = 'You can read portfolios but not create or change them.';

/** /portfolios/create */
export function PortfolioCreatePage() {
  const createGroup = useCreateGroup();
  if (!useMayChange(PORTFOLIO_WRITERS)) return <EmptyPanel>{READ_ONLY_PORTFOLIOS}</EmptyPanel>;
  return (
    <Stack>
      <Title order={2}>Create portfolio</Title>
      <PortfolioForm
        initial={{ name: '', description: '', assetIds: [] }}
        submitLabel="Create portfolio"
        send={(d) =>
          createGroup({
            name: d.name,
            ...(d.description.trim() ? { description: d.description.trim() } : {}),
            assetIds: d.assetIds,
          })
        }
      />
    </Stack>
  );
}

/** /portfolios/{id}/edit */
export function PortfolioEditPage() {
  const { id } = useParams();
  const updateGroup = useUpdateGroup();
  const { data: group, error, isLoading } = useGroup(id);
  const mayChange = useMayChange(PORTFOLIO_WRITERS);
  if (!mayChange) return <EmptyPanel>{READ_ONLY_PORTFOLIOS}</EmptyPanel>;
  if (isLoading) return <LoadingPanel />;
  if (error || !group) return <ErrorPanel error={error ?? new Error('Portfolio not found')} />;
  return (
    <Stack>
      <Title order={2}>Edit {group.name}</Title>
      <PortfolioForm
        key={group._id}
        initial={{ name: group.name, description: group.description ?? '', assetIds: group.assetIds }}
        submitLabel="Save"
        send={(d) =>
          updateGroup(group._id, {
            name: d.name,
            description: d.description.trim(),
            assetIds: d.assetIds,
          })
        }
      />
    </Stack>
  );
}
