import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

/**
 * Deployment settings from CDK context (cdk.json, or `-c key=value` on the command line). Nothing here
 * is looked up in an AWS account, so `cdk synth` runs offline.
 */
export interface DeployContext {
  /** Prefix of every stack name, so several copies (stages) can live in one account. */
  stackPrefix: string;
  /** Origins the browser app is served from; the upload buckets accept presigned PUT/GET from these. */
  appOrigins: string[];
  authCallbackUrls: string[];
  authLogoutUrls: string[];
  /** Prefix of the Cognito hosted sign-in domain (`<prefix>.auth.<region>.amazoncognito.com`). */
  authDomainPrefix: string;
  mfa: 'REQUIRED' | 'OPTIONAL';
  /** Domain whose incoming mail SES writes into the inbox bucket. */
  mailCaptureDomain: string;
  /** Domain the functions send e-mail from. */
  mailSenderDomain: string;
  logRetention: RetentionDays;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

export const CONTEXT_DEFAULTS: DeployContext = {
  stackPrefix: 'Voltfolio',
  appOrigins: ['http://localhost:3000'],
  authCallbackUrls: ['http://localhost:3000/auth/callback'],
  authLogoutUrls: ['http://localhost:3000/'],
  authDomainPrefix: 'voltfolio-app',
  mfa: 'REQUIRED',
  mailCaptureDomain: 'capture.voltfolio.example',
  mailSenderDomain: 'voltfolio.example',
  logRetention: RetentionDays.ONE_MONTH,
  logLevel: 'info',
};

const KEY = (name: string) => `voltfolio:${name}`;

function text(node: Node, name: string, fallback: string): string {
  const value: unknown = node.tryGetContext(KEY(name));
  if (value === undefined || value === null || value === '') return fallback;
  if (typeof value !== 'string') throw new Error(`Context ${KEY(name)} must be a string`);
  return value;
}

/** A list from cdk.json, or a comma-separated string from `-c`. */
function list(node: Node, name: string, fallback: string[]): string[] {
  const value: unknown = node.tryGetContext(KEY(name));
  if (value === undefined || value === null || value === '') return fallback;
  const items = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) {
    throw new Error(`Context ${KEY(name)} must be a list of strings`);
  }
  return items.map((item) => item.trim()).filter((item) => item !== '');
}

function oneOf<T extends string>(node: Node, name: string, allowed: readonly T[], fallback: T): T {
  const value = text(node, name, fallback);
  if (!(allowed as readonly string[]).includes(value)) {
    throw new Error(`Context ${KEY(name)} must be one of ${allowed.join(', ')}, not ${value}`);
  }
  return value as T;
}

function retention(node: Node, fallback: RetentionDays): RetentionDays {
  const value: unknown = node.tryGetContext(KEY('logRetentionDays'));
  if (value === undefined || value === null || value === '') return fallback;
  const days = Number(value);
  const known = Object.values(RetentionDays).filter((v): v is RetentionDays => typeof v === 'number');
  if (!known.includes(days)) {
    throw new Error(`Context ${KEY('logRetentionDays')} must be one of ${known.join(', ')}, not ${value}`);
  }
  return days;
}

export function readContext(node: Node): DeployContext {
  const d = CONTEXT_DEFAULTS;
  return {
    stackPrefix: text(node, 'stackPrefix', d.stackPrefix),
    appOrigins: list(node, 'appOrigins', d.appOrigins),
    authCallbackUrls: list(node, 'authCallbackUrls', d.authCallbackUrls),
    authLogoutUrls: list(node, 'authLogoutUrls', d.authLogoutUrls),
    authDomainPrefix: text(node, 'authDomainPrefix', d.authDomainPrefix),
    mfa: oneOf(node, 'mfa', ['REQUIRED', 'OPTIONAL'], d.mfa),
    mailCaptureDomain: text(node, 'mailCaptureDomain', d.mailCaptureDomain),
    mailSenderDomain: text(node, 'mailSenderDomain', d.mailSenderDomain),
    logRetention: retention(node, d.logRetention),
    logLevel: oneOf(node, 'logLevel', ['debug', 'info', 'warn', 'error'], d.logLevel),
  };
}
