import * as z from 'zod';
import { customTemplateFields } from '../reports/custom-templates.ts';
import { scheduledReportFields } from '../reports/report-schedule.ts';
import { idSchema, isoDate, nonEmpty, utilityTypeSchema } from './common.ts';

export const widgetSettingsSchema = z.object({
  type: z.string().max(50),
  selectedId: z.string().optional(),
  source: z.string().optional(),
  granularity: z.enum(['daily', 'weekly', 'monthly', 'quarterly', 'yearly']).optional(),
  consumptionType: z.string().optional(),
  utilityType: utilityTypeSchema.optional(),
  metric: z.string().optional(),
  comparePeriod: z.enum(['period', 'month', 'quarter', 'year', 'none']).optional(),
  customData: z.record(z.string(), z.unknown()).optional(),
});

export const dashboardSchema = z.object({
  name: nonEmpty.max(200),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  period: z.string().max(50).optional(),
});

export const widgetSchema = z.object({
  dashboardId: idSchema,
  position: z
    .object({ x: z.number().int(), y: z.number().int(), w: z.number().int(), h: z.number().int() })
    .optional(),
  settings: widgetSettingsSchema,
});

export const reportSchema = z.object({
  name: nonEmpty.max(200),
  type: z.string().max(50),
  reportTemplateId: idSchema.optional(),
  status: z.enum(['queued', 'generating', 'ready', 'failed']).default('queued'),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
});

/** The stored fields; the operations of report templates check the rules between them. */
export const reportTemplateSchema = /* @__PURE__ */ customTemplateFields();

/** The stored fields; the operations of scheduled reports check the rules between them. */
export const scheduledReportSchema = /* @__PURE__ */ scheduledReportFields();

/**
 * One building type's figures in a benchmark set. `values` holds kWh/m²/yr figures: `target`,
 * `goodPractice`, `typical` (`energyUseIntensityKwhPerM2` is read as the target). A figure always
 * carries where it comes from and the period it describes; one not confirmed against its source is
 * marked illustrative and shown so.
 */
export const benchmarkSchema = z.object({
  name: nonEmpty.max(200),
  kind: z.enum(['crrem', 'leti', 'reeb', 'etn']),
  propertyType: z.string().max(100).optional(),
  values: z.record(z.string(), z.number()).default({}),
  source: z.string().max(500).optional(),
  period: z.string().max(100).optional(),
  version: z.string().max(50).optional(),
  illustrative: z.boolean().optional(),
  check: z.string().max(500).optional(),
});
