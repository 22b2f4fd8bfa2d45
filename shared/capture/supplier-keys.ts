/**
 * A supplier's VAT number and web domain each written one way (`GB123456789`, `northwind-power.co.uk`),
 * so that what a bill prints compares with what the suppliers list holds, however either was written.
 */

/** The body of each country's VAT number after its two-letter prefix (EU VIES formats, and the UK's). */
const VAT_FORMATS: Record<string, RegExp> = {
  GB: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  XI: /^(?:\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z\d]\d{7}[A-Z\d]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z\d]{2}\d{9}$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^\d[A-Z\d+*]\d{5}[A-W][A-I]?$/,
  IT: /^\d{11}$/,
  LT: /^(?:\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

/**
 * A VAT number written one way: capitals, no spaces, dots or dashes, with its country prefix; a UK
 * number printed without its prefix ('123 4567 89') is given 'GB'. Undefined when it fits no country's
 * format.
 */
export function normaliseVatNumber(text: string): string | undefined {
  const compact = text.toUpperCase().replace(/[\s.\-/]+/g, '');
  const prefix = compact.slice(0, 2);
  const format = VAT_FORMATS[prefix];
  if (format) return format.test(compact.slice(2)) ? compact : undefined;
  return VAT_FORMATS.GB?.test(compact) ? `GB${compact}` : undefined;
}

/** Two-part public suffixes: the registered name is the label before them ('northwind.co.uk'). */
const SECOND_LEVEL = /^(?:co|org|ac|gov|ltd|plc|net|me|sch|nhs|com|gv)$/;

/** Mail and web hosts that say nothing of who sent a bill. */
const GENERIC_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'hotmail.com',
  'hotmail.co.uk',
  'outlook.com',
  'live.com',
  'live.co.uk',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'icloud.com',
  'aol.com',
  'btinternet.com',
  'orange.fr',
  'wanadoo.fr',
  'gmx.de',
  'web.de',
  'example.com',
  'example.org',
  'tcpdf.org',
  'gov.uk',
]);

/**
 * The registered domain of a web address, an e-mail address or a host, lower case, without 'www.' or
 * any other sub-domain ('https://www.britishgas.co.uk/login' and 'billing@mail.britishgas.co.uk' are
 * both 'britishgas.co.uk'). Undefined for a host that names no one sender.
 */
export function registeredDomain(text: string): string | undefined {
  const host = text
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^[^@/\s]*@/, '')
    .split(/[/?#:\s]/)[0]
    ?.replace(/\.$/, '');
  if (!host || !/^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/.test(host)) return undefined;
  const labels = host.split('.');
  const tld = labels[labels.length - 1] ?? '';
  if (!/^[a-z]{2,}$/.test(tld)) return undefined;
  const second = labels[labels.length - 2] ?? '';
  const keep = tld.length === 2 && SECOND_LEVEL.test(second) && labels.length >= 3 ? 3 : 2;
  const domain = labels.slice(-keep).join('.');
  return GENERIC_DOMAINS.has(domain) || /^(?:local|localhost|test|invalid|example)$/.test(tld)
    ? undefined
    : domain;
}
