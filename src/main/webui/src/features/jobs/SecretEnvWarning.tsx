import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { createMyCredential } from '../../api/credentials';
import { FormError } from '../../components/common/Form';
import { btnSmall } from '../../components/common/ui';
import { meKeys } from '../me/queries';
import { referenceCredentialOnLine, secretLines, suggestCredentialKind, suggestCredentialName, type SecretLine } from './secretEnv';

/**
 * Under the env input: each plain value whose name looks like a secret, with the offer to store it as a
 * credential and put the reference in its place (the value then leaves the form).
 */
export function SecretEnvWarning({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState<string | null>(null);
  const store = useMutation({
    mutationFn: (s: SecretLine & { credential: string }) =>
      createMyCredential({ name: s.credential, kind: suggestCredentialKind(s.name), value: s.value }),
    onSuccess: (_created, s) => {
      setFailed(null);
      onChange(referenceCredentialOnLine(text, s.line, s.credential));
      void queryClient.invalidateQueries({ queryKey: meKeys.credentials() });
    },
    onError: (_e, s) => setFailed(s.name),
  });
  const lines = secretLines(text);
  if (lines.length === 0) return null;
  return (
    <ul data-testid="job-env-secrets" className="mt-1 flex flex-col gap-1 text-xs text-amber-800">
      {lines.map((s) => {
        const credential = suggestCredentialName(s.name);
        return (
          <li key={s.line} className="flex flex-wrap items-center gap-2">
            <span>{t('jobs.form.envSecret', { name: s.name })}</span>
            <button
              type="button"
              data-testid="job-env-store-credential"
              className={btnSmall}
              disabled={store.isPending}
              onClick={() => store.mutate({ ...s, credential })}
            >
              {t('jobs.form.envStoreCredential', { credential })}
            </button>
            {failed === s.name && store.isError && <FormError error={store.error} />}
          </li>
        );
      })}
    </ul>
  );
}
