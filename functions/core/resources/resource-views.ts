import type { StoredItem } from '../data/item-repository.ts';

/**
 * How an area shows its stored items to callers: signed links in place of object keys, fields derived
 * from stored ones. The generic reads (list, search, get) of a resource answer through its view, so a
 * generic call never answers a stored record that the area's own reads would show otherwise (a site
 * search answering its pictures' object keys instead of their links). A function registers the views of
 * the resources it serves when it loads.
 */
export type ResourceView = (item: StoredItem) => StoredItem | Promise<StoredItem>;

const views = new Map<string, ResourceView>();

export function registerResourceView(resource: string, view: ResourceView): void {
  views.set(resource, view);
}

/** The item as the resource's callers see it (the stored item itself for a resource without a view). */
export async function viewOf(resource: string, item: StoredItem): Promise<StoredItem> {
  const view = views.get(resource);
  return view ? view(item) : item;
}

export async function viewsOf(resource: string, items: readonly StoredItem[]): Promise<StoredItem[]> {
  const view = views.get(resource);
  return view ? Promise.all(items.map(view)) : [...items];
}
