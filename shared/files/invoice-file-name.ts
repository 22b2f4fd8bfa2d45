/**
 * Generated invoice file names cut the legal name and the site name at this many characters each (01 §5:
 * 40 by default, configurable per company). Kept apart from the company schemas so that code naming files
 * does not carry every company schema with it.
 */
export const INVOICE_FILE_NAME_LIMIT = { min: 10, max: 120, default: 40 } as const;
