import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from './en.json';
import zhCN from './zh-CN.json';

export const SUPPORTED_LANGUAGES = ['en', 'zh-CN'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export const LANGUAGE_LABELS: Record<Language, string> = {
  en: 'English',
  'zh-CN': '简体中文',
};

export const LANGUAGE_STORAGE_KEY = 'crater.language';

/** Maps a browser language tag to a supported language: zh* → zh-CN, everything else → en. */
export function normalizeLanguage(tag: string | null | undefined): Language {
  if (!tag) return 'en';
  return tag.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}

function isLanguage(v: string | null): v is Language {
  return v !== null && (SUPPORTED_LANGUAGES as readonly string[]).includes(v);
}

function readStoredLanguage(): Language | null {
  try {
    const v = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(v) ? v : null;
  } catch {
    return null;
  }
}

/** The remembered choice, else the browser's preferred language. */
export function initialLanguage(): Language {
  const stored = readStoredLanguage();
  if (stored) return stored;
  return normalizeLanguage(typeof navigator === 'undefined' ? undefined : navigator.language);
}

/** Switches the UI language and remembers the choice. */
export async function changeLanguage(lang: Language): Promise<void> {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // Storage may be unavailable (private mode); the switch still applies to this page.
  }
  await i18n.changeLanguage(lang);
}

export function currentLanguage(): Language {
  return normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
}

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') document.documentElement.lang = normalizeLanguage(lng);
});

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: en },
    'zh-CN': { translation: zhCN },
  },
  lng: initialLanguage(),
  fallbackLng: 'en',
  load: 'currentOnly',
  supportedLngs: [...SUPPORTED_LANGUAGES],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

export default i18n;
