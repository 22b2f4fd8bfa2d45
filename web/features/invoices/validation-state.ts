import {
  QUEUE_COUNT_LIMIT,
  VALIDATION_PAGE_SIZE,
  VALIDATION_TITLE_LIMIT,
} from '../../../shared/constants.ts';
import type { VALIDATION_STATUSES } from '../../../shared/schemas/invoice-validation.ts';
import type {
  CheckCounts,
  CheckResultView,
  CheckStatus,
} from '../../../shared/schemas/responses/invoices.ts';

/** The validation queues (02 §4): pure rules, so they can be tested alone. */
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];
export type { CheckStatus } from '../../../shared/schemas/responses/invoices.ts';

export const QUEUE_GROUPS = ['failed', 'passed', 'completed'] as const;
export type QueueGroup = (typeof QUEUE_GROUPS)[number];

/** What each queue holds: passed or warning, and failed or error, each not completed; then the completed. */
export const QUEUE_RULES: Record<
  QueueGroup,
  { statuses: readonly ValidationStatus[] | null; completed: boolean }
> = {
  passed: { statuses: ['passed', 'warning'], completed: false },
  failed: { statuses: ['failed', 'error'], completed: false },
  completed: { statuses: null, completed: true },
};

export const QUEUE_LABELS: Record<QueueGroup, string> = {
  failed: 'Failed',
  passed: 'Passed',
  completed: 'Completed',
};

export const isQueueGroup = (value: unknown): value is QueueGroup =>
  typeof value === 'string' && (QUEUE_GROUPS as readonly string[]).includes(value);

/** The queue an item is listed in; a pending item is in none until its checks have run. */
export function queueOf(item: { status: string; completed?: boolean }): QueueGroup | undefined {
  for (const group of QUEUE_GROUPS) {
    const rule = QUEUE_RULES[group];
    if (rule.completed !== (item.completed === true)) continue;
    if (rule.statuses === null || (rule.statuses as readonly string[]).includes(item.status)) return group;
  }
  return undefined;
}

export interface StatusLook {
  label: string;
  /** A Mantine colour. */
  colour: string;
  icon: 'check' | 'alert' | 'cross' | 'clock' | 'bang' | 'dash';
}

/** Status icons and colours of the validation lists (02 §2). */
export const VALIDATION_LOOK: Record<ValidationStatus, StatusLook> = {
  pending: { label: 'Pending', colour: 'gray', icon: 'clock' },
  passed: { label: 'Passed', colour: 'green', icon: 'check' },
  warning: { label: 'Warning', colour: 'yellow', icon: 'alert' },
  failed: { label: 'Failed', colour: 'red', icon: 'cross' },
  error: { label: 'Error', colour: 'grape', icon: 'bang' },
};

export const CHECK_LOOK: Record<CheckStatus, StatusLook> = {
  passed: { label: 'Passed', colour: 'green', icon: 'check' },
  warning: { label: 'Warning', colour: 'yellow', icon: 'alert' },
  failed: { label: 'Failed', colour: 'red', icon: 'cross' },
  skipped: { label: 'Skipped', colour: 'gray', icon: 'dash' },
};

export const lookOfValidation = (status: string): StatusLook =>
  VALIDATION_LOOK[status as ValidationStatus] ?? { label: status, colour: 'gray', icon: 'dash' };
export const lookOfCheck = (status: string): StatusLook =>
  CHECK_LOOK[status as CheckStatus] ?? { label: status, colour: 'gray', icon: 'dash' };

/** A validation title is cut at 120 characters plus an ellipsis (01 §5). */
export function cutDisplayName(name: string, limit = VALIDATION_TITLE_LIMIT): string {
  return name.length > limit ? `${name.slice(0, limit)}...` : name;
}

export interface QueueFilters {
  supplierId?: string;
  assignedUserId?: string;
  tags?: string;
  hold?: '' | 'true' | 'false';
}

function filterParams(filters: QueueFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters))
    if (typeof v === 'string' && v.trim()) params.set(k, v.trim());
  return params;
}

