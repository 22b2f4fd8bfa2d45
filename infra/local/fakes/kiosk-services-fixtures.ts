/**
 * Local stand-ins for what kiosk screens use: news and travel RSS 2.0 feeds, an Open-Meteo forecast
 * and the signage service's pairing API (a screen shows a code; claiming it points the screen at an
 * address). Codes starting with X are codes no screen shows.
 */

export const FAKE_SIGNAGE_KEY = 'local-signage-key';

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function rss(title: string, items: { title: string; description: string; hoursAgo: number }[]): string {
  const now = Date.now();
  const body = items
    .map(
      (i, n) =>
        `<item><title>${xmlText(i.title)}</title><link>https://news.example/${n}</link>` +
        `<description><![CDATA[${i.description}]]></description>` +
        `<pubDate>${new Date(now - i.hoursAgo * 3_600_000).toUTCString()}</pubDate></item>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>${xmlText(title)}</title>${body}</channel></rss>`;
}

export function newsFeed(postcode: string): string {
  const area = postcode ? postcode.split(' ')[0] : 'your area';
  return rss(`Local news for ${area}`, [
    {
      title: `Council backs heat network extension in ${area}`,
      description: 'Work starts in spring.',
      hoursAgo: 2,
    },
    {
      title: 'Grid carbon intensity at record low this week',
      description: 'Wind supplied 48% of power.',
      hoursAgo: 5,
    },
    {
      title: 'New cycle lanes open on the high street',
      description: 'Two kilometres of protected lanes.',
      hoursAgo: 9,
    },
  ]);
}

export function travelFeed(): string {
  return rss('Travel status', [
    { title: 'Elizabeth line: good service', description: 'No disruptions reported.', hoursAgo: 0 },
    { title: 'Central line: minor delays', description: 'Owing to an earlier signal failure.', hoursAgo: 1 },
    { title: 'Bus 25: diverted', description: 'Roadworks on Whitechapel Road.', hoursAgo: 3 },
  ]);
}

/** Open-Meteo's /v1/forecast answer for `current` and `daily` of the usual variables. */
export function forecast(lat: number, lng: number): Record<string, unknown> {
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  return {
    latitude: lat,
    longitude: lng,
    timezone: 'GMT',
    current: {
      time: new Date().toISOString().slice(0, 16),
      temperature_2m: 11.4,
      weather_code: 3,
      wind_speed_10m: 14.2,
    },
    daily: {
      time: [day(0), day(1), day(2)],
      temperature_2m_max: [12.1, 13.4, 10.2],
      temperature_2m_min: [6.3, 7.0, 4.8],
      weather_code: [3, 61, 0],
    },
  };
}

export interface SignageDevice {
  deviceId: string;
  name: string;
  url: string;
  pairingCode: string;
}

/** The pairing API's state: the screens claimed so far. */
export class SignageFake {
  readonly devices = new Map<string, SignageDevice>();
  private next = 1;

  pair(body: unknown): { status: number; body: unknown } {
    const b = (body ?? {}) as Record<string, unknown>;
    const code = typeof b.pairingCode === 'string' ? b.pairingCode : '';
    if (typeof b.url !== 'string' || !/^https?:\/\//.test(b.url) || !code)
      return { status: 400, body: { message: 'pairingCode and url are required' } };
    if (code.startsWith('X')) return { status: 404, body: { message: 'No screen shows this code' } };
    const taken = [...this.devices.values()].find((d) => d.pairingCode === code);
    if (taken) return { status: 409, body: { message: 'This code was used already' } };
    const deviceId = `screen-${this.next++}`;
    const device = { deviceId, name: String(b.name ?? deviceId), url: b.url, pairingCode: code };
    this.devices.set(deviceId, device);
    return { status: 201, body: { deviceId, name: device.name } };
  }

  unpair(deviceId: string): { status: number; body: unknown } {
    if (!this.devices.delete(deviceId)) return { status: 404, body: { message: 'No such device' } };
    return { status: 200, body: { deviceId, unpaired: true } };
  }

  repoint(deviceId: string, body: unknown): { status: number; body: unknown } {
    const device = this.devices.get(deviceId);
    const url = (body as { url?: unknown } | undefined)?.url;
    if (!device) return { status: 404, body: { message: 'No such device' } };
    if (typeof url !== 'string') return { status: 400, body: { message: 'url is required' } };
    device.url = url;
    return { status: 200, body: { deviceId, url } };
  }
}
