import type { Caller } from '../../shared/access/caller.ts';
import { kioskSchema } from '../../shared/schemas/kiosk.ts';
import { ADMIN_MESSAGES, pairScreenSchema, screensQuerySchema } from '../../shared/schemas/staff-admin.ts';
import { listAssetRollups } from '../accounts/index.ts';
import { findAsset, findStoredAsset } from '../assets/index.ts';
import { getCompany } from '../company/index.ts';
import { putKioskCredential } from '../core/access/credential-repository.ts';
import { forgetCredential } from '../core/access/credential-service.ts';
import { writeActivity } from '../core/activity/activity-service.ts';
import { mailConfig } from '../core/config.ts';
import { getItem, listItems, putItem, type StoredItem, updateRaw } from '../core/data/item-repository.ts';
import { formError, notFound, upstreamFailed } from '../core/lib/errors.ts';
import { newId } from '../core/lib/ids.ts';
import { digestOf, newSecret } from '../core/lib/secrets.ts';
import { objectOf } from '../core/lib/stored-values.ts';
import { parseOrThrow } from '../core/lib/validation.ts';
import type { OpContext, Operations, OpResult } from '../core/middleware/api-context.ts';
import { operation } from '../core/middleware/operation.ts';
import { newsFor } from './kiosk-feeds.ts';
import { latestHalfHourly, leaderboardOf, monthOf, yearBefore } from './kiosk-figures.ts';
import { kiosksRef } from './kiosk-repository.ts';
import { pairScreen, repointScreen, SignageError, unpairScreen } from './signage-client.ts';

/** How often a screen's polling is written down as "last seen": often enough to tell a dead screen. */
const SEEN_EVERY_MS = 5 * 60 * 1000;

async function loadKiosk(companyId: string, id: string | undefined): Promise<StoredItem> {
  const kiosk = id ? await getItem(kiosksRef(companyId).pk, id) : undefined;
  if (!kiosk || kiosk.deleted === true) throw notFound();
  return kiosk;
}

const credentialOf = (kioskId: string, secret: string) => ({
  kioskId,
  secret,
  kioskKey: `${kioskId}:${secret}`,
  kioskAuth: `${kioskId}|${secret}`,
});

/** Stores a kiosk's new secret as its digest; the old one stops working within seconds everywhere. */
async function storeSecret(companyId: string, kioskId: string, secret: string) {
  await putKioskCredential({
    kioskId,
    companyId,
    digest: digestOf(secret),
    rotatedAt: new Date().toISOString(),
  });
  forgetCredential('kiosk', kioskId);
  return credentialOf(kioskId, secret);
}

/** A new secret for a kiosk: shown once, stored as its digest under the kiosk's id. */
const issueSecret = (companyId: string, kioskId: string) => storeSecret(companyId, kioskId, newSecret());

interface Screen {
  deviceId: string;
  name?: string;
  pairedAt: string;
}

const isScreen = (v: unknown): v is Screen => {
  const f = objectOf(v);
  return typeof f.deviceId === 'string' && typeof f.pairedAt === 'string';
};

/** The screens paired with a kiosk, each as pairing stored it. */
const screensOf = (kiosk: StoredItem): Screen[] =>
  Array.isArray(kiosk.screens) ? kiosk.screens.filter(isScreen) : [];

/** The address a signage screen shows: the kiosk page with its key. */
function showUrl(origin: string | undefined, kioskAuth: string, kioskId: string): string {
  const base = (mailConfig().appUrl ?? origin ?? '').replace(/\/+$/, '');
  return `${base}/kiosk/${kioskId}?kioskAuth=${encodeURIComponent(kioskAuth)}`;
}

/** Screens paired before follow a new secret; one that cannot be told keeps the old address until paired again. */
async function repointAll(kiosk: StoredItem, url: string, log: OpContext['log']): Promise<number> {
  let failed = 0;
  for (const screen of screensOf(kiosk)) {
    try {
      await repointScreen(screen.deviceId, url);
    } catch (err) {
      failed += 1;
      log.warn('signage screen not re-pointed', { deviceId: screen.deviceId, error: String(err) });
    }
  }
  return failed;
}

