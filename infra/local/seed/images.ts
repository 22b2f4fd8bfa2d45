import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { bucketName, config, s3Options } from '../../../functions/core/config.ts';
import type { AssetKind } from './portfolio-types.ts';

/**
 * A picture for each demo asset: an SVG of a building of its type, in a colour of its own, with its name.
 * Stored in the documents bucket under `assets/<assetId>/images/`; the asset keeps same-origin paths
 * `/s3/<bucket>/<key>` (the local stack serves S3 at /s3), relative so they survive a change of port.
 */
const PALETTE = ['#2f6f8f', '#3b7d4f', '#8a5a2b', '#6b4c9a', '#9a3b4f', '#2b6f6b', '#5d6b2b', '#7a4a7a'];

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

function windows(
  x: number,
  y: number,
  cols: number,
  rows: number,
  w: number,
  h: number,
  gap: number,
): string {
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      out.push(`<rect x="${x + c * (w + gap)}" y="${y + r * (h + gap)}" width="${w}" height="${h}" rx="1"/>`);
    }
  }
  return `<g fill="#fdf6d8" opacity="0.85">${out.join('')}</g>`;
}

function silhouette(kind: AssetKind, colour: string): string {
  switch (kind) {
    case 'Office':
      return `<rect x="230" y="60" width="180" height="250" fill="${colour}"/>${windows(248, 78, 6, 9, 18, 16, 8)}`;
    case 'Residential block':
      return `<rect x="190" y="110" width="260" height="200" fill="${colour}"/>${windows(210, 128, 7, 6, 22, 20, 12)}`;
    case 'Retail':
      return (
        `<rect x="150" y="150" width="340" height="160" fill="${colour}"/>` +
        `<path d="M140 150 h360 l-20 40 h-320 z" fill="#f2a541"/>${windows(175, 220, 4, 1, 60, 70, 20)}`
      );
    case 'Warehouse':
      return (
        `<path d="M90 310 V170 L320 120 L550 170 V310 Z" fill="${colour}"/>` +
        `<g fill="#d9dde3">${[0, 1, 2, 3].map((i) => `<rect x="${130 + i * 110}" y="230" width="70" height="80"/>`).join('')}</g>`
      );
    case 'Industrial':
      return (
        `<path d="M120 310 V190 L200 150 V190 L280 150 V190 L360 150 V190 L440 150 V310 Z" fill="${colour}"/>` +
        `<rect x="460" y="90" width="28" height="220" fill="${colour}"/>${windows(140, 230, 6, 1, 30, 30, 14)}`
      );
  }
}

export function assetSvg(siteName: string, town: string, kind: AssetKind, index: number): string {
  const colour = PALETTE[index % PALETTE.length] as string;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400" viewBox="0 0 640 400">',
    '<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">',
    '<stop offset="0" stop-color="#cfe3f3"/><stop offset="1" stop-color="#eef4f8"/></linearGradient></defs>',
    '<rect width="640" height="400" fill="url(#sky)"/>',
    '<rect y="310" width="640" height="90" fill="#9bb58a"/>',
    silhouette(kind, colour),
    `<rect y="330" width="640" height="70" fill="#000" opacity="0.45"/>`,
    `<text x="24" y="362" font-family="Helvetica, Arial, sans-serif" font-size="26" font-weight="700" fill="#fff">${escapeXml(siteName)}</text>`,
    `<text x="24" y="388" font-family="Helvetica, Arial, sans-serif" font-size="16" fill="#fff">${escapeXml(`${kind} · ${town}`)}</text>`,
    '</svg>',
  ].join('');
}

/** The same picture at thumbnail size, without the caption. */
export function assetThumbnailSvg(kind: AssetKind, index: number): string {
  const colour = PALETTE[index % PALETTE.length] as string;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="100" viewBox="0 0 640 400">',
    '<rect width="640" height="400" fill="#dde9f2"/><rect y="310" width="640" height="90" fill="#9bb58a"/>',
    silhouette(kind, colour),
    '</svg>',
  ].join('');
}

let client: S3Client | undefined;
function s3(): S3Client {
  client ??= new S3Client({ region: config().region, forcePathStyle: s3Options().forcePathStyle });
  return client;
}

/** Stored as the upload worker stores a picture: by key, so every answer signs its own short-lived URL. */
export interface UploadedImage {
  _id: string;
  key: string;
  thumbKey: string;
  isPrimary: boolean;
}

export async function uploadAssetImage(
  assetId: string,
  imageId: string,
  svg: string,
  thumbnail: string,
): Promise<UploadedImage> {
  const bucket = bucketName('documents');
  const key = `assets/${assetId}/images/${imageId}.svg`;
  const thumbKey = `assets/${assetId}/images/${imageId}-thumb.svg`;
  const put = (Key: string, Body: string) =>
    s3().send(
      new PutObjectCommand({
        Bucket: bucket,
        Key,
        Body,
        ContentType: 'image/svg+xml',
        CacheControl: 'max-age=86400',
      }),
    );
  await Promise.all([put(key, svg), put(thumbKey, thumbnail)]);
  return { _id: imageId, key, thumbKey, isPrimary: true };
}
