export { portalPasswordHeld, removePortalPassword, storePortalPassword } from './portal-login-service.ts';
