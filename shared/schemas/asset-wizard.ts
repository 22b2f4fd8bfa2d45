import * as z from 'zod';
import { IMPERIAL_AREA_FACTOR } from '../constants.ts';
import { ASSET_STATUSES, ASSET_TYPES, isUkCountry, normalisePostcode, UK } from './asset-wizard-values.ts';
import { idField, nonEmptyField } from './fields.ts';
import { onFirstUse } from './on-first-use.ts';

export {
  ASSET_STATUSES,
  ASSET_TYPES,
  type AssetStatus,
  isUkCountry,
  normalisePostcode,
  UK,
} from './asset-wizard-values.ts';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v === '' ? undefined : v));

// The schemas are built on first use: the functions and pages importing this module's names and checks
// start without them.

/** An address as a form sends it; a UK address needs a valid postcode, which is put in its usual form. */
const addressInputFields = () =>
  z
    .object({
      streetAddress: nonEmptyField().max(200),
      locality: optionalText(100),
      region: optionalText(100),
      postCode: nonEmptyField().max(20),
      country: optionalText(100),
    })
    .transform((a, ctx) => {
      if (!isUkCountry(a.country)) return a;
      const postCode = normalisePostcode(a.postCode);
      if (!postCode) {
        ctx.addIssue({ code: 'custom', path: ['postCode'], message: 'Must be a valid UK postcode' });
        return z.NEVER;
      }
      return { ...a, postCode, country: UK };
    });
export const addressInputSchema = /* @__PURE__ */ onFirstUse(addressInputFields);

/** A number typed into a form: empty means not given. */
const formNumber = () =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v.replace(/,/g, '')) : v),
    z.number({ error: 'Must be a number' }).optional(),
  );

/** What the asset wizard sends to wizard-check and wizard-submit. */
export const assetWizardSchema = /* @__PURE__ */ onFirstUse(() =>
  z.object({
    siteName: nonEmptyField().max(200),
    entityId: idField(),
    assetType: z.enum(ASSET_TYPES, { error: 'Choose a type of site' }),
    status: z.enum(ASSET_STATUSES).default('active'),
    address: addressInputFields(),
    floorArea: formNumber().refine((v) => v === undefined || v > 0, 'Must be greater than 0'),
    floorAreaUnit: z.enum(['m2', 'ft2']).default('m2'),
  }),
);
export type AssetWizardInput = z.input<typeof assetWizardSchema>;
export type AssetWizardValues = z.output<typeof assetWizardSchema>;

/** The asset as the wizard will create it: floor area held in m², whatever unit it was entered in. */
export function normaliseWizardValues(values: AssetWizardValues) {
  const floorArea =
    values.floorArea === undefined
      ? undefined
      : Math.round(
          (values.floorAreaUnit === 'ft2' ? values.floorArea * IMPERIAL_AREA_FACTOR : values.floorArea) * 100,
        ) / 100;
  return {
    siteName: values.siteName,
    entityId: values.entityId,
    assetType: values.assetType,
    status: values.status,
    address: values.address,
    ...(floorArea === undefined ? {} : { floorArea }),
    floorAreaUnit: values.floorAreaUnit,
    floorAreaStoredAs: 'm2' as const,
  };
}
export type NormalisedWizardAsset = ReturnType<typeof normaliseWizardValues>;
