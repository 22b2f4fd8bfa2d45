/** Business constants and limits of the specification (01 §9, 02 §9). */
export const APP_VERSION = '1.95.1';

export const SEARCH_MIN_CHARS = 3;
export const SEARCH_DEBOUNCE_MS = 500;
export const NOTIFICATIONS_REFRESH_MS = 10 * 60 * 1000;
export const NOTIFICATIONS_FIRST_FETCH_MS = 1000;
export const NOTIFICATIONS_DROPDOWN_SIZE = 5;
export const TOAST_DURATION_MS = 3000;
export const LOGIN_REDIRECT_DELAY_MS = 3000;
export const LIVE_RECONNECT_ATTEMPTS = 5;
export const LIVE_RECONNECT_DELAY_MS = 3000;
export const LIVE_HEARTBEAT_MS = 30_000;
export const IMPERIAL_AREA_FACTOR = 0.092903;
export const FILE_NAME_PART_LIMIT = 40;
export const VALIDATION_TITLE_LIMIT = 120;
export const INVOICE_POLL_MS = 10_000;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const ANALYTICS_V2_TIMEOUT_MS = 600_000;
export const ERROR_REPORT_SAMPLE_RATE = 0.5;

/**
 * The most pixels a company logo has: reports decode it onto their cover (about 10 bytes a pixel while
 * it is embedded), so a small file declaring a huge picture must be refused from its header.
 */
export const LOGO_MAX_PIXELS = 16_000_000;

export const DEFAULT_LIST_LIMIT = 100;
/** The most items a server-side read of a whole list takes; what the API answers is a page of MAX_PAGE_LIMIT. */
export const MAX_LIST_LIMIT = 100_000;
/**
 * The most items one answer holds, whatever `limit` asks (a larger one is clamped and the answer's
 * `limit` says so; `total` still counts all). Lambda answers at most 6 MB: a bill with its capture
 * results is a few kB, so a thousand stay well under it; further items are read with `skip`.
 */
export const MAX_PAGE_LIMIT = 1000;
export const VALIDATION_PAGE_SIZE = 100;
export const QUEUE_COUNT_LIMIT = 100_000;
export const COUNTRY_LIST_LIMIT = 1000;
export const ACCOUNT_SEARCH_LIMIT = 100;
/** Largest JSON body the API accepts; larger files go straight to S3 by presigned URL. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;
/**
 * What the CSV import routes accept as a request body: the file itself, or the file inside JSON (its quotes
 * and line breaks escaped), with room to spare, still below the 6 MB a Lambda request may carry.
 */
export const IMPORT_MAX_BODY_BYTES = 6 * 1024 * 1024 - 64 * 1024;
