import { describe, expect, it } from 'vitest';
import { EN, pickLanguage, translate } from '../../web/lib/i18n.ts';
import { FR } from '../../web/lib/i18n-fr.ts';

describe('the interface language', () => {
  it('is the one chosen in the profile, whatever the browser says', () => {
    expect(pickLanguage('fr', ['en-GB'])).toBe('fr');
    expect(pickLanguage('en', ['fr-FR'])).toBe('en');
  });

  it('otherwise follows the first browser language we speak, else English', () => {
    expect(pickLanguage(undefined, ['de-DE', 'fr-CA', 'en'])).toBe('fr');
    expect(pickLanguage(null, ['en-US'])).toBe('en');
    expect(pickLanguage('klingon', ['de', 'es'])).toBe('en');
    expect(pickLanguage(undefined, [])).toBe('en');
  });
});

describe('translations', () => {
  it('show the exact wording of the specification in English', () => {
    expect(translate('en', 'search.none')).toBe('No search results found.');
    expect(translate('en', 'profile.updated')).toBe('Details updated successfully!');
    expect(translate('en', 'profile.problem')).toBe('There was a problem updating your details.');
    expect(translate('en', 'notifications.none')).toBe('No pending notifications');
    expect(translate('en', 'banner.newVersion')).toBe('new version available, click to refresh');
  });

  it('show French where the partial set has it, and English where it does not', () => {
    expect(translate('fr', 'nav.Dashboard')).toBe('Tableau de bord');
    expect(translate('fr', 'menu.logOut')).toBe('Se déconnecter');
    expect(FR['search.failed']).toBeUndefined();
    expect(translate('fr', 'search.failed')).toBe(EN['search.failed']);
  });

  it('fill in parameters', () => {
    expect(translate('en', 'notifications.bell', { count: 3 })).toBe('Notifications (3 unseen)');
    expect(translate('fr', 'search.minChars', { count: 3 })).toBe('Saisissez au moins 3 caractères.');
    expect(translate('en', 'menu.version', {})).toBe('Version {version}');
  });

  it('translate only texts that exist in English', () => {
    const unknown = Object.keys(FR).filter((key) => !(key in EN));
    expect(unknown).toEqual([]);
  });
});
