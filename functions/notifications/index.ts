export { putNotifications } from './missing-bill-repository.ts';
