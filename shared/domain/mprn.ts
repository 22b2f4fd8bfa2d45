/** MPRN (Meter Point Reference Number) of a gas supply: 6 to 11 digits. */
export const MPRN_MESSAGE = 'Must be a valid MPRN (6 to 11 digits)';

export function isValidMprn(value: string): boolean {
  return /^\d{6,11}$/.test(value);
}

/** The field message for an MPRN, or undefined when it is valid. Spaces between digit groups are allowed. */
export function mprnError(value: string): string | undefined {
  return isValidMprn(value.replace(/\s+/g, '')) ? undefined : MPRN_MESSAGE;
}

/** Supplies on an independent gas transporter's network have MPRNs starting 74 to 77. */
export function isIndependentTransporterMprn(value: string): boolean {
  return isValidMprn(value) && /^7[4-7]/.test(value);
}
