import type { PermissionName } from '../../access/permission-names.ts';
import type { CALENDAR_PERIODS } from '../company.ts';
import type { Grants } from '../grants.ts';
import type { FeatureFlag } from '../staff-admin.ts';

/** Answers of the company calls (`/users/me/company`, `/companies…`, `/roles…`, `/permissions…`, `/logs`). */

export type CalendarPeriod = (typeof CALENDAR_PERIODS)[number];

export interface CompanySettingsView {
  isDemo?: boolean;
  showLogo?: boolean;
  logoUrl?: string;
  logoKey?: string;
  calendarPeriod?: CalendarPeriod;
  meesScenario?: 'in-force' | 'proposed';
  hideCostData?: boolean;
  invoiceCategories?: string[];
  miscInvoiceCategories?: string[];
  messageCategories?: string[];
  documentCategories?: string[];
  invoiceCaptureEmail?: string;
  invoiceCaptureSendersOnly?: boolean;
  invoiceCaptureSenders?: string[];
  invoiceFileNameLimit?: number;
}

/** GET /users/me/company, GET /companies/{id}. */
export interface CompanyView {
  _id: string;
  name: string;
  settings?: CompanySettingsView;
  createdAt?: string;
  /** Product features staff turned off (GET /users/me/company only). */
  featuresOff?: FeatureFlag[];
}

/** An item of GET /companies/global: a company as the staff-wide list names it. */
export interface CompanyName {
  _id: string;
  name: string;
  createdAt?: string;
  settings?: { isDemo?: boolean };
}

/** Grants as a member's record keeps them: each list may be absent on records written before it existed. */
export type StoredGrants = { [K in keyof Grants]?: Partial<Grants[K]> };

/**
 * A member as GET /companies/{id}/users answers. Name and e-mail are absent only on records written before
 * either was required.
 */
export interface CompanyUser {
  _id: string;
  userSub: string;
  companyId?: string;
  email?: string;
  name?: string;
  roleId: string | null;
  role: { _id: string; name?: string } | null;
  permissions: PermissionName[];
  grants?: StoredGrants;
  createdAt?: string;
  updatedAt?: string;
}

/** GET /roles/{id}, and each item of GET /roles and GET /companies/roles. */
export interface Role {
  _id: string;
  name: string;
  permissions: PermissionName[];
}

/** A named set of grants (the generic `permissions` resource). */
export interface GrantSet {
  _id: string;
  name: string;
  userSub?: string;
  grants?: Partial<Grants>;
}

/** An item of GET /logs: one line of the company's activity log. */
export interface LogEntry {
  _id: string;
  type: string;
  model?: string;
  modelId?: string;
  message?: string;
  userSub?: string;
  userName?: string;
  createdAt: string;
}

/** The company logo's upload call without a key: where to PUT the picture, and a preview of it. */
export interface LogoTicket {
  uploadUrl: string;
  method: 'PUT';
  contentType: string;
  key: string;
  previewUrl?: string;
  /** What the picture must be, in words. */
  rule?: string;
}

/** POST /companies/{id}/users/{sub}/welcome-email */
export interface WelcomeSentView {
  sent: true;
  to?: string;
  temporaryPassword?: boolean;
}
