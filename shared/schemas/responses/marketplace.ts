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

/** POST /marketplace/carbon/{id}/interest: what to tell the user. */
export interface InterestSent {
  message: string;
}

/** GET /marketplace/carbon/{id}: a project with the interest the company has shown in it. */
export interface ProjectWithInterests extends ProjectView {
  interests: InterestView[];
}
