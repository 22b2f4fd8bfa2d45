import { Alert, Button, Group, Paper, Stack, Stepper, Table, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { isCompanyWide } from '../../../shared/access/route-access.ts';
import { showToast } from '../../components/toast-store.ts';
import { useSession } from '../../lib/app-context.tsx';
import {
  type FormFailure,
  formFailureOf,
  NO_FAILURE,
  requiredFields,
  withoutField,
} from '../../lib/form-errors.ts';
import { entityOptions, useCreateEntity, useStructure } from './api.ts';
import {
  AddressFields,
  DetailsFields,
  EMPTY_DRAFT,
  type EntityDraft,
  entityBody,
  ParentField,
} from './entity-fields.tsx';

const STEP_OF_FIELD = (field: string) => (field === 'legalName' || field === 'companyNumber' ? 0 : 1);

/** /new-entity: the details, then the entity's place in the group and its address, then a last look. */
export function EntityWizardPage() {
  const navigate = useNavigate();
  const createEntity = useCreateEntity();
  const { access } = useSession();
  const [params] = useSearchParams();
  const structure = useStructure();
  const [draft, setDraft] = useState<EntityDraft>({
    ...EMPTY_DRAFT,
    parentEntityId: params.get('parentEntityId') ?? '',
  });
  const [step, setStep] = useState(0);
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const tree = structure.data?.data ?? [];

  const change = (field: keyof EntityDraft, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setFailure((f) => withoutField(withoutField(f, field), `address.${field}`));
  };

  const next = () => {
    if (step === 0) {
      const missing = requiredFields({ legalName: draft.legalName });
      if (Object.keys(missing).length > 0) {
        setFailure({ fields: missing });
        return;
      }
    }
    setStep((s) => Math.min(s + 1, 2));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (step < 2) {
      next();
      return;
    }
    setBusy(true);
    try {
      const entity = await createEntity(entityBody(draft));
      showToast(`${entity.legalName} was added`, 'success');
      navigate(`/entities/${entity._id}/structure`);
    } catch (error) {
      const found = formFailureOf(error);
      setFailure(found);
      const fields = Object.keys(found.fields);
      if (fields.length > 0) setStep(Math.min(...fields.map(STEP_OF_FIELD)));
    } finally {
      setBusy(false);
    }
  }

  const parentName = entityOptions(tree)
    .find((o) => o.value === draft.parentEntityId)
    ?.label.trim();
  const address = [draft.streetAddress, draft.locality, draft.region, draft.postCode, draft.country]
    .filter((v) => v.trim())
    .join(', ');
  return (
    <Stack maw={720}>
      <Title order={2}>New entity</Title>
      <Paper withBorder p="md" component="form" onSubmit={submit} noValidate aria-label="New entity">
        <Stack>
          {failure.message && (
            <Alert color="red" role="alert">
              {failure.message}
            </Alert>
          )}
          <Stepper active={step} onStepClick={(s) => s < step && setStep(s)} size="sm">
            <Stepper.Step label="Details">
              <DetailsFields draft={draft} errors={failure.fields} onChange={change} />
            </Stepper.Step>
            <Stepper.Step label="Group and address">
              <Stack>
                <ParentField
                  tree={tree}
                  value={draft.parentEntityId}
                  error={failure.fields.parentEntityId}
                  onChange={(v) => change('parentEntityId', v)}
                  allowTop={isCompanyWide(access)}
                />
                <AddressFields draft={draft} errors={failure.fields} onChange={change} />
              </Stack>
            </Stepper.Step>
            <Stepper.Step label="Review">
              <Table aria-label="Review">
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th w={180}>Legal name</Table.Th>
                    <Table.Td>{draft.legalName}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Company number</Table.Th>
                    <Table.Td>{draft.companyNumber || '—'}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Parent entity</Table.Th>
                    <Table.Td>{parentName ?? 'None (top of the group)'}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>Registered address</Table.Th>
                    <Table.Td>{address || '—'}</Table.Td>
                  </Table.Tr>
                </Table.Tbody>
              </Table>
            </Stepper.Step>
          </Stepper>
          <Group justify="space-between">
            <Button
              variant="default"
              disabled={step === 0}
              onClick={() => setStep((s) => Math.max(s - 1, 0))}
            >
              Back
            </Button>
            <Button type="submit" loading={busy}>
              {step < 2 ? 'Next' : 'Create entity'}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
