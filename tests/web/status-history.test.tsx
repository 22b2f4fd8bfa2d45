import { describe, expect, it } from 'vitest';
import { newestFirst, StatusHistory, statusChangeOf } from '../../web/components/status-history.tsx';
import { renderHtml, textOf } from './render.tsx';

const entries = [
  { _id: '01A', status: 'active', date: '2024-01-01', createdAt: '2024-01-01T09:00:00Z' },
  { _id: '01C', status: 'inactive', date: '2024-03-01', comment: 'Closed for refit', who: 'Ana Ruiz' },
  {
    _id: '01B',
    status: 'active',
    date: '2024-03-01',
    createdAt: '2024-03-02T09:00:00Z',
    comment: 'Reopened',
  },
  { _id: '01D', status: 'inactive', date: '2024-03-01', createdAt: '2024-03-02T09:00:00Z' },
];

const noSave = async () => null;
const options = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
];

describe('a status history', () => {
  it('lists changes newest first: by date, then when recorded, then by id', () => {
    expect(newestFirst(entries).map((e) => e._id)).toEqual(['01D', '01B', '01C', '01A']);
  });

  it('sends the comment trimmed, leaving an empty one out when adding and clearing it when editing', () => {
    const form = { status: 'active', date: '2024-05-01', comment: '  New tenant ' };
    expect(statusChangeOf(form, false)).toEqual({
      status: 'active',
      date: '2024-05-01',
      comment: 'New tenant',
    });
    expect(statusChangeOf({ ...form, comment: '  ' }, false)).toEqual({
      status: 'active',
      date: '2024-05-01',
    });
    expect(statusChangeOf({ ...form, comment: '' }, true)).toEqual({
      status: 'active',
      date: '2024-05-01',
      comment: '',
    });
  });

  const render = (props: Partial<Parameters<typeof StatusHistory>[0]>) =>
    renderHtml(
      <StatusHistory
        entries={entries}
        loading={false}
        error={undefined}
        options={options}
        badge={(status) => <b>{`[${status}]`}</b>}
        initialStatus="inactive"
        labels={{
          newStatus: 'New status',
          add: 'Add status change',
          remove: 'Remove',
          empty: 'No changes yet.',
        }}
        onAdd={noSave}
        onUpdate={noSave}
        onRemove={noSave}
        {...props}
      />,
    );

  it('shows each change with its badge, comment and who recorded it, and the add form', () => {
    const text = textOf(render({}));
    expect(text).toContain('Date Status Comment');
    expect(text).toContain('[inactive] Closed for refit by Ana Ruiz Edit Remove');
    expect(text.indexOf('Reopened')).toBeLessThan(text.indexOf('Closed for refit'));
    expect(text).toContain('New status');
    expect(text).toContain('Add status change');
    expect(text).not.toContain('No changes yet.');
  });

  it('leaves the column headings out when asked, and names the remove button as told', () => {
    const text = textOf(
      render({ columnHeadings: false, labels: { newStatus: 'Status', add: 'Add status', remove: 'Delete' } }),
    );
    expect(text).not.toContain('Date Status Comment');
    expect(text).toContain('Edit Delete');
  });

  it('says when there are no changes, and shows a loader or the read error', () => {
    expect(textOf(render({ entries: [] }))).toContain('No changes yet.');
    expect(
      textOf(render({ entries: [], labels: { newStatus: 'Status', add: 'Add', remove: 'Delete' } })),
    ).not.toContain('No changes yet.');
    expect(render({ entries: undefined, loading: true })).toContain('role="status"');
    expect(textOf(render({ entries: undefined, error: new Error('Offline') }))).toContain('Offline');
  });
});
