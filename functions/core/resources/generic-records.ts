import type * as z from 'zod';
import type { Template } from '../../../shared/capture/model.ts';
import type { StatusHistoryEntry } from '../../../shared/schemas/account-views.ts';
import type { DashboardWidget } from '../../../shared/schemas/dashboard-widgets.ts';
import type {
  AssetView,
  HistoryEntry,
  ProjectView,
  Tenant,
} from '../../../shared/schemas/responses/assets.ts';
import type { Automation, AutomationRun } from '../../../shared/schemas/responses/automation.ts';
import type { GrantSet, LogEntry, Role } from '../../../shared/schemas/responses/company.ts';
import type { ScraperRun } from '../../../shared/schemas/responses/connectors.ts';
import type { Entity } from '../../../shared/schemas/responses/entities.ts';
import type { ImportState } from '../../../shared/schemas/responses/imports.ts';
import type {
  InvoiceView,
  PolledInvoice,
  ValidationItem,
} from '../../../shared/schemas/responses/invoices.ts';
import type { KioskRecord } from '../../../shared/schemas/responses/kiosk.ts';
import type { AppNotification } from '../../../shared/schemas/responses/notifications.ts';
import type { AssetGroup } from '../../../shared/schemas/responses/portfolios.ts';
import type { RecommendationView } from '../../../shared/schemas/responses/recommendations.ts';
import type {
  CustomTemplateView,
  ReportView,
  ScheduleView,
} from '../../../shared/schemas/responses/reports.ts';
import type { Supplier } from '../../../shared/schemas/responses/suppliers.ts';
import type { RESOURCE_SCHEMAS as ACCOUNTS } from '../../../shared/system/resource-schemas/accounts.ts';
import type { RESOURCE_SCHEMAS as ASSET_GROUPS } from '../../../shared/system/resource-schemas/asset-groups.ts';
import type { RESOURCE_SCHEMAS as ASSETS } from '../../../shared/system/resource-schemas/assets.ts';
import type { RESOURCE_SCHEMAS as AUTOMATION } from '../../../shared/system/resource-schemas/automation.ts';
import type { RESOURCE_SCHEMAS as COLLABORATION } from '../../../shared/system/resource-schemas/collaboration.ts';
import type { RESOURCE_SCHEMAS as COMPANIES } from '../../../shared/system/resource-schemas/companies.ts';
import type { RESOURCE_SCHEMAS as ENTITIES } from '../../../shared/system/resource-schemas/entities.ts';
import type { RESOURCE_SCHEMAS as INSIGHTS } from '../../../shared/system/resource-schemas/insights.ts';
import type { RESOURCE_SCHEMAS as INVOICE_VALIDATION } from '../../../shared/system/resource-schemas/invoice-validation.ts';
import type { RESOURCE_SCHEMAS as INVOICES } from '../../../shared/system/resource-schemas/invoices.ts';
import type { RESOURCE_SCHEMAS as SESSION } from '../../../shared/system/resource-schemas/session.ts';
import type { RESOURCE_SCHEMAS as TARGETS } from '../../../shared/system/resource-schemas/targets.ts';
import type { RESOURCE_SCHEMAS as TEMPLATES } from '../../../shared/system/resource-schemas/templates.ts';
import type { RESOURCE_SCHEMAS as UTIL } from '../../../shared/system/resource-schemas/util.ts';
import type { StoredMeta } from '../data/stored-record.ts';

/**
 * The schemas each function registers, by resource, as types only: naming them here loads no schema.
 * Every function's registration is named, so a resource moved from one function to another stays here.
 */
type Registered = typeof ACCOUNTS &
  typeof ASSET_GROUPS &
  typeof ASSETS &
  typeof AUTOMATION &
  typeof COLLABORATION &
  typeof COMPANIES &
  typeof ENTITIES &
  typeof INSIGHTS &
  typeof INVOICE_VALIDATION &
  typeof INVOICES &
  typeof SESSION &
  typeof TARGETS &
  typeof TEMPLATES &
  typeof UTIL;

export type GenericResource = keyof Registered;

