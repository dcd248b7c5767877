import { useState, type ChangeEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { importUsers } from '../../api/users';
import type { ImportReport } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { FormError } from '../../components/common/Form';
import { StatusBadge } from '../../components/common/StatusBadge';
import { btnPrimary, btnSecondary, inputClass, td, th } from '../../components/common/ui';
import { downloadText } from '../../lib/csv';
import { generatedPasswordsCsv, IMPORT_HEADER, importRows } from './importReport';
import { userKeys } from './queries';

function Report({ report }: { report: ImportReport }) {
  const { t } = useTranslation();
  const rows = importRows(report);
  const csv = generatedPasswordsCsv(report);
  return (
    <div data-testid="import-report" className="flex flex-col gap-3">
      <p className="text-sm text-slate-700">
        {t('users.importSummary', { created: report.created.length, refused: report.refused.length })}
      </p>
      {csv !== null && (
        <div className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <span className="flex-1">{t('users.importPasswordsWarning')}</span>
          <button
            type="button"
            data-testid="import-download"
            className={btnPrimary}
            onClick={() => downloadText('crater-users-passwords.csv', csv)}
          >
            {t('users.downloadPasswords')}
          </button>
        </div>
      )}
      <div className="max-h-80 overflow-auto rounded-lg border border-slate-200">
        <table className="min-w-full">
          <thead className="sticky top-0 bg-slate-50">
            <tr>
              <th className={th}>{t('users.line')}</th>
              <th className={th}>{t('users.username')}</th>
              <th className={th}>{t('users.outcome')}</th>
              <th className={th}>{t('users.details')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.outcome}-${r.line}`} data-testid="import-row" data-outcome={r.outcome} className="border-t border-slate-100">
                <td className={`${td} tabular-nums`}>{r.line}</td>
                <td className={`${td} font-mono`}>{r.username ?? '—'}</td>
                <td className={td}>
                  <StatusBadge
                    tone={r.outcome === 'created' ? 'success' : 'danger'}
                    label={t(`users.outcomes.${r.outcome}`)}
                    value={r.outcome}
                  />
                </td>
                <td className={td}>
                  {r.outcome === 'refused' ? r.detail : r.detail !== null ? t('users.passwordGenerated') : t('users.passwordGiven')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Bulk creation of users from CSV text or a file, with the per-line report. */
export function ImportUsersDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState(`${IMPORT_HEADER}\n`);
  const mutation = useMutation({
    mutationFn: importUsers,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    void file.text().then(setText);
  };
  return (
    <Dialog title={t('users.import')} onClose={onClose} wide testId="import-dialog">
      {mutation.isSuccess ? (
        <div className="flex flex-col gap-4">
          <Report report={mutation.data} />
          <div className="flex justify-end gap-2">
            <button type="button" className={btnSecondary} onClick={() => mutation.reset()}>
              {t('users.importAnother')}
            </button>
            <button type="button" className={btnPrimary} onClick={onClose}>
              {t('common.done')}
            </button>
          </div>
        </div>
      ) : (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            mutation.mutate(text);
          }}
        >
          <p className="text-sm text-slate-600">{t('users.importHint')}</p>
          <code className="block rounded bg-slate-100 px-2 py-1 font-mono text-xs text-slate-700">{IMPORT_HEADER}</code>
          <input type="file" accept=".csv,text/csv" data-testid="import-file" onChange={onFile} className="text-sm" />
          <textarea
            data-testid="import-text"
            aria-label={t('users.importText')}
            rows={10}
            spellCheck={false}
            className={`${inputClass} font-mono text-xs`}
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          {mutation.isError && <FormError error={mutation.error} />}
          <div className="flex justify-end gap-2">
            <button type="button" className={btnSecondary} onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" data-testid="import-submit" className={btnPrimary} disabled={mutation.isPending || text.trim() === ''}>
              {t('users.importSubmit')}
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
