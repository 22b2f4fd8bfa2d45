import { Button, Group, TextInput } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { FormPanel } from '../../components/form-panel.tsx';
import { showToast } from '../../components/toast-store.ts';
import {
  type FormFailure,
  formFailureOf,
  NO_FAILURE,
  requiredFields,
  withoutField,
} from '../../lib/form-errors.ts';
import type { NamedRecordCalls } from './api.ts';

interface NamedRecord {
  _id: string;
  name: string;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The create/edit form of a company record that is a name plus one more part (a role's permissions, a
 * permission set's grants). The caller keeps that part's state, passes it as `extra` for the request body
 * and draws its fields as children. Every label, toast and confirmation is built from `noun`.
 */
export function NamedRecordForm({
  record,
  noun,
  calls,
  listRoute,
  extra,
  extraFields,
  maw,
  children,
}: {
  record?: NamedRecord;
  /** Lower case, as it stands mid-sentence: 'role', 'permission set'. */
  noun: string;
  /** The record's endpoint hooks, which revalidate its lists. */
  calls: NamedRecordCalls;
  /** Where the user goes after a save or delete. */
  listRoute: string;
  extra: Record<string, unknown>;
  /** The extra part's fields whose server messages the children show beside themselves. */
  extraFields: readonly string[];
  maw: number;
  children: (failure: FormFailure) => ReactNode;
}) {
  const navigate = useNavigate();
  const [name, setName] = useState(record?.name ?? '');
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState<'save' | 'delete' | null>(null);
  const Noun = capitalised(noun);

  async function save() {
    const missing = requiredFields({ name });
    if (Object.keys(missing).length > 0) {
      setFailure({ fields: missing });
      return;
    }
    setBusy('save');
    try {
      const body = { name: name.trim(), ...extra };
      await calls.save(body, record?._id);
      showToast(record ? `${Noun} saved` : `${Noun} created`, 'success');
      navigate(listRoute);
    } catch (error) {
      setFailure(formFailureOf(error, ['name', ...extraFields]));
      showToast(`There was a problem saving the ${noun}.`, 'error');
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!record || !window.confirm(`Delete the ${noun} ${record.name}?`)) return;
    setBusy('delete');
    try {
      await calls.remove(record._id);
      showToast(`${Noun} deleted`, 'success');
      navigate(listRoute);
    } catch (error) {
      setFailure(formFailureOf(error));
      showToast(`There was a problem deleting the ${noun}.`, 'error');
    } finally {
      setBusy(null);
    }
  }

  return (
    <FormPanel label={record ? `Edit ${noun}` : `New ${noun}`} maw={maw} failure={failure} onSubmit={save}>
      <TextInput
        label="Name"
        required
        value={name}
        error={failure.fields.name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          setFailure((f) => withoutField(f, 'name'));
        }}
      />
      {children(failure)}
      <Group justify="space-between">
        {record ? (
          <Button color="red" variant="subtle" onClick={remove} loading={busy === 'delete'}>
            {`Delete ${noun}`}
          </Button>
        ) : (
          <span />
        )}
        <Button type="submit" loading={busy === 'save'}>
          {record ? `Save ${noun}` : `Create ${noun}`}
        </Button>
      </Group>
    </FormPanel>
  );
}
