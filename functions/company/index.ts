export { companyIdForCaptureAddress, getCompany } from './company-repository.ts';