const create = operation({}, async (ctx): Promise<OpResult> => {
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
});

/** A new secret; the old one stops working (within seconds on every instance). */
const rotate = operation({ params: ['id'] }, async (ctx): Promise<OpResult> => {
  const kiosk = await loadKiosk(ctx.caller.companyId, ctx.params.id);
  const credential = await issueSecret(ctx.caller.companyId, kiosk._id);
  const unreached = await repointAll(
    kiosk,
    showUrl(ctx.headers.origin, credential.kioskAuth, kiosk._id),
    ctx.log,
  );
  await writeActivity(ctx.caller, { type: 'rotate-secret', model: 'kiosks', modelId: kiosk._id });
  return { body: { ...credential, screensNotUpdated: unreached }, headers: { 'cache-control': 'no-store' } };
});

/** What a kiosk screen shows: the kiosk, its building and the company's name and logo setting. */
async function display(caller: Caller, kiosk: StoredItem, preview: boolean) {
  const assetId = typeof kiosk.assetId === 'string' ? kiosk.assetId : '';
  const [asset, company] = await Promise.all([
    findStoredAsset(caller.companyId, assetId),
    getCompany(caller.companyId),
  ]);
  const settings = company?.settings ?? {};
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

const live = operation({}, async (ctx): Promise<OpResult> => {
  const kiosk = await loadKiosk(ctx.caller.companyId, ctx.caller.kioskId);
  const seen = typeof kiosk.lastSeenAt === 'string' ? Date.parse(kiosk.lastSeenAt) : 0;
  // A preview is someone looking at the screen's content, not the screen itself being alive.
  if (!ctx.caller.preview && Date.now() - seen > SEEN_EVERY_MS) {
    await updateRaw(kiosksRef(ctx.caller.companyId).pk, kiosk._id, { lastSeenAt: new Date().toISOString() });
  }
  return { body: await display(ctx.caller, kiosk, ctx.caller.preview === true) };
});

/**
 * The building's latest month of consumption per utility, beside the same month a year before. Screens
 * are public, so costs are left out.
 */
const liveConsumption = operation({}, async (ctx): Promise<OpResult> => {
  const kiosk = await loadKiosk(ctx.caller.companyId, ctx.caller.kioskId);
  const assetId = typeof kiosk.assetId === 'string' ? kiosk.assetId : '';
  const now = new Date();
  const from = monthOf(new Date(Date.UTC(now.getUTCFullYear() - 2, now.getUTCMonth(), 1)));
  const rollups = await listAssetRollups(ctx.caller.companyId, assetId, from, monthOf(now));
  const latest = rollups.reduce<string | undefined>((m, r) => (!m || r.month > m ? r.month : m), undefined);
  const lastYear = latest ? yearBefore(latest) : undefined;
  const building = await findStoredAsset(ctx.caller.companyId, assetId);
  const [leaderboard, halfHourly] = await Promise.all([
    leaderboardOf(ctx.caller.companyId, building, latest ?? null),
    latestHalfHourly(ctx.caller.companyId, assetId, now),
  ]);
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
      leaderboard: leaderboard.rows,
      halfHourly,
      generatedAt: now.toISOString(),
    },
  };
});

/** GET /kiosks/live/news: news, weather and travel for the building's area. */
const liveNews = operation({}, async (ctx): Promise<OpResult> => {
  const kiosk = await loadKiosk(ctx.caller.companyId, ctx.caller.kioskId);
  const assetId = typeof kiosk.assetId === 'string' ? kiosk.assetId : '';
  return { body: await newsFor(await findStoredAsset(ctx.caller.companyId, assetId)) };
});

/** GET /kiosks/optisigns/screens: the signage screens paired with the company's kiosks (or one). */
const listScreens = operation({ query: screensQuerySchema }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const kiosks = ctx.query.kioskId
    ? [await loadKiosk(companyId, ctx.query.kioskId)]
    : (await listItems(kiosksRef(companyId), { filters: {}, limit: 500, skip: 0 })).data;
  const data = kiosks.flatMap((k) =>
    screensOf(k).map((s) => ({ ...s, kioskId: k._id, kioskName: String(k.name ?? '') })),
  );
  return { body: { data, total: data.length } };
});

