import { createContext, type ReactNode, useContext, useEffect, useMemo } from 'react';
import { type Language, type Translate, translator } from './i18n.ts';

interface I18n {
  language: Language;
  t: Translate;
}

const I18nContext = createContext<I18n>({ language: 'en', t: translator('en') });

/** The nearest provider wins: the app starts with the browser's language, the shell adds the profile's. */
export function I18nProvider({ language, children }: { language: Language; children: ReactNode }) {
  const value = useMemo(() => ({ language, t: translator(language) }), [language]);
  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);
  return <I18nContext value={value}>{children}</I18nContext>;
}

export function useI18n(): I18n {
  return useContext(I18nContext);
}

export function useT(): Translate {
  return useContext(I18nContext).t;
}
