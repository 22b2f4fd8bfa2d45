import * as z from 'zod/mini';
import { LOGO_MAX_PIXELS } from '../../shared/constants.ts';
import { MESSAGES } from '../../shared/messages.ts';
import { onFirstUse } from '../../shared/schemas/on-first-use.ts';
import type { LogoUploadStart } from '../../shared/schemas/responses/suppliers.ts';
import { declaredSize, tooLargeMessage, UPLOAD_LIMITS } from '../../shared/schemas/upload-size.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { storedUpload } from '../core/adapters/object-start.ts';
import { presignGet, presignPut } from '../core/adapters/s3.ts';
import { bucketName } from '../core/config.ts';
import type { StoredItem } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { pngSize } from '../core/lib/png.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { genericOperation } from '../core/resources/resource-service.ts';
import { changeSupplier, findSupplier, type StoredSupplier } from './supplier-repository.ts';

/** Supplier logos are held to the same rules as company logos: a PNG at least 200 px wide, size and pixels capped. */
const MIN_LOGO_WIDTH = 200;
const LOGO_URL_SECONDS = 3600;

const logoPrefix = (supplierId: string) => `suppliers/${supplierId}/logo/`;

/** The stored logo is private: answers carry a link to it that works for an hour. */
export async function withLogo<T extends StoredItem>(supplier: T): Promise<T> {
  if (typeof supplier.logoKey !== 'string') return supplier;
  return {
    ...supplier,
    logoUrl: await presignGet(bucketName('documents'), supplier.logoKey, LOGO_URL_SECONDS),
  };
}

const generic = genericOperation;

/**
 * GET /suppliers (e.g. `?type=distributor`) and GET /suppliers/{id}: the generic reads, each supplier with
 * its logo link (the view the templates function registers for suppliers).
 */
const list = operation({}, async (ctx): Promise<OpResult> => generic('generic.list')(ctx));

const get = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => generic('generic.get')(ctx));

async function loadSupplier(id: string): Promise<StoredSupplier> {
  const supplier = await findSupplier(id);
  if (!supplier) throw notFound();
  return supplier;
}

/** Changes the supplier as stored when written, so a rename at the same moment stays; logs the change. */
async function saveSupplier(
  ctx: OpContext,
  id: string,
  edit: (current: StoredSupplier) => StoredSupplier,
  message: string,
): Promise<StoredSupplier> {
  const item = await changeSupplier(id, (current) => ({
    ...edit(current),
    updatedAt: new Date().toISOString(),
  }));
  if (!item) throw notFound();
  await writeActivity(ctx.caller, { type: 'update', model: 'suppliers', modelId: item._id, message });
  return withLogo(item);
}

const logoBody = onFirstUse(() =>
  z.object({ key: z.optional(z.string().check(z.maxLength(300))), size: z.optional(z.unknown()) }),
);
const logoUploadBody = onFirstUse(() => z.object({ size: declaredSize(UPLOAD_LIMITS.logo) }));

/**
 * PUT /suppliers/{id}/logo. Without a key: a presigned upload of the declared `size` for a new logo (PUT the
 * PNG to `uploadUrl`). With the `key` of that upload: checks the file is a PNG at least 200 px wide and at
 * most 16 megapixels, and makes it the logo.
 */
const putLogo = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const supplier = await loadSupplier(ctx.params.id);
  const { key } = parseOrThrow(logoBody, ctx.body ?? {});
  const bucket = bucketName('documents');
  if (!key) {
    const { size } = parseOrThrow(logoUploadBody, ctx.body ?? {});
    const fresh = `${logoPrefix(supplier._id)}${newId()}.png`;
    return {
      body: {
        uploadUrl: await presignPut(bucket, fresh, 'image/png', { size }),
        method: 'PUT',
        contentType: 'image/png',
        key: fresh,
        rule: MESSAGES.logoRule,
      } satisfies LogoUploadStart,
    };
  }
  // Only this supplier's own uploads: a key elsewhere is as good as no logo.
  if (!key.startsWith(logoPrefix(supplier._id))) throw formError({ logo: MESSAGES.logoMissing });
  const stored = await storedUpload(bucket, key, 33);
  if (!stored) throw formError({ logo: MESSAGES.logoMissing });
  if (stored.size > UPLOAD_LIMITS.logo) throw formError({ logo: tooLargeMessage(UPLOAD_LIMITS.logo) });
  const size = pngSize(stored.start);
  if (!size || size.width < MIN_LOGO_WIDTH) throw formError({ logo: MESSAGES.logoRule });
  if (size.width * size.height > LOGO_MAX_PIXELS) throw formError({ logo: MESSAGES.logoTooLarge });
  const edit = (current: StoredSupplier): StoredSupplier => {
    const { logoUrl: _stale, ...rest } = current;
    return { ...rest, _id: current._id, logoKey: key };
  };
  return { body: await saveSupplier(ctx, supplier._id, edit, 'Logo changed') };
});

/** DELETE /suppliers/{id}/logo: the supplier shows no logo from now on. */
const deleteLogo = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const supplier = await loadSupplier(ctx.params.id);
  const edit = (current: StoredSupplier): StoredSupplier => {
    const { logoKey: _key, logoUrl: _url, ...rest } = current;
    return { ...rest, _id: current._id };
  };
  return { body: await saveSupplier(ctx, supplier._id, edit, 'Logo removed') };
});

export const SUPPLIER_OPERATIONS: Operations = {
  'suppliers.list': list,
  'suppliers.get': get,
  'suppliers.putLogo': putLogo,
  'suppliers.deleteLogo': deleteLogo,
};