/** A page of a queue: 100 items a page (02 §9), newest first. */
export function queueKey(group: QueueGroup, filters: QueueFilters = {}, page = 1): string {
  const params = new URLSearchParams({
    group,
    limit: String(VALIDATION_PAGE_SIZE),
    skip: String((page - 1) * VALIDATION_PAGE_SIZE),
  });
  for (const [k, v] of filterParams(filters)) params.set(k, v);
  return `/invoice-validation/queue?${params}`;
}

/** A queue's count: the same call selecting only ids, with the large limit, read for its total (02 §7). */
export function queueCountKey(group: QueueGroup, filters: QueueFilters = {}): string {
  const params = new URLSearchParams({ group, $select: '_id', limit: String(QUEUE_COUNT_LIMIT) });
  for (const [k, v] of filterParams(filters)) params.set(k, v);
  return `/invoice-validation/queue?${params}`;
}

export interface Selectable {
  _id: string;
  completed?: boolean;
}

/** Select all takes every item that is not completed (02 §5). */
export function selectAll(items: readonly Selectable[]): Set<string> {
  return new Set(items.filter((i) => i.completed !== true).map((i) => i._id));
}

/** Whether every item select all would take is selected (and there is at least one). */
export function allSelected(items: readonly Selectable[], selected: ReadonlySet<string>): boolean {
  const selectable = items.filter((i) => i.completed !== true);
  return selectable.length > 0 && selectable.every((i) => selected.has(i._id));
}

export function toggleAll(items: readonly Selectable[], selected: ReadonlySet<string>): Set<string> {
  return allSelected(items, selected) ? new Set() : selectAll(items);
}

export function toggleOne(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Selected ids still on the page: a refreshed queue may have lost some. */
export function keepVisible(selected: ReadonlySet<string>, items: readonly Selectable[]): Set<string> {
  const ids = new Set(items.map((i) => i._id));
  return new Set([...selected].filter((id) => ids.has(id)));
}

/** Tags typed as a comma-separated list: trimmed, without blanks or repeats. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

export type { CheckResultView } from '../../../shared/schemas/responses/invoices.ts';

/** Checks worst first (failed, warning, passed, skipped), keeping their order within a status. */
export function sortChecks<T extends CheckResultView>(results: readonly T[]): T[] {
  const rank: Record<string, number> = { failed: 0, warning: 1, passed: 2, skipped: 3 };
  return results
    .map((r, i) => ({ r, i }))
    .sort((a, b) => (rank[a.r.status] ?? 4) - (rank[b.r.status] ?? 4) || a.i - b.i)
    .map(({ r }) => r);
}

export type { CheckCounts } from '../../../shared/schemas/responses/invoices.ts';

/**
 * One line on a queue row: why the bill could not be validated, else how its checks came out (worst
 * first, leaving out what did not happen).
 */
export function outcomeLine(item: { reason?: unknown; summary?: unknown }): string {
  if (typeof item.reason === 'string' && item.reason) return item.reason;
  if (typeof item.summary === 'string') return item.summary;
  if (typeof item.summary !== 'object' || item.summary === null) return '';
  const counts = item.summary as Partial<CheckCounts>;
  const parts: string[] = [];
  const add = (n: number | undefined, one: string, many: string) => {
    if (typeof n === 'number' && n > 0) parts.push(`${n} ${n === 1 ? one : many}`);
  };
  add(counts.failed, 'check failed', 'checks failed');
  add(counts.warning, 'warning', 'warnings');
  add(counts.passed, 'passed', 'passed');
  return parts.join(', ');
}

export function countChecks(results: readonly { status: string }[]): CheckCounts {
  const out: CheckCounts = { passed: 0, warning: 0, failed: 0, skipped: 0 };
  for (const r of results) if (r.status in out) out[r.status as CheckStatus]++;
  return out;
}

/**
 * The validation block an invoice gets: with an account its checks run against the account's history
 * and contract; without one the page asks for the account first (02 §5).
 */
export type ValidationBlock = 'account' | 'no-account';
export const validationBlockOf = (invoice: { accountId?: string | null }): ValidationBlock =>
  invoice.accountId ? 'account' : 'no-account';
