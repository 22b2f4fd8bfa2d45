import { describe, expect, it } from 'vitest';
import { QueryPanel, queryViewOf } from '../../web/components/query-panel.tsx';
import { renderHtml, textOf } from './render.tsx';

const noItems = (items: string[]) => items.length === 0;

describe('what a read shows', () => {
  it('is loading until data or an error arrives', () => {
    expect(queryViewOf({ isLoading: true })).toEqual({ kind: 'loading' });
    expect(queryViewOf({ isLoading: false })).toEqual({ kind: 'loading' });
  });

  it('shows the error, even over data kept from before', () => {
    expect(queryViewOf({ isLoading: false, error: new Error('Offline') })).toEqual({
      kind: 'error',
      message: 'Offline',
    });
    expect(queryViewOf({ isLoading: false, data: ['a'], error: 'Timed out' }, noItems)).toEqual({
      kind: 'error',
      message: 'Timed out',
    });
  });

  it('is empty only when the predicate says so', () => {
    expect(queryViewOf({ isLoading: false, data: [] }, noItems)).toEqual({ kind: 'empty' });
    expect(queryViewOf({ isLoading: false, data: [] })).toEqual({ kind: 'ready', data: [] });
    expect(queryViewOf({ isLoading: false, data: ['a'] }, noItems)).toEqual({ kind: 'ready', data: ['a'] });
  });
});

describe('the query panel', () => {
  const panel = (query: Parameters<typeof QueryPanel<string[]>>[0]['query']) =>
    renderHtml(
      <QueryPanel query={query} isEmpty={noItems} empty="Nothing here yet." loadingLabel="Loading sites">
        {(items) => (
          <ul>
            {items.map((i) => (
              <li key={i}>{i}</li>
            ))}
          </ul>
        )}
      </QueryPanel>,
    );

  it('shows a loader, then the content', () => {
    expect(panel({ isLoading: true })).toContain('aria-label="Loading sites"');
    expect(textOf(panel({ isLoading: false, data: ['Depot', 'Annex'] }))).toBe('Depot Annex');
  });

  it('shows the empty message', () => {
    expect(textOf(panel({ isLoading: false, data: [] }))).toBe('Nothing here yet.');
  });

  it('shows the error with a retry when the read can be revalidated', () => {
    const withRetry = textOf(
      panel({ isLoading: false, error: new Error('Offline'), mutate: () => undefined }),
    );
    expect(withRetry).toContain('Could not load this data');
    expect(withRetry).toContain('Offline');
    expect(withRetry).toContain('Retry');
    expect(textOf(panel({ isLoading: false, error: new Error('Offline') }))).not.toContain('Retry');
  });
});