/**
 * POST /kiosks/optisigns/screens: claims the screen showing the code for a kiosk. The screen needs the
 * kiosk's key in its address, and only the key's digest is kept, so pairing gives the kiosk a new secret:
 * the screens paired before are pointed at the new address too.
 */
const pair = operation({}, async (ctx): Promise<OpResult> => {
  const data = parseOrThrow(pairScreenSchema, ctx.body);
  const companyId = ctx.caller.companyId;
  const kiosk = await getItem(kiosksRef(companyId).pk, data.kioskId);
  if (!kiosk || kiosk.deleted === true) throw formError({ kioskId: ADMIN_MESSAGES.kioskNotFound });
  const secret = newSecret();
  const auth = credentialOf(kiosk._id, secret).kioskAuth;
  const url = showUrl(ctx.headers.origin, auth, kiosk._id);
  let device: Awaited<ReturnType<typeof pairScreen>>;
  try {
    device = await pairScreen(data.pairingCode.toUpperCase(), String(kiosk.name ?? 'Voltfolio kiosk'), url);
  } catch (err) {
    if (err instanceof SignageError && err.refused)
      throw formError({ pairingCode: ADMIN_MESSAGES.pairingRefused });
    ctx.log.warn('signage pairing failed', { error: String(err) });
    throw upstreamFailed(ADMIN_MESSAGES.signageUnavailable);
  }
  await storeSecret(companyId, kiosk._id, secret);
  const unreached = await repointAll(kiosk, url, ctx.log);
  const screen: Screen = {
    deviceId: device.deviceId,
    ...(device.name ? { name: device.name } : {}),
    pairedAt: new Date().toISOString(),
  };
  const screens = [...screensOf(kiosk).filter((s) => s.deviceId !== screen.deviceId), screen];
  await updateRaw(kiosksRef(companyId).pk, kiosk._id, { screens });
  await writeActivity(ctx.caller, { type: 'pair-screen', model: 'kiosks', modelId: kiosk._id });
  return {
    status: 201,
    body: { ...screen, kioskId: kiosk._id, screensNotUpdated: unreached },
    headers: { 'cache-control': 'no-store' },
  };
});

/**
 * DELETE /kiosks/optisigns/screens/{deviceId}: releases a screen from its kiosk. The signage service is
 * told first, so a screen it could not be told about stays listed (and paired) rather than showing the
 * kiosk unseen; its kiosk's secret is left as it is, for the other screens still show it.
 */
const unpair = operation({ params: ['deviceId'] }, async (ctx): Promise<OpResult> => {
  const companyId = ctx.caller.companyId;
  const { deviceId } = ctx.params;
  const kiosks = (await listItems(kiosksRef(companyId), { filters: {}, limit: 500, skip: 0 })).data;
  const kiosk = kiosks.find((k) => screensOf(k).some((s) => s.deviceId === deviceId));
  if (!kiosk) throw notFound(ADMIN_MESSAGES.screenNotFound);
  try {
    await unpairScreen(deviceId);
  } catch (err) {
    ctx.log.warn('signage unpairing failed', { error: String(err) });
    throw upstreamFailed(ADMIN_MESSAGES.signageUnavailable);
  }
  const screens = screensOf(kiosk).filter((s) => s.deviceId !== deviceId);
  await updateRaw(kiosksRef(companyId).pk, kiosk._id, { screens });
  await writeActivity(ctx.caller, { type: 'unpair-screen', model: 'kiosks', modelId: kiosk._id });
  return { status: 204 };
});

export const KIOSK_OPERATIONS: Operations = {
  'kiosks.unpairScreen': unpair,
  'kiosks.create': create,
  'kiosks.rotate': rotate,
  'kiosks.preview': preview,
  'kiosks.live': live,
  'kiosks.liveConsumption': liveConsumption,
  'kiosks.liveNews': liveNews,
  'kiosks.screens': listScreens,
  'kiosks.pairScreen': pair,
};
