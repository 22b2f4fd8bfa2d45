import { changeConnectorState, deleteSealedPassword, putSealedPassword } from './connector-repository.ts';
import { portalSealer, portalSecretContext } from './portal-secrets.ts';

/**
 * Seals and keeps a supplier-portal password. A new password lifts the stop a refused one put on the
 * login's runs.
 */
export async function storePortalPassword(
  companyId: string,
  supplierId: string,
  password: string,
): Promise<void> {
  const sealed = await portalSealer().seal(password, portalSecretContext(companyId, supplierId));
  await putSealedPassword(companyId, supplierId, sealed);
  await changeConnectorState(companyId, supplierId, ({ blocked: _lifted, ...rest }) => rest);
}

export async function removePortalPassword(companyId: string, supplierId: string): Promise<void> {
  await deleteSealedPassword(companyId, supplierId);
}

export { getSealedPassword as portalPasswordHeld } from './connector-repository.ts';
