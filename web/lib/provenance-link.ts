/**
 * The figure a "Where does this come from?" link asks about, carried in the page's address so any page
 * can open the drill-down beside itself and the back button closes it again.
 */
export interface ProvenanceSelection {
  assetId?: string;
  accountId?: string;
  /** YYYY-MM, when the figure is one month's. */
  month?: string;
  utilityType?: string;
  /** YYYY-MM-DD, inclusive */
  from: string;
  /** YYYY-MM-DD, inclusive */
  to: string;
}

const FIELDS = ['from', 'to', 'assetId', 'accountId', 'month', 'utilityType'] as const;
const PREFIX = 'source.';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The first and last day of a YYYY-MM month. */
export function monthWindow(month: string): { from: string; to: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}

/** The page's search with the selection added (any earlier one replaced). */
export function withProvenance(search: URLSearchParams, selection: ProvenanceSelection): string {
  const next = withoutProvenance(search);
  for (const field of FIELDS) {
    const value = selection[field];
    if (value) next.set(`${PREFIX}${field}`, value);
  }
  return `?${next.toString()}`;
}

/** The page's search without any selection. */
export function withoutProvenance(search: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(search);
  for (const field of FIELDS) next.delete(`${PREFIX}${field}`);
  return next;
}

/** The selection in a page's search, when it holds a whole one. */
export function readProvenance(search: URLSearchParams): ProvenanceSelection | undefined {
  const from = search.get(`${PREFIX}from`) ?? '';
  const to = search.get(`${PREFIX}to`) ?? '';
  if (!DATE.test(from) || !DATE.test(to)) return undefined;
  const selection: ProvenanceSelection = { from, to };
  for (const field of ['assetId', 'accountId', 'month', 'utilityType'] as const) {
    const value = search.get(`${PREFIX}${field}`);
    if (value) selection[field] = value;
  }
  return selection;
}
