import { describe, expect, it } from 'vitest';
import {
  type ReadLists,
  type WidgetLike,
  type WidgetSubject,
  widgetAccess,
} from '../../../shared/access/widget-access.ts';
import { MESSAGES } from '../../../shared/messages.ts';

const lists = (over: Partial<ReadLists> = {}): ReadLists => ({
  assets: [],
  assetGroups: [],
  accounts: [],
  entities: [],
  ...over,
});
const reader = (read: ReadLists): WidgetSubject => ({ isAdmin: false, permissions: [], read });
const widget = (settings: WidgetLike['settings']): WidgetLike => ({ settings });

describe('widget data access (02 §5, §6)', () => {
  const rows: [string, WidgetSubject | undefined, WidgetLike | undefined, string][] = [
    ['no permissions at all', undefined, widget({ selectedId: 'a1' }), MESSAGES.noWidgetPermissions],
    ['no widget', reader(lists()), undefined, MESSAGES.widgetNotFound],
    [
      'an admin, any item',
      { isAdmin: true, permissions: [], read: lists() },
      widget({ selectedId: 'zz' }),
      'ok',
    ],
    [
      'a company user, any item',
      { isAdmin: false, permissions: ['company_user'], read: lists() },
      widget({ selectedId: 'zz' }),
      'ok',
    ],
    [
      'an asset in the asset list',
      reader(lists({ assets: ['a1'] })),
      widget({ selectedType: 'asset', selectedId: 'a1' }),
      'ok',
    ],
    [
      'an asset group in its list',
      reader(lists({ assetGroups: ['g1'] })),
      widget({ selectedType: 'assetGroup', selectedId: 'g1' }),
      'ok',
    ],
    [
      'an account in its list',
      reader(lists({ accounts: ['x1'] })),
      widget({ optionType: 'account', selectedId: 'x1' }),
      'ok',
    ],
    [
      'an entity in its list',
      reader(lists({ entities: ['e1'] })),
      widget({ selectedType: 'entity', selectedId: 'e1' }),
      'ok',
    ],
    [
      'an id readable as another type does not count for the named type',
      reader(lists({ accounts: ['a1'] })),
      widget({ selectedType: 'asset', selectedId: 'a1' }),
      MESSAGES.noDataAccess,
    ],
    [
      'an item outside the lists',
      reader(lists({ assets: ['a1'] })),
      widget({ selectedId: 'a2' }),
      MESSAGES.noDataAccess,
    ],
    [
      'a widget with nothing selected, narrowed to the lists',
      reader(lists({ assets: ['a1'] })),
      widget({}),
      'ok',
    ],
    [
      'an untyped selection found in some list',
      reader(lists({ entities: ['e1'] })),
      widget({ selectedId: 'e1' }),
      'ok',
    ],
  ];
  it.each(rows)('%s', (_name, subject, w, expected) => {
    expect(widgetAccess(subject, w)).toBe(expected);
  });
});
