import * as z from 'zod';
import { addressSchema } from './address.ts';
import { idSchema, nonEmpty } from './common.ts';
import { floorAreaHistoryFields } from './floor-area-history.ts';

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
  floorAreaHistory: z.optional(floorAreaHistoryFields()),
  status: z.enum(['active', 'inactive', 'sold', 'development']).default('active'),
  images: z.array(assetImageSchema).default([]),
  epcRating: z.string().max(3).optional(),
  epc: assetEpcSchema.optional(),
  geocoordinates: z.object({ lat: z.number(), lng: z.number() }).optional(),
  satelliteImages: z.array(satelliteImageSchema).max(20).optional(),
});
