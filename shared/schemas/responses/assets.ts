import type * as z from 'zod';
import type { addressSchema } from '../address.ts';
import type { EpcCertificate } from '../asset-public-data.ts';
import type { tenantSchema } from '../asset-tenants.ts';
import type { AssetStatus, NormalisedWizardAsset } from '../asset-wizard.ts';
import type { projectSchema } from '../project.ts';

/** Answers of the site calls (`/assets…`, `/projects…`, `/certificates…`), as the browser reads them. */

/** A picture of a site, its object keys swapped for short-lived signed addresses. */
export interface AssetImageView {
  _id?: string;
  url?: string;
  thumbUrl?: string;
  enhancedUrl?: string;
  isPrimary?: boolean;
  width?: number;
  height?: number;
}

export type AddressView = z.output<typeof addressSchema>;

/** GET /assets/{id}, and each item of GET /assets. */
export interface AssetView {
  _id: string;
  siteName: string;
  entityId: string;
  assetType?: string;
  status: AssetStatus;
  address?: AddressView;
  /** m², whatever unit it was entered in. */
  floorArea?: number;
  floorAreaUnit?: 'm2' | 'ft2';
  /** Floor areas (m²) in force for periods, `to` absent on an open one. */
  floorAreaHistory?: { from: string; to?: string; floorAreaM2: number }[];
  epcRating?: string;
  epc?: { certificateId: string; kind: string; rating: number; band: string; lodgementDate?: string };
  geocoordinates?: { lat: number; lng: number };
  images?: AssetImageView[];
  primaryImage?: AssetImageView;
  satelliteImages?: { url: string; zoom?: number; label?: string }[];
  deleted?: boolean;
}

/** A document kept for a site (GET /assets/{id}/documents). */
export interface DocumentView {
  _id: string;
  name: string;
  fileName: string;
  category?: string;
  description?: string;
  size?: number;
  createdAt: string;
}

/** A project of a site (GET /projects, GET /projects/{id}), with its tasks and documents. */
export type ProjectView = z.output<typeof projectSchema> & {
  _id: string;
  tasks?: { _id: string; taskId: string; title: string; done: boolean; dueDate?: string }[];
  documents?: { _id: string; documentId: string; name: string; fileName: string; createdAt: string }[];
};

/** GET /certificates and GET /certificates/{id}: a certificate, with the register's own record of it. */
export type CertificateView = EpcCertificate & { register?: Record<string, unknown> };

/** A site's dated entries: status changes and timeline events share one shape. */
export interface HistoryEntry {
  _id: string;
  date: string;
  status?: string;
  comment?: string;
  title?: string;
  description?: string;
}

/** A tenant of a site, as the API keeps it. */
export type Tenant = z.output<typeof tenantSchema> & { _id: string };

/** GET /assets/{id}/account-types: the utilities of the site's meters, with counts. */
export interface AssetAccountTypes {
  data: string[];
  counts: Record<string, number>;
  total: number;
}

/** POST /assets/{id}/images/{imageId}/enhance */
export interface EnhancedImage {
  imageId: string;
  enhancedUrl: string;
  previewUrl: string;
}

/** POST /assets/wizard-check: the values as the site would be created with them. */
export interface WizardCheck {
  values: NormalisedWizardAsset;
}
