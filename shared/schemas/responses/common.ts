/**
 * Shapes of the service's answers shared by every area: written once here, typed by the server where it
 * shapes the answer, and imported by the browser with `import type` (so no schema code reaches a page).
 */

/** A page of a list call (`GET /assets`, `GET /entities`, …): `total` counts every item the caller may read. */
export interface ListPage<T> {
  data: T[];
  total: number;
  limit?: number;
  skip?: number;
}

/** A record as a resource call answers it: its fields, with the id the service gave it. */
export type Stored<T> = T & { _id: string };

/** The answer of a call that hands out a signed address to download a file. */
export interface DownloadLink {
  downloadUrl: string;
}

/** Where to PUT a file: a presigned address, with the headers the PUT must send. */
export interface PresignedPut {
  uploadUrl: string;
  method: 'PUT';
  headers?: Record<string, string>;
  contentType?: string;
}

/** A list call that answers its items whole, without paging. */
export interface DataList<T> {
  data: T[];
}

/** The answer of a call that hands out a signed address to a file, with the name to save it under. */
export interface FileDownload {
  url: string;
  fileName: string;
}
