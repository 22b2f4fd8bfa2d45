import { putKioskCredential, putMachine } from '../../../functions/core/access/credential-repository.ts';
import { putItem } from '../../../functions/core/data/item-repository.ts';
import { digestOf } from '../../../functions/core/lib/secrets.ts';
import { resourceRef } from '../../../functions/core/resources/resource-refs.ts';
import { stamped } from './plan-items.ts';

/**
 * One wall screen and one report-rendering machine for Demo Estates, with fixed ids and secrets so a
 * developer can open the kiosk page or call as the machine without making them first. Like the demo
 * password, these exist only in the local stack's demo data; real ones are made through the API, which
 * shows their secret once.
 */
export const DEMO_KIOSK = {
  id: 'de0000000000000000000c01',
  secret: 'demo-kiosk-secret-local-only',
  name: 'Temple Quay Point reception screen',
  site: 'Temple Quay Point',
} as const;

export const DEMO_MACHINE = {
  id: 'de0000000000000000000b01',
  key: 'demo-machine-key-local-only',
  name: 'Demo report renderer',
} as const;

/** What the start banner prints about the demo devices; part of the seed summary. */
export interface DemoDevices {
  kiosk: { id: string; secret: string; name: string };
  machine: { id: string; key: string; name: string };
}

export async function seedDemoDevices(
  companyId: string,
  assetId: string,
  createdBy: string,
): Promise<DemoDevices> {
  const kiosk = stamped(
    'kiosks',
    { name: DEMO_KIOSK.name, assetId, slides: ['consumption', 'energy-usage', 'carbon'] },
    { id: DEMO_KIOSK.id, companyId, createdBy },
  );
  // Written as POST /kiosks writes one, but with the fixed id and secret above rather than fresh ones.
  await putItem(resourceRef(companyId, 'kiosks'), kiosk, { mustNotExist: true });
  await putKioskCredential({
    kioskId: DEMO_KIOSK.id,
    companyId,
    digest: digestOf(DEMO_KIOSK.secret),
    rotatedAt: kiosk.createdAt as string,
  });
  await putMachine(
    {
      machineId: DEMO_MACHINE.id,
      companyId,
      name: DEMO_MACHINE.name,
      permissions: ['company_user'],
      createdAt: kiosk.createdAt as string,
      createdBy,
    },
    digestOf(DEMO_MACHINE.key),
  );
  return {
    kiosk: { id: DEMO_KIOSK.id, secret: DEMO_KIOSK.secret, name: DEMO_KIOSK.name },
    machine: { id: DEMO_MACHINE.id, key: DEMO_MACHINE.key, name: DEMO_MACHINE.name },
  };
}
