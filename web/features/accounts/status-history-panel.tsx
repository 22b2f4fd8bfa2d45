import type { AccountView } from '../../../shared/schemas/account-views.ts';
import { StatusBadge, useMayChangeAccount } from '../../components/account-frame.tsx';
import { StatusHistory } from '../../components/status-history.tsx';
import { showToast } from '../../components/toast-store.ts';
import { formFailureOf, useAddStatus, useDeleteStatus, useStatusHistory, useUpdateStatus } from './api.ts';

const STATUS_OPTIONS = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

const UPDATE_PROBLEM = 'There was a problem updating the status.';

/** An account's status changes, newest first; adding, editing or removing one moves the account's status. */
export function StatusHistoryPanel({ account }: { account: AccountView }) {
  const addStatus = useAddStatus(account._id);
  const updateStatus = useUpdateStatus(account._id);
  const deleteStatus = useDeleteStatus(account._id);
  const history = useStatusHistory(account._id);
  const mayChange = useMayChangeAccount(account);
  return (
    <StatusHistory
      readOnly={!mayChange}
      entries={history.data?.data}
      loading={history.isLoading}
      error={history.error}
      options={STATUS_OPTIONS}
      badge={(status) => <StatusBadge status={status} />}
      initialStatus={account.status === 'active' ? 'inactive' : 'active'}
      labels={{
        newStatus: 'New status',
        add: 'Add status change',
        remove: 'Remove',
        empty: 'No status changes yet.',
        hint: 'The account takes the status of its latest change up to today.',
      }}
      onAdd={async (change) => {
        try {
          await addStatus({ ...change });
          return null;
        } catch (error) {
          return formFailureOf(error);
        }
      }}
      onUpdate={async (entryId, change) => {
        try {
          await updateStatus(entryId, { ...change });
          return null;
        } catch (error) {
          return formFailureOf(error, UPDATE_PROBLEM);
        }
      }}
      onRemove={async (entryId) => {
        try {
          await deleteStatus(entryId);
        } catch {
          showToast(UPDATE_PROBLEM, 'error');
        }
        return null;
      }}
    />
  );
}
