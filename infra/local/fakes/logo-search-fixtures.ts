import { SUPPLIERS } from '../seed/suppliers.ts';

/**
 * Brands the local brand search knows: the seeded suppliers (their web address from their portal) and
 * a few property companies, each with a made-up but stable brand id. Icons are served by the fake itself.
 */
export interface FakeBrand {
  name: string;
  domain: string;
  brandId: string;
  claimed: boolean;
}

const hostOf = (url: string) => new URL(url).hostname.replace(/^www\./, '');

function brandId(domain: string): string {
  let h = 2166136261;
  for (let i = 0; i < domain.length; i++) h = Math.imul(h ^ domain.charCodeAt(i), 16777619);
  return `id${(h >>> 0).toString(36)}${domain.length.toString(36)}`;
}

const OTHERS: readonly { name: string; domain: string }[] = [
  { name: 'Demo Estates', domain: 'demo-estates.example' },
  { name: 'Northwind Property', domain: 'northwind-property.example' },
  { name: 'British Land', domain: 'britishland.com' },
  { name: 'Land Securities', domain: 'landsec.com' },
  { name: 'Grosvenor', domain: 'grosvenor.com' },
];

export const FAKE_BRANDS: readonly FakeBrand[] = [
  ...SUPPLIERS.filter((s) => s.portal).map((s) => ({ name: s.name, domain: hostOf(s.portal as string) })),
  ...OTHERS,
].map((b, i) => ({ ...b, brandId: brandId(b.domain), claimed: i % 3 !== 2 }));

/** Brands whose name or domain holds every word of the query; names that start with it first. */
export function searchBrands(query: string): FakeBrand[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const q = query.trim().toLowerCase();
  return FAKE_BRANDS.filter((b) =>
    words.every((w) => b.name.toLowerCase().includes(w) || b.domain.includes(w)),
  )
    .sort(
      (a, b) =>
        Number(b.name.toLowerCase().startsWith(q)) - Number(a.name.toLowerCase().startsWith(q)) ||
        a.name.localeCompare(b.name, 'en-GB'),
    )
    .slice(0, 10);
}

/** A square icon with the brand's initials, in a colour of its own. */
export function brandIconSvg(domain: string): string | undefined {
  const brand = FAKE_BRANDS.find((b) => b.domain === domain);
  if (!brand) return undefined;
  const initials = brand.name
    .split(/\s+/)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('')
    .replace(/[^A-Z0-9]/g, '');
  const hue = Number.parseInt(brand.brandId.slice(2, 6), 36) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256"><rect width="256" height="256" rx="32" fill="hsl(${hue} 55% 40%)"/><text x="128" y="150" font-family="sans-serif" font-size="96" font-weight="700" fill="#fff" text-anchor="middle">${initials}</text></svg>`;
}
