import { useTranslation } from 'react-i18next';
import { changeLanguage, LANGUAGE_LABELS, normalizeLanguage, SUPPORTED_LANGUAGES, type Language } from '../i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const current = normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-600">
      <span className="sr-only">{t('header.language')}</span>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current text-slate-400">
        <path d="M10 2a8 8 0 100 16 8 8 0 000-16zm5.9 7h-2.95a12.5 12.5 0 00-1.1-4.7A6 6 0 0115.9 9zM10 4c.7.9 1.6 2.7 1.9 5H8.1C8.4 6.7 9.3 4.9 10 4zM8.15 4.3A12.5 12.5 0 007.05 9H4.1a6 6 0 014.05-4.7zM4.1 11h2.95c.12 1.7.5 3.3 1.1 4.7A6 6 0 014.1 11zm5.9 5c-.7-.9-1.6-2.7-1.9-5h3.8c-.3 2.3-1.2 4.1-1.9 5zm1.85-.3c.6-1.4.98-3 1.1-4.7h2.95a6 6 0 01-4.05 4.7z" />
      </svg>
      <select
        data-testid="language-select"
        aria-label={t('header.language')}
        value={current}
        onChange={(e) => void changeLanguage(e.target.value as Language)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-700"
      >
        {SUPPORTED_LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {LANGUAGE_LABELS[lng]}
          </option>
        ))}
      </select>
    </label>
  );
}
