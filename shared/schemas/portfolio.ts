import * as z from 'zod';
import { addressSchema, idSchema, isoDate, nonEmpty, utilityTypeSchema } from './common.ts';
import { floorAreaHistorySchema } from './floor-area-history.ts';

export const entitySchema = z.object({
  legalName: nonEmpty.max(200),
  parentEntityId: idSchema.nullable().optional(),
  companyNumber: z.string().trim().max(20).optional(),
  address: addressSchema.optional(),
});

/**
 * A picture of a site. Uploaded pictures keep their object keys (under `assets/{assetId}/images/`) and are
 * served by short-lived signed URLs; older ones carry a stored `url`.
 */
export const assetImageSchema = z.object({
  _id: z.string().optional(),
  url: z.string().optional(),
  thumbUrl: z.string().optional(),
  key: z.string().optional(),
  thumbKey: z.string().optional(),
  enhancedKey: z.string().optional(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
  isPrimary: z.boolean().default(false),
});

export const satelliteImageSchema = z.object({
  url: z
    .string()
    .trim()
    .max(2000)
    .regex(/^(https:\/\/|\/)/, 'Must be an https address'),
  zoom: z.number().int().min(1).max(22).optional(),
  label: z.string().trim().max(200).optional(),
});

/** The Energy Performance Certificate linked to a site, with the band worked out from its rating. */
export const assetEpcSchema = z.object({
  certificateId: z.string().max(200),
  kind: z.enum(['domestic', 'non-domestic', 'display']),
  rating: z.number(),
  band: z.enum(['A', 'B', 'C', 'D', 'E', 'F', 'G']),
  lodgementDate: z.string().optional(),
  address: z.string().optional(),
});

export const assetSchema = z.object({
  siteName: nonEmpty.max(200),
  entityId: idSchema,
  address: addressSchema.optional(),
  assetType: z.string().max(100).optional(),
  /** In m² as stored; a create or PATCH gives it in `floorAreaUnit` and the server converts it. */
  floorArea: z.number().nonnegative().optional(),
  /** The unit the area is entered and shown in, not the unit it is stored in. */
  floorAreaUnit: z.enum(['m2', 'ft2']).default('m2'),
  /** Set on every site whose floorArea is known to be in m² (see the floor-area migration). */
  floorAreaStoredAs: z.literal('m2').optional(),
  /** Earlier or later floor areas, each in force for a period; `floorArea` is the area today. */
  floorAreaHistory: floorAreaHistorySchema.optional(),
  status: z.enum(['active', 'inactive', 'sold', 'development']).default('active'),
  images: z.array(assetImageSchema).default([]),
  epcRating: z.string().max(3).optional(),
  epc: assetEpcSchema.optional(),
  geocoordinates: z.object({ lat: z.number(), lng: z.number() }).optional(),
  satelliteImages: z.array(satelliteImageSchema).max(20).optional(),
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
  /** The meter's own serial, which half-hourly meter data connectors match meters by. */
  meterSerialNumber: z.string().trim().max(40).optional(),
  assetId: idSchema,
  entityId: idSchema.optional(),
  supplierId: idSchema.optional(),
  parentAccountId: idSchema.nullable().optional(),
  status: z.enum(['active', 'inactive']).default('active'),
  unit: z.string().max(20).optional(),
  tags: z.array(z.string().max(50)).default([]),
  wasteCategory: z.string().max(100).optional(),
});

/** A meter reading of an account. Its photo is attached only through the submit calls, which check it. */
export const readingSchema = z.object({
  accountId: idSchema,
  date: isoDate,
  value: z.number({ error: 'Must be a number' }).nonnegative('Must be 0 or more'),
  unit: z.string().max(20).optional(),
  isEstimate: z.boolean().default(false),
  comment: z.string().trim().max(1000).optional(),
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
  recommendationId: idSchema.optional(),
});

export const RECOMMENDATION_STATUSES = ['open', 'accepted', 'in-progress', 'done', 'dismissed'] as const;

/** A recommendation for one site (assetId), or a company-wide ("global") one that sites can copy. */
export const recommendationSchema = z.object({
  title: nonEmpty.max(200),
  description: z.string().max(5000).optional(),
  assetId: idSchema.optional(),
  category: z.string().max(100).optional(),
  estimatedSaving: z.number().optional(),
  estimatedCost: z.number().nonnegative().optional(),
  priority: z.enum(['low', 'medium', 'high']).default('medium'),
  status: z.enum(RECOMMENDATION_STATUSES).default('open'),
  globalRecommendationId: idSchema.optional(),
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
