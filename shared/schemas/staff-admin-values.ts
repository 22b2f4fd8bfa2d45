import type { ProductSettings } from './staff-admin.ts';

/**
 * The staff admin's messages, feature flags and default product settings, apart from its schemas
 * (`staff-admin.ts`): the functions that gate a feature or read a capture limit load these at start, and
 * should not build every staff admin schema to do so.
 */

export const ADMIN_MESSAGES = {
  feedPlaceholders: 'May hold {lat}, {lng} and {postcode} and must start with http:// or https://',
  pairingRefused: 'The signage service did not accept this pairing code',
  signageUnavailable: 'The signage service could not be reached: try again in a minute',
  kioskNotFound: 'No such kiosk',
  screenNotFound: 'No screen of your kiosks has this id',
} as const;

/**
 * The features a flag can turn off, each gated on the server. A flag never set leaves its feature on, so a
 * new product starts with everything available.
 */
export const FEATURE_FLAGS = {
  marketplace: 'Carbon marketplace: the catalogue and registering interest',
  discussions: 'Discussions: threads on sites, their replies and attachments',
  'email-capture': "E-mail capture: bills sent to a company's capture address become invoices",
} as const;
export type FeatureFlag = keyof typeof FEATURE_FLAGS;
export const featureOffMessage = (flag: FeatureFlag) => `The ${flag} feature is turned off for the product.`;
/** Why mail to a capture address is refused while e-mail capture is off; the company's e-mail log shows it. */
export const EMAIL_CAPTURE_OFF =
  'E-mail capture is turned off for the product: mail to the capture address is refused and its attachments are not stored. Upload the bills instead.';
/** The most a bill's file may be at all: capture reads a document whole, in memory. */
export const CAPTURE_FILE_MB_CEILING = 20;

export const DEFAULT_PRODUCT_SETTINGS: ProductSettings = {
  captureLimits: { maxFileMb: 20, maxPagesPerBill: 50, maxBillsPerDay: 5000 },
  featureFlags: {},
  kioskFeeds: {},
};

export interface StoredProductSettings extends ProductSettings {
  updatedAt?: string;
  updatedBy?: string;
}
