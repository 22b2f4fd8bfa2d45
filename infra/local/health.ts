export interface Component {
  status: 'up' | 'failed' | 'skipped';
  detail?: string;
}

/**
 * `GET /api/health`: 503 while starting or when a part failed, 200 once every part is up (or deliberately
 * left out), with each part's state so a failure is easy to find.
 */
export function healthOf(
  ready: boolean,
  components: ReadonlyMap<string, Component>,
): { status: number; body: unknown } {
  const services = Object.fromEntries(components);
  const failed = [...components.values()].some((c) => c.status === 'failed');
  const status = !ready ? 'starting' : failed ? 'degraded' : 'ok';
  return {
    status: status === 'ok' ? 200 : 503,
    body: {
      status,
      services,
      memoryMb: Math.round(process.memoryUsage().rss / 1024 / 1024),
      uptimeSeconds: Math.round(process.uptime()),
    },
  };
}
