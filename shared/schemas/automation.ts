import * as z from 'zod';
import { idSchema, nonEmpty } from './common.ts';

/** What an automation does: each names the work one of its runs carries out. */
export const AUTOMATION_TEMPLATE_IDS = ['portal-bills', 'meter-data', 'folder-import'] as const;
export type AutomationTemplateId = (typeof AUTOMATION_TEMPLATE_IDS)[number];

/** When an automation runs by itself; `manual` only when someone presses Run. */
export const AUTOMATION_SCHEDULES = ['manual', 'daily', 'weekly', 'monthly'] as const;
export type AutomationSchedule = (typeof AUTOMATION_SCHEDULES)[number];

export const automationSchema = z.object({
  name: nonEmpty.max(200),
  templateId: z.enum(AUTOMATION_TEMPLATE_IDS),
  /** The supplier login a portal-bills or meter-data automation runs. */
  supplierId: idSchema.optional(),
  schedule: z.enum(AUTOMATION_SCHEDULES).default('manual'),
  enabled: z.boolean().default(true),
  /** Who is told when it fails; its creator when not set. */
  ownerSub: z.string().max(200).optional(),
});

export const AUTOMATION_RUN_STATUSES = ['pending', 'running', 'retrying', 'succeeded', 'failed'] as const;

/** Runs are written by the worker; the schema describes them for the schema call and reads. */
export const automationRunSchema = z.object({
  automationId: idSchema,
  status: z.enum(AUTOMATION_RUN_STATUSES).default('pending'),
  errorCode: z.string().optional(),
});
