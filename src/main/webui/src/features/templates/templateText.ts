import type { TemplateParameter, TemplateSummary } from '../../api/types';

/** The entry of an i18n map for the language (`zh-CN`, `zh`, `en`), else English, else none. */
function pick<T>(i18n: Record<string, T> | null | undefined, language: string): T | undefined {
  if (!i18n) return undefined;
  return i18n[language] ?? i18n[language.startsWith('zh') ? 'zh-CN' : 'en'] ?? i18n.en;
}

/** A template's name and description in the language, falling back to English and then to its own fields. */
export function templateText(tpl: Pick<TemplateSummary, 'name' | 'description' | 'i18n'>, language: string) {
  const text = pick(tpl.i18n, language);
  return { name: text?.name || tpl.name, description: text?.description ?? tpl.description };
}

/** A parameter's label and description in the language, falling back to English and then to its own fields. */
export function parameterText(p: Pick<TemplateParameter, 'label' | 'description' | 'i18n'>, language: string) {
  const text = pick(p.i18n, language);
  return { label: text?.label || p.label, description: text?.description ?? p.description };
}
