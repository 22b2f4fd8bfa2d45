export type { PathwaySet } from './benchmark-repository.ts';
export { writePathwaySet } from './benchmark-repository.ts';
export { BENCHMARK_OPERATIONS } from './benchmarks-service.ts';
