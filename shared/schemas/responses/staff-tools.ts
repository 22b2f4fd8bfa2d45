import type { PresignedPut } from './common.ts';
/** Answers of the staff calls, as the browser reads them. */

/** A site of any company, as the staff map lists it. */
export interface GlobalAsset {
  _id: string;
  siteName?: string;
  assetType?: string;
  status?: string;
  address?: { streetAddress?: string; locality?: string; postCode?: string };
  geocoordinates?: { lat: number; lng: number };
  company: { _id: string; name?: string };
}

export interface ActivityRow {
  _id: string;
  companyId: string;
  companyName: string;
  type: string;
  model: string;
  modelId?: string;
  message?: string;
  userSub?: string;
  userName?: string;
  createdAt: string;
}

export interface StaffEmail {
  _id: string;
  companyId: string | null;
  companyName: string | null;
  from: string;
  to: string[];
  subject?: string;
  status: string;
  reason?: string;
  createdAt: string;
  attachments: { _id: string; fileName: string }[];
}

export interface LiveCompany {
  companyId: string;
  companyName: string;
  connections: number;
  users: { sub: string; connections: number; since: string }[];
}

export interface FoundSite {
  _id: string;
  siteName?: string;
  assetType?: string;
  address?: { streetAddress?: string; locality?: string; postCode?: string };
  companyId: string;
  companyName: string;
}

export interface SiteView {
  site: Record<string, unknown> & { _id: string; siteName?: string };
  company: { _id: string; name: string };
  meters: { _id: string; name?: string; utilityType?: string; meterNumber?: string; supplierName?: string }[];
}

/** An interest a company registered in a marketplace project. */
export interface MarketplaceInterest {
  _id: string;
  companyId: string;
  companyName: string;
  projectId: string;
  projectName: string;
  isExample: boolean;
  tonnes: number;
  note?: string;
  userSub: string;
  userEmail?: string;
  userName?: string;
  createdAt: string;
}

/** POST /util/gridfetch-loa: where to PUT the letter of authority, and the key it is kept under. */
export interface LoaUploadTicket extends PresignedPut {
  key: string;
}

/** POST /util/live-connections/broadcast: how many open pages the message reached. */
export interface BroadcastSent {
  delivered: number;
}
