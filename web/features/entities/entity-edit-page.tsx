import { Alert, Button, Divider, Group, Paper, Stack, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { isCompanyWide } from '../../../shared/access/route-access.ts';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useSession } from '../../lib/app-context.tsx';
import {
  type FormFailure,
  formFailureOf,
  NO_FAILURE,
  requiredFields,
  withoutField,
} from '../../lib/form-errors.ts';
import { type Entity, useDeleteEntity, useStructure, useUpdateEntity } from './api.ts';
import {
  AddressFields,
  DetailsFields,
  type EntityDraft,
  entityEditBody,
  ParentField,
} from './entity-fields.tsx';
import { EntityLayout } from './entity-layout.tsx';

const draftOf = (e: Entity): EntityDraft => ({
  legalName: e.legalName,
  companyNumber: e.companyNumber ?? '',
  parentEntityId: e.parentEntityId ?? '',
  streetAddress: e.address?.streetAddress ?? '',
  locality: e.address?.locality ?? '',
  region: e.address?.region ?? '',
  postCode: e.address?.postCode ?? '',
  country: e.address?.country ?? '',
});

function EditForm({ entity }: { entity: Entity }) {
  const navigate = useNavigate();
  const updateEntity = useUpdateEntity();
  const deleteEntity = useDeleteEntity();
  const { access } = useSession();
  const structure = useStructure();
  const [draft, setDraft] = useState(() => draftOf(entity));
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null);

  const change = (field: keyof EntityDraft, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setFailure((f) => withoutField(withoutField(f, field), `address.${field}`));
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    const missing = requiredFields({ legalName: draft.legalName });
    if (Object.keys(missing).length > 0) {
      setFailure({ fields: missing });
      return;
    }
    setBusy('save');
    try {
      const body = entityEditBody(draftOf(entity), draft);
      // Moving is only asked for when the parent changed, so an unchanged form never re-checks the tree.
      if ((entity.parentEntityId ?? '') === draft.parentEntityId) delete body.parentEntityId;
      await updateEntity(entity._id, body);
      showToast('Entity saved', 'success');
      navigate(`/entities/${entity._id}/structure`);
    } catch (error) {
      setFailure(formFailureOf(error));
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!window.confirm(`Delete ${entity.legalName}?`)) return;
    setBusy('delete');
    try {
      await deleteEntity(entity._id);
      showToast('Entity deleted', 'success');
      navigate('/entities');
    } catch (error) {
      setFailure(formFailureOf(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={save} noValidate maw={720} aria-label="Edit entity">
      <Stack>
        {failure.message && (
          <Alert color="red" role="alert">
            {failure.message}
          </Alert>
        )}
        <DetailsFields draft={draft} errors={failure.fields} onChange={change} />
        <ParentField
          tree={structure.data?.data ?? []}
          value={draft.parentEntityId}
          error={failure.fields.parentEntityId}
          onChange={(v) => change('parentEntityId', v)}
          except={entity._id}
          allowTop={isCompanyWide(access)}
        />
        <Divider label="Registered address" labelPosition="left" />
        <AddressFields draft={draft} errors={failure.fields} onChange={change} />
        <Group justify="space-between">
          <Button color="red" variant="subtle" onClick={remove} loading={busy === 'delete'}>
            Delete entity
          </Button>
          <Button type="submit" loading={busy === 'save'}>
            Save
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** /entities/{id}/edit: the entity's details, its address, and its parent (which moves it in the tree). */
function EntityEditContent() {
  return (
    <EntityLayout tab="edit">
      {(entity) => (
        <Stack>
          <Title order={4}>Edit entity</Title>
          <EditForm key={entity._id} entity={entity} />
        </Stack>
      )}
    </EntityLayout>
  );
}

export function EntityEditPage() {
  return (
    <ChangesOnly>
      <EntityEditContent />
    </ChangesOnly>
  );
}
