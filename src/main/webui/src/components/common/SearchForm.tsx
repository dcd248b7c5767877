import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { btnSecondary, inputClass } from './ui';

/** A search box with its button: `onSearch` gets the trimmed text when the form is sent (Enter or the button). */
export function SearchForm({ testId, placeholder, onSearch }: { testId: string; placeholder: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  return (
    <form
      role="search"
      className="flex max-w-md gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(text.trim());
      }}
    >
      <input
        data-testid={testId}
        type="search"
        aria-label={t('common.search')}
        placeholder={placeholder}
        className={inputClass}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button type="submit" className={btnSecondary}>
        {t('common.search')}
      </button>
    </form>
  );
}