type SubSchemas<R extends GenericResource> = NonNullable<
  Registered[R] extends { subResources?: infer S } ? S : never
>;

/** A resource, or one of its sub-resources as `{resource}/{sub}`. */
export type GenericCollection = {
  [R in GenericResource]: R | `${R}/${keyof SubSchemas<R> & string}`;
}[GenericResource];

/**
 * What the generic layer puts beside a schema's fields. Every writer stamps the creation time (the
 * generic create, bulk and sub-create, the seed and the areas' own writers), so it is always there.
 */
type Created = { createdAt: string };
type GenericMeta = StoredMeta & Created;

export type SchemaOf<C extends GenericCollection> = C extends `${infer R extends GenericResource}/${infer S}`
  ? S extends keyof SubSchemas<R>
    ? SubSchemas<R>[S]
    : never
  : C extends GenericResource
    ? Registered[C]['schema']
    : never;

/** An item as the generic create or update stores it: its schema's fields, parsed, and the stamps. */
export type SchemaRecord<C extends GenericCollection> = z.output<SchemaOf<C>> &
  GenericMeta &
  (C extends `${string}/${string}` ? { parentId: string } : unknown);

/**
 * Records of collections whose items their area writes with fields beyond the schema (a run's counts, a
 * report's requester): the schema is what a client may send, the area's type what is stored. Each area
 * adds its own, next to its type, by augmenting this interface; the check below holds the area's type
 * to the schema's fields.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by the areas through declaration merging
export interface AreaRecords {}

/** An item of a collection as a generic call answers it. */
export type GenericRecord<C extends GenericCollection> = C extends keyof AreaRecords
  ? AreaRecords[C] & Created
  : SchemaRecord<C>;

/**
 * What the browser reads each collection's items as (lists, reads and the answers of writes), from
 * `shared/schemas/responses/` and the shared types beside it. Every stored record must fit its view:
 * a change to a schema, an area's record or a view that breaks that fails the type check below.
 */
export interface GenericAnswers {
  /** The site list and read answer the stored site with its pictures' addresses signed (`presentAsset`). */
  assets: AssetView;
  'asset-groups': AssetGroup;
  entities: Entity;
  /**
   * Held to the schema's fields only: capture writes bills with more, and its record of them (StoredInvoice)
   * reads every field as optional, which this view does not.
   */
  invoices: InvoiceView & PolledInvoice;
  /** The queue and search answer each through the repository's record of it (`toValidation`). */
  'invoice-validation': ValidationItem;
  automations: Automation;
  'automation-runs': AutomationRun;
  'scraper-runs': ScraperRun;
  roles: Role;
  permissions: GrantSet;
  logs: LogEntry;
  imports: ImportState;
  reports: ReportView;
  'report-templates': CustomTemplateView;
  'scheduled-reports': ScheduleView;
  projects: ProjectView;
  kiosks: KioskRecord;
  recommendations: RecommendationView;
  /** The generic create and update answer it as stored; the list and read add a link to its logo. */
  suppliers: Supplier;
  templates: Template;
  /** Read through the session's own list (`/users/me/notifications`), which answers them as stored. */
  notifications: AppNotification;
  widgets: DashboardWidget;
  'accounts/status-history': StatusHistoryEntry;
  'assets/status-history': HistoryEntry;
  'assets/tenants': Tenant;
}

/** Compiles only when a stored record fits the view the browser reads it as. */
export type Fits<Stored extends View, View> = Stored;

/** Each collection's stored record as the generic calls answer it. */
type Answered = { [C in keyof GenericAnswers]: GenericRecord<C> };

/**
 * An area's record keeps every field of its schema, typed as the schema takes it: its input, since an
 * item stored before a default was added may lack the field.
 */
type AreaSchemas = {
  [C in keyof AreaRecords]: C extends GenericCollection ? z.input<SchemaOf<C>> & StoredMeta : never;
};

/**
 * The checks: a record that lacks a field its view requires, or types one otherwise, fails `tsc` here,
 * naming the collection and the field.
 */
export type Checked = [Fits<Answered, GenericAnswers>, Fits<AreaRecords, AreaSchemas>];
