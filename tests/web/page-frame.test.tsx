import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TABS } from '../../web/components/account-frame.tsx';
import { frameHold, PageFrame } from '../../web/components/page-frame.tsx';
import { ASSET_TABS } from '../../web/features/assets/asset-frame.tsx';
import { renderHtml, textOf } from './render.tsx';

describe('the frame of a site or meter page', () => {
  it('shows the way back, the header, the tabs with the current one marked, and the page below', () => {
    const html = renderHtml(
      <MemoryRouter>
        <PageFrame
          crumbs={[{ label: 'Sites', to: '/assets' }, { label: 'Aldgate House' }]}
          header={<h2>Aldgate House</h2>}
          navLabel="Site pages"
          tabs={ASSET_TABS}
          current="documents"
          pathOf={(sub) => `/assets/a1/${sub}`}
        >
          <p>The documents</p>
        </PageFrame>
      </MemoryRouter>,
    );
    expect(textOf(html)).toMatch(
      /^Sites \/ Aldgate House Aldgate House Overview Meters Documents .* The documents$/,
    );
    expect(html).toContain('aria-label="Site pages"');
    expect(html.match(/aria-current="page"/g)).toHaveLength(1);
    expect(html).toMatch(
      /href="\/assets\/a1\/documents"[^>]*aria-current="page"|aria-current="page"[^>]*href="\/assets\/a1\/documents"/,
    );
    expect(html).toContain('href="/assets/a1/manage"');
  });

  it('offers every meter tab as a link under the meter', () => {
    const html = renderHtml(
      <MemoryRouter>
        <PageFrame
          crumbs={[]}
          header={null}
          navLabel="Account pages"
          tabs={ACCOUNT_TABS}
          current="readings"
          pathOf={(sub) => `/assets/a1/accounts/m1/${sub}`}
        >
          {null}
        </PageFrame>
      </MemoryRouter>,
    );
    for (const t of ACCOUNT_TABS) expect(html).toContain(`href="/assets/a1/accounts/m1/${t.sub}"`);
  });

  it('holds the page with a loading panel, then an error, and lets it through once the item is there', () => {
    expect(renderHtml(frameHold({ isLoading: true, error: undefined }, false, 'Site not found'))).toContain(
      'aria-label="Loading…"',
    );
    const missing = renderHtml(frameHold({ isLoading: false, error: undefined }, false, 'Site not found'));
    expect(textOf(missing)).toBe('Could not load this data Site not found');
    const failed = renderHtml(frameHold({ isLoading: false, error: new Error('Forbidden') }, false, 'x'));
    expect(textOf(failed)).toBe('Could not load this data Forbidden');
    expect(frameHold({ isLoading: false, error: undefined }, true, 'Site not found')).toBeNull();
  });
});
