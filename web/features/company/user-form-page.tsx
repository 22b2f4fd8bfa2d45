import { Button, Checkbox, Group, NativeSelect, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { PermissionName } from '../../../shared/access/permission-names.ts';
import { ChangesOnly } from '../../components/changes-only.tsx';
import { FormPanel } from '../../components/form-panel.tsx';
import { ErrorPanel, LoadingPanel } from '../../components/page-state.tsx';
import { showToast } from '../../components/toast-store.ts';
import { useSession } from '../../lib/app-context.tsx';
import {
  type FormFailure,
  formFailureOf,
  NO_FAILURE,
  requiredFields,
  withoutField,
} from '../../lib/form-errors.ts';
import {
  type CompanyUser,
  useAddUser,
  useCompanyRoles,
  useCompanyUser,
  useGrantables,
  useGrantSets,
  useUpdateUser,
} from './api.ts';
import { CompanyLayout } from './company-layout.tsx';
import { GrantEditor } from './grant-editor.tsx';
import { type Grants, mergeGrants, normaliseGrants } from './grants.ts';
import { PermissionCheckboxes } from './permission-checkboxes.tsx';

interface UserDraft {
  name: string;
  email: string;
  roleId: string;
  permissions: PermissionName[];
  grants: Grants;
  sendWelcomeEmail: boolean;
}

const draftOf = (u?: CompanyUser): UserDraft => ({
  name: u?.name ?? '',
  email: u?.email ?? '',
  roleId: u?.roleId ?? '',
  permissions: u?.permissions ?? [],
  grants: normaliseGrants(u?.grants),
  sendWelcomeEmail: false,
});

const FIELDS = ['name', 'email', 'roleId', 'permissions'];

function UserForm({ user }: { user?: CompanyUser }) {
  const navigate = useNavigate();
  const { company } = useSession();
  const addUser = useAddUser(company._id);
  const updateUser = useUpdateUser(company._id);
  const roles = useCompanyRoles();
  const grantSets = useGrantSets();
  const grantables = useGrantables();
  const [draft, setDraft] = useState(() => draftOf(user));
  const [failure, setFailure] = useState<FormFailure>(NO_FAILURE);
  const [busy, setBusy] = useState(false);
  const [grantSetId, setGrantSetId] = useState('');

  const change = <K extends keyof UserDraft>(field: K, value: UserDraft[K]) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setFailure((f) => withoutField(f, field));
  };

  function applyGrantSet() {
    const set = grantSets.data?.data.find((s) => s._id === grantSetId);
    if (!set) return;
    change('grants', mergeGrants(draft.grants, normaliseGrants(set.grants)));
    setGrantSetId('');
  }

  async function save() {
    const missing = requiredFields(user ? { name: draft.name } : { name: draft.name, email: draft.email });
    if (Object.keys(missing).length > 0) {
      setFailure({ fields: missing });
      return;
    }
    setBusy(true);
    const body = {
      name: draft.name.trim(),
      // Editing: "No role" must clear the stored role, so it is sent as null rather than left out.
      ...(draft.roleId ? { roleId: draft.roleId } : user ? { roleId: null } : {}),
      permissions: draft.permissions,
      grants: draft.grants,
    };
    try {
      if (user) {
        await updateUser(user.userSub, body);
      } else {
        await addUser({
          ...body,
          email: draft.email.trim(),
          sendWelcomeEmail: draft.sendWelcomeEmail,
        });
      }
      showToast(user ? 'User saved' : 'User created', 'success');
      navigate('/company/users');
    } catch (error) {
      const f = formFailureOf(error, FIELDS);
      // Grant errors name one list entry (grants.assets.read.0): they show above the form.
      setFailure(f);
      showToast(
        user ? 'There was a problem saving the user.' : 'There was a problem creating the user.',
        'error',
      );
    } finally {
      setBusy(false);
    }
  }

  const roleOptions = [
    { value: '', label: 'No role' },
    ...(roles.data?.data ?? []).map((r) => ({ value: r._id, label: r.name })),
  ];
  const sets = grantSets.data?.data ?? [];

  return (
    <FormPanel label={user ? 'Edit user' : 'New user'} maw={900} failure={failure} onSubmit={save}>
      <TextInput
        label="Name"
        required
        value={draft.name}
        error={failure.fields.name}
        onChange={(e) => change('name', e.currentTarget.value)}
      />
      <TextInput
        label="E-mail"
        type="email"
        required={!user}
        disabled={user !== undefined}
        value={draft.email}
        error={failure.fields.email}
        onChange={(e) => change('email', e.currentTarget.value)}
      />
      <NativeSelect
        label="Role"
        data={roleOptions}
        value={draft.roleId}
        error={failure.fields.roleId}
        onChange={(e) => change('roleId', e.currentTarget.value)}
      />
      <PermissionCheckboxes
        label="Permissions"
        value={draft.permissions}
        error={failure.fields.permissions}
        onChange={(v) => change('permissions', v)}
      />
      <Title order={4}>Grants</Title>
      {sets.length > 0 && (
        <Group align="flex-end" gap="xs">
          <NativeSelect
            label="Grant set"
            data={[
              { value: '', label: 'Choose a grant set' },
              ...sets.map((s) => ({ value: s._id, label: s.name })),
            ]}
            value={grantSetId}
            onChange={(e) => setGrantSetId(e.currentTarget.value)}
          />
          <Button variant="default" onClick={applyGrantSet} disabled={!grantSetId}>
            Add its grants
          </Button>
        </Group>
      )}
      <GrantEditor
        grants={draft.grants}
        items={grantables.items}
        isLoading={grantables.isLoading}
        error={grantables.error}
        onChange={(g) => change('grants', g)}
      />
      {!user && (
        <Checkbox
          label="Send welcome e-mail"
          checked={draft.sendWelcomeEmail}
          onChange={(e) => change('sendWelcomeEmail', e.currentTarget.checked)}
        />
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={() => navigate('/company/users')}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {user ? 'Save user' : 'Create user'}
        </Button>
      </Group>
    </FormPanel>
  );
}

/** /company/users/create: a new member of the company, with their role, permissions and grants. */
function UserCreateContent() {
  return (
    <CompanyLayout tab="users">
      <Title order={3}>New user</Title>
      <UserForm />
    </CompanyLayout>
  );
}

/** /company/users/{userId}/edit. */
function UserEditContent() {
  const { userId } = useParams();
  const { company } = useSession();
  const { data, error, isLoading } = useCompanyUser(company._id, userId);
  return (
    <CompanyLayout tab="users">
      <Title order={3}>{data ? `Edit ${data.name}` : 'Edit user'}</Title>
      {isLoading && <LoadingPanel />}
      {error && <ErrorPanel error={error} />}
      {data && <UserForm key={data.userSub} user={data} />}
    </CompanyLayout>
  );
}

export function UserCreatePage() {
  return (
    <ChangesOnly>
      <UserCreateContent />
    </ChangesOnly>
  );
}

export function UserEditPage() {
  return (
    <ChangesOnly>
      <UserEditContent />
    </ChangesOnly>
  );
}
