import type { CarbonApproach, CarbonProject } from '../../schemas/carbon-marketplace.ts';

/** Answers of the marketplace calls, as the browser reads them. */

export type ProjectView = CarbonProject & { approach?: CarbonApproach };

export interface ProjectTypeView {
  key: string;
  name: string;
  approach: CarbonApproach;
  projects: number;
}

export interface InterestView {
  _id: string;
  tonnes: number;
  note?: string;
  createdAt: string;
}
