import * as z from 'zod';
import { addressSchema, idSchema, isoDate, nonEmpty, utilityTypeSchema } from './common.ts';

export const entitySchema = z.object({
  legalName: nonEmpty.max(200),
  parentEntityId: idSchema.nullable().optional(),
  companyNumber: z.string().trim().max(20).optional(),
  address: addressSchema.optional(),
});

export const assetImageSchema = z.object({
  url: z.string(),
  thumbUrl: z.string().optional(),
  isPrimary: z.boolean().default(false),
});

export const assetSchema = z.object({
  siteName: nonEmpty.max(200),
  entityId: idSchema,
  address: addressSchema.optional(),
  assetType: z.string().max(100).optional(),
  floorArea: z.number().nonnegative().optional(),
  floorAreaUnit: z.enum(['m2', 'ft2']).default('m2'),
  status: z.enum(['active', 'inactive', 'sold', 'development']).default('active'),
  images: z.array(assetImageSchema).default([]),
  epcRating: z.string().max(3).optional(),
  geocoordinates: z.object({ lat: z.number(), lng: z.number() }).optional(),
});

export const assetGroupSchema = z.object({
  name: nonEmpty.max(200),
  description: z.string().max(2000).optional(),
  assetIds: z.array(idSchema).default([]),
});

export const accountSchema = z.object({
  name: z.string().trim().max(200).optional(),
  type: utilityTypeSchema,
  meterPointNumber: z.string().trim().max(40).optional(),
  assetId: idSchema,
  entityId: idSchema.optional(),
  supplierId: idSchema.optional(),
  parentAccountId: idSchema.nullable().optional(),
  status: z.enum(['active', 'inactive']).default('active'),
  unit: z.string().max(20).optional(),
  tags: z.array(z.string().max(50)).default([]),
  wasteCategory: z.string().max(100).optional(),
});

export const readingSchema = z.object({
  accountId: idSchema,
  date: isoDate,
  value: z.number(),
  unit: z.string().max(20).optional(),
  isEstimate: z.boolean().default(false),
  photoKey: z.string().optional(),
});

export const projectSchema = z.object({
  name: nonEmpty.max(200),
  assetId: idSchema,
  description: z.string().max(5000).optional(),
  status: z.enum(['planned', 'in-progress', 'completed', 'cancelled']).default('planned'),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  cost: z.number().nonnegative().optional(),
  estimatedSavingKwh: z.number().optional(),
});

export const recommendationSchema = z.object({
  title: nonEmpty.max(200),
  description: z.string().max(5000).optional(),
  assetId: idSchema.optional(),
  category: z.string().max(100).optional(),
  estimatedSaving: z.number().optional(),
});

export const supplierSchema = z.object({
  name: nonEmpty.max(200),
  type: z.enum(['supplier', 'distributor']).default('supplier'),
  utilityTypes: z.array(utilityTypeSchema).default([]),
  logoUrl: z.string().optional(),
  portal: z.string().max(500).optional(),
  scraperEnabled: z.boolean().default(false),
});

export const countrySchema = z.object({
  name: nonEmpty.max(100),
  fullName: nonEmpty.max(200),
  code: z.string().length(2),
  isJurisdiction: z.boolean().default(false),
});

export const timelineEventSchema = z.object({
  title: nonEmpty.max(200),
  date: isoDate,
  description: z.string().max(2000).optional(),
});

export const statusHistorySchema = z.object({
  status: nonEmpty.max(50),
  date: isoDate,
  comment: z.string().max(1000).optional(),
});

export const taskSchema = z.object({
  title: nonEmpty.max(200),
  done: z.boolean().default(false),
  dueDate: isoDate.optional(),
  assignedUserSub: z.string().optional(),
});
