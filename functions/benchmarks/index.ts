export type { PathwaySet } from './benchmark-repository.ts';
export { listPathwaySets, writePathwaySet } from './benchmark-repository.ts';
export { BENCHMARK_OPERATIONS, crremMisalignmentYears } from './benchmarks-service.ts';
