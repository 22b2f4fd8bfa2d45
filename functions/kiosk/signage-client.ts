import * as z from 'zod';
import { signageConfig } from '../core/config.ts';

/**
 * The signage service's pairing API (OptiSigns): a screen showing a pairing code is claimed and told
 * which address to show; a claimed screen can be told a new address. Errors name what the service said.
 */

const TIMEOUT_MS = 8000;

export class SignageError extends Error {
  readonly refused: boolean;
  constructor(message: string, refused: boolean) {
    super(message);
    this.name = 'SignageError';
    this.refused = refused;
  }
}

const pairedSchema = z.object({ deviceId: z.string().min(1), name: z.string().optional() });
export type PairedDevice = z.infer<typeof pairedSchema>;

async function call(method: string, path: string, body: unknown): Promise<unknown> {
  const { url, apiKey } = signageConfig();
  let res: Response;
  try {
    res = await fetch(`${url.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new SignageError(`Signage service unreachable: ${err instanceof Error ? err.message : err}`, false);
  }
  if (res.status === 404 || res.status === 409 || res.status === 422)
    throw new SignageError(`Signage service refused: ${res.status}`, true);
  if (!res.ok) throw new SignageError(`Signage service answered ${res.status}`, false);
  return res.json();
}

/** Claims the screen showing `pairingCode` and points it at `showUrl`. */
export async function pairScreen(pairingCode: string, name: string, showUrl: string): Promise<PairedDevice> {
  const body = await call('POST', '/v1/pairings', { pairingCode, name, url: showUrl });
  const parsed = pairedSchema.safeParse(body);
  if (!parsed.success) throw new SignageError('Signage service answered an unexpected shape', false);
  return parsed.data;
}

/** Points a screen paired before at a new address (the kiosk's secret changed). */
export async function repointScreen(deviceId: string, showUrl: string): Promise<void> {
  await call('PATCH', `/v1/devices/${encodeURIComponent(deviceId)}`, { url: showUrl });
}

/**
 * Releases a paired screen: the service forgets it and it shows a pairing code again. A screen the
 * service no longer knows is released already.
 */
export async function unpairScreen(deviceId: string): Promise<void> {
  try {
    await call('DELETE', `/v1/devices/${encodeURIComponent(deviceId)}`, undefined);
  } catch (err) {
    if (!(err instanceof SignageError && err.refused)) throw err;
  }
}
