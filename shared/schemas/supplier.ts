import * as z from 'zod';
import { normaliseVatNumber, registeredDomain } from '../capture/supplier-keys.ts';
import { nonEmpty, utilityTypeSchema } from './common.ts';

export const supplierSchema = z.object({
  name: nonEmpty.max(200),
  type: z.enum(['supplier', 'distributor']).default('supplier'),
  utilityTypes: z.array(utilityTypeSchema).default([]),
  logoUrl: z.string().optional(),
  portal: z.string().max(500).optional(),
  /** Matched against the VAT number a bill prints; stored as written, compared without spaces. */
  vatNumber: z
    .string()
    .trim()
    .max(30)
    .refine((v) => v === '' || normaliseVatNumber(v) !== undefined, {
      message: 'Enter a VAT number such as GB123456789 or DE136695976',
    })
    .optional(),
  /** The supplier's web address: bills printing its domain, in a web or e-mail address, are its. */
  website: z
    .string()
    .trim()
    .max(500)
    .refine((v) => v === '' || registeredDomain(v) !== undefined, {
      message: 'Enter a web address such as www.example.co.uk',
    })
    .optional(),
  scraperEnabled: z.boolean().default(false),
});
