import type { ComponentType } from 'react';

/** The Benchmarks pages: CRREM in its own chunk, the energy benchmarks sharing one. */
export const BENCHMARK_PAGES = {
  'benchmarks-crrem': () => import('./crrem-page.tsx').then((m) => ({ Component: m.CrremPage })),
  'benchmarks-leti': () => import('./energy-page.tsx').then((m) => ({ Component: m.LetiPage })),
  'benchmarks-reeb': () => import('./energy-page.tsx').then((m) => ({ Component: m.ReebPage })),
  'benchmarks-etn': () => import('./energy-page.tsx').then((m) => ({ Component: m.EtnPage })),
} satisfies Record<string, () => Promise<{ Component: ComponentType }>>;

export type BenchmarkPageKey = keyof typeof BENCHMARK_PAGES;

/** The Benchmarks routes are named as their pages: each takes its own page. */
export function withBenchmarkPage<R extends { name: string; page: string }>(route: R): R {
  return Object.hasOwn(BENCHMARK_PAGES, route.name) ? { ...route, page: route.name } : route;
}
