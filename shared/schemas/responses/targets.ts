import type { Evaluation } from '../../targets/target-maths.ts';
import type { TargetFields } from '../targets.ts';

/** Answers of the target calls (`/targets…`), as the browser reads them. */

/** A target as the API answers it, with the name of what it covers. */
export type TargetView = TargetFields & { _id: string; scopeName?: string };

export interface TargetProgress extends Evaluation {
  target: TargetView;
  note?: string;
}

export interface ScopeOption {
  _id: string;
  name: string;
}

export interface Scopes {
  company: boolean;
  entities: ScopeOption[];
  portfolios: ScopeOption[];
  sites: ScopeOption[];
}
