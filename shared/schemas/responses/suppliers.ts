import type { UtilityType } from '../common.ts';

/** Answers of the supplier calls (`/suppliers…`), as the browser reads them. */

export type SupplierType = 'supplier' | 'distributor';

/** GET /suppliers/{id}, and each item of GET /suppliers. */
export interface Supplier {
  _id: string;
  name: string;
  type: SupplierType;
  utilityTypes: UtilityType[];
  portal?: string;
  vatNumber?: string;
  website?: string;
  scraperEnabled: boolean;
  logoUrl?: string;
  createdAt?: string;
  updatedAt?: string;
}

/** PUT /suppliers/{id}/logo without a key: where to PUT the picture. */
export interface LogoUploadStart {
  uploadUrl: string;
  method: 'PUT';
  key: string;
  contentType: string;
  /** What the picture must be, in words. */
  rule: string;
}
