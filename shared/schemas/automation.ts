import * as z from 'zod';
import { FOLDER_IMPORT_TYPES } from '../imports/import-types.ts';
import { idSchema, nonEmpty } from './common.ts';

/** What an automation does: each names the work one of its runs carries out. */
export const AUTOMATION_TEMPLATE_IDS = [
  'portal-bills',
  'meter-data',
  'folder-import',
  'data-request',
] as const;
export type AutomationTemplateId = (typeof AUTOMATION_TEMPLATE_IDS)[number];

/** When an automation runs by itself; `manual` only when someone presses Run. */
export const AUTOMATION_SCHEDULES = ['manual', 'daily', 'weekly', 'monthly'] as const;
export type AutomationSchedule = (typeof AUTOMATION_SCHEDULES)[number];

/** What a data request asks its contact to send back. */
export const DATA_REQUEST_KINDS = ['readings', 'bill', 'readings-or-bill'] as const;
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number];

export const automationSchema = z.object({
  name: nonEmpty.max(200),
  templateId: z.enum(AUTOMATION_TEMPLATE_IDS),
  /** The supplier login a portal-bills or meter-data automation runs. */
  supplierId: idSchema.optional(),
  schedule: z.enum(AUTOMATION_SCHEDULES).default('manual'),
  enabled: z.boolean().default(true),
  /** Who is told when it fails; its creator when not set. */
  ownerSub: z.string().max(200).optional(),
  /** What a spreadsheet dropped into a folder-import automation holds; read from its columns when not set. */
  importType: z.enum(FOLDER_IMPORT_TYPES).optional(),
  /** Whom a data-request automation asks: a site contact or supplier, who replies by e-mail. */
  contactEmail: z.string().trim().toLowerCase().email('Must be an e-mail address').max(254).optional(),
  contactName: z.string().trim().max(200).optional(),
  /** The site a data request is about: its address and meters are named in the mail. */
  assetId: idSchema.optional(),
  /** What a data request asks for. */
  requestKind: z.enum(DATA_REQUEST_KINDS).optional(),
});

export const AUTOMATION_RUN_STATUSES = ['pending', 'running', 'retrying', 'succeeded', 'failed'] as const;

/** Runs are written by the worker; the schema describes them for the schema call and reads. */
export const automationRunSchema = z.object({
  automationId: idSchema,
  status: z.enum(AUTOMATION_RUN_STATUSES).default('pending'),
  errorCode: z.string().optional(),
});
