import * as z from 'zod/mini';
import { LOGO_MAX_PIXELS } from '../../shared/constants.ts';
import { MESSAGES } from '../../shared/messages.ts';
import { idField } from '../../shared/schemas/mini-fields.ts';
import type { LogoTicket } from '../../shared/schemas/responses/company.ts';
import { declaredSize, tooLargeMessage, UPLOAD_LIMITS } from '../../shared/schemas/upload-size.ts';
import { storedUpload } from '../core/adapters/object-start.ts';
import { presignGet, presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import { formError } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { pngSize } from '../core/lib/png.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { loadCompany, saveSettings } from './company-admin-service.ts';

/** Logos are at least this wide, so they stay sharp in the header and on reports. */
const MIN_LOGO_WIDTH = 200;

const logoKeyPrefix = (companyId: string) => `logos/${companyId}/`;

/** A presigned upload for a new logo; it takes effect once confirmed (PUT /companies/{id}/logo). */
const uploadLogo = operation({}, async (ctx): Promise<OpResult> => {
  const body = parseOrThrow(
    z.object({ companyId: z.optional(idField()), size: declaredSize(UPLOAD_LIMITS.logo) }),
    ctx.body ?? {},
  );
  const companyId = ctx.caller.isAdmin && body.companyId ? body.companyId : ctx.caller.companyId;
  await loadCompany(companyId);
  const key = `${logoKeyPrefix(companyId)}${newId()}.png`;
  const bucket = bucketName('documents');
  return {
    body: {
      uploadUrl: await presignPut(bucket, key, 'image/png', { size: body.size }),
      method: 'PUT',
      contentType: 'image/png',
      key,
      previewUrl: await presignGet(bucket, key),
      rule: MESSAGES.logoRule,
    } satisfies LogoTicket,
  };
});

/** Checks the uploaded file by its size and PNG header: a PNG at least 200 px wide, or the logo rule's message. */
const confirmLogo = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const company = await loadCompany(ctx.params.id);
  const { key } = parseOrThrow(z.object({ key: z.optional(z.string()) }), ctx.body ?? {});
  // Only this company's own uploads: a key elsewhere is as good as no logo.
  if (!key?.startsWith(logoKeyPrefix(company._id))) throw formError({ logo: MESSAGES.logoMissing });
  const stored = await storedUpload(bucketName('documents'), key, 33);
  if (!stored) throw formError({ logo: MESSAGES.logoMissing });
  if (stored.size > UPLOAD_LIMITS.logo) throw formError({ logo: tooLargeMessage(UPLOAD_LIMITS.logo) });
  const size = pngSize(stored.start);
  if (!size || size.width < MIN_LOGO_WIDTH) throw formError({ logo: MESSAGES.logoRule });
  if (size.width * size.height > LOGO_MAX_PIXELS) throw formError({ logo: MESSAGES.logoTooLarge });
  const next = await saveSettings(
    ctx,
    company,
    (settings) => ({ ...settings, logoKey: key, showLogo: true }),
    'Logo changed',
  );
  return { body: { ...next, logoUrl: await presignGet(bucketName('documents'), key, 3600) } };
});

export const COMPANY_LOGO_OPERATIONS: Operations = {
  'companies.uploadLogo': uploadLogo,
  'companies.confirmLogo': confirmLogo,
};
