export type { PathwaySet } from './benchmark-repository.ts';
export { listPathwaySets, writePathwaySet } from './benchmark-repository.ts';
export { BENCHMARK_OPERATIONS } from './benchmarks-service.ts';
