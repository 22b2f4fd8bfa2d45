import type { Caller } from '../../shared/access/caller.ts';
import { kioskSchema } from '../../shared/schemas/company.ts';
import { listAssetRollups } from '../accounts/index.ts';
import { findAsset, findStoredAsset } from '../assets/index.ts';
import { getCompany } from '../company/index.ts';
import { putKioskCredential } from '../core/access/credential-repository.ts';
import { forgetCredential } from '../core/access/credential-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { getItem, putItem, type StoredItem, updateRaw } from '../core/data/item-repository.ts';
import { formError, notFound } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { digestOf, newSecret } from '../core/lib/secrets.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { kiosksRef } from './kiosk-repository.ts';

/** How often a screen's polling is written down as "last seen": often enough to tell a dead screen. */
const SEEN_EVERY_MS = 5 * 60 * 1000;

async function loadKiosk(companyId: string, id: string | undefined): Promise<StoredItem> {
  const kiosk = id ? await getItem(kiosksRef(companyId).pk, id) : undefined;
  if (!kiosk || kiosk.deleted === true) throw notFound();
  return kiosk;
}

/** A new secret for a kiosk: shown once, stored as its digest under the kiosk's id. */
async function issueSecret(companyId: string, kioskId: string) {
  const secret = newSecret();
  await putKioskCredential({
    kioskId,
    companyId,
    digest: digestOf(secret),
    rotatedAt: new Date().toISOString(),
  });
  forgetCredential('kiosk', kioskId);
  return { kioskId, secret, kioskKey: `${kioskId}:${secret}`, kioskAuth: `${kioskId}|${secret}` };
}

const create = async (ctx: OpContext): Promise<OpResult> => {
  const data = parseOrThrow(kioskSchema, ctx.body);
  const companyId = ctx.caller.companyId;
  const asset = await findAsset(companyId, data.assetId);
  if (!asset) throw formError({ assetId: 'No such asset' });
  const now = new Date().toISOString();
  const kiosk: StoredItem = {
    ...data,
    _id: newId(),
    companyId,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.sub,
  };
  await putItem(kiosksRef(companyId), kiosk, { mustNotExist: true });
  const credential = await issueSecret(companyId, kiosk._id);
  await writeActivity(ctx.caller, { type: 'create', model: 'kiosks', modelId: kiosk._id });
  return { status: 201, body: { ...kiosk, ...credential }, headers: { 'cache-control': 'no-store' } };
};

/** A new secret; the old one stops working (within seconds on every instance). */
const rotate = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const kiosk = await loadKiosk(ctx.caller.companyId, ctx.params.id);
  const credential = await issueSecret(ctx.caller.companyId, kiosk._id);
  await writeActivity(ctx.caller, { type: 'rotate-secret', model: 'kiosks', modelId: kiosk._id });
  return { body: credential, headers: { 'cache-control': 'no-store' } };
});

/** What a kiosk screen shows: the kiosk, its building and the company's name and logo setting. */
async function display(caller: Caller, kiosk: StoredItem, preview: boolean) {
  const assetId = typeof kiosk.assetId === 'string' ? kiosk.assetId : '';
  const [asset, company] = await Promise.all([
    findStoredAsset(caller.companyId, assetId),
    getCompany(caller.companyId),
  ]);
  const settings = (company?.settings ?? {}) as Record<string, unknown>;
  return {
    preview,
    kiosk: { _id: kiosk._id, name: kiosk.name, slides: kiosk.slides ?? [] },
    asset: asset
      ? {
          _id: asset._id,
          siteName: asset.siteName,
          address: asset.address,
          images: asset.images ?? [],
          floorArea: asset.floorArea,
        }
      : null,
    company: company ? { name: company.name, showLogo: settings.showLogo === true } : null,
  };
}

/** A user previews any kiosk of their company; a kiosk previews only itself. */
const preview = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const id = ctx.params.id;
  if (ctx.caller.kind === 'kiosk' && ctx.caller.kioskId !== id) throw notFound();
  const kiosk = await loadKiosk(ctx.caller.companyId, id);
  return { body: await display(ctx.caller, kiosk, true) };
});

const live = async (ctx: OpContext): Promise<OpResult> => {
  const kiosk = await loadKiosk(ctx.caller.companyId, ctx.caller.kioskId);
  const seen = typeof kiosk.lastSeenAt === 'string' ? Date.parse(kiosk.lastSeenAt) : 0;
  // A preview is someone looking at the screen's content, not the screen itself being alive.
  if (!ctx.caller.preview && Date.now() - seen > SEEN_EVERY_MS) {
    await updateRaw(kiosksRef(ctx.caller.companyId).pk, kiosk._id, { lastSeenAt: new Date().toISOString() });
  }
  return { body: await display(ctx.caller, kiosk, ctx.caller.preview === true) };
};

const monthOf = (d: Date) => `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

/**
 * The building's latest month of consumption per utility, beside the same month a year before. Screens
 * are public, so costs are left out.
 */
const liveConsumption = async (ctx: OpContext): Promise<OpResult> => {
  const kiosk = await loadKiosk(ctx.caller.companyId, ctx.caller.kioskId);
  const assetId = typeof kiosk.assetId === 'string' ? kiosk.assetId : '';
  const now = new Date();
  const from = monthOf(new Date(Date.UTC(now.getUTCFullYear() - 2, now.getUTCMonth(), 1)));
  const rollups = await listAssetRollups(ctx.caller.companyId, assetId, from, monthOf(now));
  const latest = rollups.reduce<string | undefined>((m, r) => (!m || r.month > m ? r.month : m), undefined);
  const lastYear = latest ? `${Number(latest.slice(0, 4)) - 1}${latest.slice(4)}` : undefined;
  const view = (month: string | undefined) =>
    rollups
      .filter((r) => r.month === month)
      .map((r) => ({
        utilityType: r.utilityType,
        consumption: r.consumption,
        unit: r.unit,
        emissionsKg: r.emissionsKg,
      }));
  return {
    body: {
      assetId,
      month: latest ?? null,
      data: view(latest),
      sameMonthLastYear: { month: lastYear ?? null, data: view(lastYear) },
    },
  };
};

export const KIOSK_OPERATIONS: Operations = {
  'kiosks.create': create,
  'kiosks.rotate': rotate,
  'kiosks.preview': preview,
  'kiosks.live': live,
  'kiosks.liveConsumption': liveConsumption,
};
