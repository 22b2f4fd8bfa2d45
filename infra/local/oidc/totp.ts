import { generateSecret, generateURI, verify } from 'otplib';

const ISSUER = 'Voltfolio';
/** One 30-second step either side, for clocks that drift a little and codes typed just as they change. */
const TOLERANCE_SECONDS = 30;

/** A new Base32 secret for an authenticator app. */
export function generateTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI an authenticator app reads (usually from a QR code) to enrol the secret. */
export function totpUri(email: string, secret: string): string {
  return generateURI({ issuer: ISSUER, label: email, secret });
}

/** True when the code is the current one for the secret, or the one just before or after. */
export async function verifyTotp(secret: string, code: string): Promise<boolean> {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return false;
  try {
    const result = await verify({ secret, token, epochTolerance: TOLERANCE_SECONDS });
    return result.valid;
  } catch {
    return false;
  }
}
