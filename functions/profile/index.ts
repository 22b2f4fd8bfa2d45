export { revokeApiAccess } from './api-access-service.ts';
