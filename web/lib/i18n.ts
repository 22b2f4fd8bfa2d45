import { MESSAGES } from '../../shared/messages.ts';
import { FR } from './i18n-fr.ts';

/**
 * The interface language (01 §1): English, with a partial French set. A French text that is missing
 * falls back to the English one, so a page is never left with a blank or a key.
 */
export const LANGUAGES = ['en', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

export const EN = {
  'nav.main': 'Main',
  'nav.Dashboard': 'Dashboard',
  'nav.Management': 'Management',
  'nav.Sites': 'Sites',
  'nav.Portfolios': 'Portfolios',
  'nav.Entities': 'Entities',
  'nav.Import Data': 'Import Data',
  'nav.Tools': 'Tools',
  'nav.Bill Validation': 'Bill Validation',
  'nav.Bill Validation BETA': 'Bill Validation BETA',
  'nav.Data Coverage': 'Data Coverage',
  'nav.Insights': 'Insights',
  'nav.Consumption': 'Consumption',
  'nav.Emissions': 'Emissions',
  'nav.Costs': 'Costs',
  'nav.Benchmarks': 'Benchmarks',
  'nav.Reports': 'Reports',
  'nav.Automation': 'Automation',
  'nav.Connectors': 'Connectors',
  'nav.Integrations': 'Integrations',
  'nav.Company admin': 'Company admin',
  'nav.Users': 'Users',
  'nav.Settings': 'Settings',
  'nav.Activity Log': 'Activity Log',
  'nav.Admin': 'Admin',
  'nav.Admin Overview': 'Admin Overview',
  'nav.Suppliers': 'Suppliers',
  'header.toggleMenu': 'Toggle menu',
  'search.open': 'Search',
  'search.label': 'Search entities, sites and accounts',
  'search.placeholder': 'Search by name, address or meter number',
  'search.minChars': 'Type at least {count} characters to search.',
  'search.searching': 'Searching…',
  'search.failed': 'The search could not be completed.',
  'search.none': MESSAGES.noSearchResults,
  'search.entities': 'Entities',
  'search.assets': 'Assets',
  'search.accounts': 'Accounts',
  'search.active': 'Active',
  'search.inactive': 'Inactive',
  'search.subMeter': 'Sub-meter',
  'search.close': 'Close search',
  'notifications.title': 'Notifications',
  'notifications.bell': 'Notifications ({count} unseen)',
  'notifications.viewAll': 'View All',
  'notifications.dismissAll': 'Dismiss All',
  'notifications.none': MESSAGES.noNotifications,
  'notifications.dismissed': 'All notifications dismissed',
  'notifications.unseen': '{count} unseen',
  'notifications.latest': 'Latest notifications',
  'menu.user': 'User menu',
  'menu.profile': 'Profile',
  'menu.companySettings': 'Company Settings',
  'menu.switchCompany': 'Switch company',
  'menu.version': 'Version {version}',
  'menu.logOut': 'Log Out',
  'live.open': 'Live updates: connected',
  'live.connecting': 'Live updates: connecting',
  'live.reconnecting': 'Live updates: reconnecting',
  'live.reconnectError': 'Live updates: disconnected',
  'live.lost': 'Live updates lost',
  'live.retry': 'Reconnect',
  'banner.newVersion': MESSAGES.newVersion,
  'banner.dismiss': 'Dismiss',
  'page.forbidden': MESSAGES.forbiddenPage,
  'page.somethingWentWrong': MESSAGES.somethingWentWrong,
  'page.goBack': 'Go Back',
  'page.notAvailable': 'This part of Voltfolio is not available yet.',
  'profile.title': 'Profile',
  'profile.details': 'Your details',
  'profile.name': 'Name',
  'profile.language': 'Language',
  'profile.save': 'Save details',
  'profile.updated': MESSAGES.detailsUpdated,
  'profile.problem': MESSAGES.detailsProblem,
  'profile.account': 'Account',
  'profile.email': 'Email',
  'profile.company': 'Company',
  'profile.role': 'Role',
  'profile.permissions': 'Permissions',
  'profile.apiKey': 'API key',
  'profile.twoFactor': 'Two-factor authentication',
  'language.en': 'English',
  'language.fr': 'Français',
  'form.required': MESSAGES.fieldRequired,
} as const;

export type MessageKey = keyof typeof EN;
export type Params = Record<string, string | number>;
export type Translate = (key: MessageKey, params?: Params) => string;

const DICTIONARIES: Record<Language, Partial<Record<MessageKey, string>>> = { en: EN, fr: FR };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** `{name}` placeholders are replaced by their parameter; unknown ones are left as written. */
export function translate(language: Language, key: MessageKey, params?: Params): string {
  const template = DICTIONARIES[language][key] ?? EN[key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function translator(language: Language): Translate {
  return (key, params) => translate(language, key, params);
}

/** The language the user chose in their profile, else the first of the browser's that we speak, else English. */
export function pickLanguage(chosen: unknown, browserLanguages: readonly string[] = []): Language {
  if (isLanguage(chosen)) return chosen;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}
