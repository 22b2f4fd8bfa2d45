/** Answers of the meter calls (`/accounts…`, `/readings…`) not already in `account-views.ts`. */

/** POST /accounts/{id}/contracts/upload and POST /readings/photo: PUT the file to `uploadUrl` with `headers`. */
export interface PresignedUpload {
  uploadUrl: string;
  method: 'PUT';
  headers: Record<string, string>;
  key: string;
  fileName?: string;
}

/** PUT /accounts/{id}/invalidate-cache: the meter's months worked out again, and how many changed. */
export interface MonthsRebuilt {
  _id: string;
  assetId?: string;
  months: number;
  changed: number;
  invalidatedAt: string;
}
