import { MESSAGES } from '../messages.ts';
import type { Caller } from './caller.ts';
import { isCompanyWide } from './route-access.ts';

/** Ids a caller may read, per resource type (02 §6). */
export interface ReadLists {
  assets: readonly string[];
  assetGroups: readonly string[];
  accounts: readonly string[];
  entities: readonly string[];
}

export interface WidgetSubject extends Pick<Caller, 'isAdmin' | 'permissions'> {
  read: ReadLists;
}

export interface WidgetLike {
  settings?: {
    selectedId?: string;
    /** What kind of item selectedId names, where the widget records it. */
    selectedType?: string;
    optionType?: string;
  };
}

export type WidgetAccess =
  | 'ok'
  | typeof MESSAGES.noWidgetPermissions
  | typeof MESSAGES.widgetNotFound
  | typeof MESSAGES.noDataAccess;

const LIST_OF: Record<string, keyof ReadLists> = {
  asset: 'assets',
  assets: 'assets',
  assetGroup: 'assetGroups',
  assetGroups: 'assetGroups',
  'asset-group': 'assetGroups',
  'asset-groups': 'assetGroups',
  portfolio: 'assetGroups',
  account: 'accounts',
  accounts: 'accounts',
  entity: 'entities',
  entities: 'entities',
};

/** The read list a widget's selection is judged by; undefined when the widget does not say. */
export function widgetReadList(widget: WidgetLike): keyof ReadLists | undefined {
  const kind = widget.settings?.selectedType ?? widget.settings?.optionType;
  return kind ? LIST_OF[kind] : undefined;
}

/**
 * Whether a widget's data may be refreshed for the caller (02 §5, §6): no permissions at all, no widget,
 * or a selected item outside the caller's read lists each have their own message; a widget selecting
 * nothing shows the caller's own part of the company. Admins and company
 * users bypass the lists. Ids are unique across types, so a widget that does not name its item's type is
 * judged against every list.
 */
export function widgetAccess(
  subject: WidgetSubject | undefined | null,
  widget: WidgetLike | undefined | null,
): WidgetAccess {
  if (!subject) return MESSAGES.noWidgetPermissions;
  if (!widget) return MESSAGES.widgetNotFound;
  if (isCompanyWide(subject)) return 'ok';
  const selected = widget.settings?.selectedId;
  // Nothing selected: the widget covers all the caller may read, and its figures are narrowed to that.
  if (!selected) return 'ok';
  const named = widgetReadList(widget);
  const lists = named ? [subject.read[named]] : Object.values(subject.read);
  return lists.some((list) => list.includes(selected)) ? 'ok' : MESSAGES.noDataAccess;
}
