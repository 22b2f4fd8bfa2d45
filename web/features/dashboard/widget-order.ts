import type { DashboardWidget } from '../../../shared/schemas/dashboard-widgets.ts';

/** The list with the item at `from` moved to `to`, the others keeping their order. */
export function moved<T>(items: readonly T[], from: number, to: number): T[] {
  const out = [...items];
  if (from < 0 || from >= out.length || to < 0 || to >= out.length) return out;
  const [item] = out.splice(from, 1) as [T];
  out.splice(to, 0, item);
  return out;
}

/**
 * The widgets with their place in the list as their position, and the ones whose stored position must
 * change to keep this order: only those are saved.
 */
export function placed(widgets: readonly DashboardWidget[]): {
  widgets: DashboardWidget[];
  changed: DashboardWidget[];
} {
  const changed: DashboardWidget[] = [];
  const out = widgets.map((w, y) => {
    if (w.position?.y === y) return w;
    const next = { ...w, position: { x: 0, w: 1, h: 1, ...w.position, y } };
    changed.push(next);
    return next;
  });
  return { widgets: out, changed };
}

/** The change from the comparison figure, as a share of it; undefined when there is nothing to compare. */
export function changeOf(value: number, previous: number | undefined): number | undefined {
  if (previous === undefined || previous === 0) return undefined;
  return (value - previous) / Math.abs(previous);
}
