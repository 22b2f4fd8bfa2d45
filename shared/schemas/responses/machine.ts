/** Answers of the machine (API key) calls, as a machine's pages read them. */

export interface MachineSelf {
  _id: string;
  name?: string;
  companyId: string;
}

export interface MachineAsset {
  _id: string;
  siteName?: string;
  address?: { streetAddress?: string; locality?: string; region?: string; postCode?: string };
  floorArea?: number;
  images?: { url?: string; isPrimary?: boolean }[];
}
