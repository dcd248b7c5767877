import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { deleteTemplate } from '../../api/templates';
import type { TemplateSummary } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { ConfirmButton } from '../../components/common/ConfirmButton';
import { FormError, SuccessNote } from '../../components/common/Form';
import { StatusBadge } from '../../components/common/StatusBadge';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, btnSmall, card } from '../../components/common/ui';
import { formatDateTime } from '../../lib/time';
import { templateText } from './templateText';
import { useCurrentUser } from '../auth/session';
import { templateKeys, templateListQuery, templateVersionsQuery } from './queries';
import { TEMPLATE_BADGE_TONES, canEditTemplate, templateBadge, templateUseLink } from './templateCard';

/** The saved versions of a template, newest first, each usable on its own. */
function TemplateVersions({ tpl }: { tpl: TemplateSummary }) {
  const { t, i18n } = useTranslation();
  const query = useQuery(templateVersionsQuery(tpl.id));
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    return <ErrorState title={t('templates.versionsLoadError')} error={query.error} onRetry={() => void query.refetch()} />;
  }
  const versions = [...query.data.items].sort((a, b) => b.version - a.version);
  if (versions.length === 0) return <p className="text-sm text-slate-500">{t('templates.versionsEmpty')}</p>;
  return (
    <ul data-testid={`template-versions-list-${tpl.id}`} className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200">
      {versions.map((v) => (
        <li
          key={v.version}
          data-testid="template-version"
          data-version={v.version}
          className="flex items-center justify-between gap-2 px-3 py-2 text-sm"
        >
          <span className="min-w-0">
            <span className="font-medium text-slate-800">{t('templates.version', { version: v.version })}</span>
            {v.version === tpl.version && <span className="ml-1.5 text-xs text-emerald-700">{t('templates.latest')}</span>}
            <span className="block text-xs text-slate-500">
              {formatDateTime(v.createdAt, i18n.language)}
              {v.createdBy ? ` · ${t('templates.owner', { owner: v.createdBy })}` : ''}
            </span>
          </span>
          <Link
            to={templateUseLink(tpl.id, v.version)}
            data-testid={`template-use-${tpl.id}-v${v.version}`}
            className={`${btnSmall} shrink-0`}
          >
            {t('templates.useVersion')}
          </Link>
        </li>
      ))}
    </ul>
  );
}

interface TemplateCardProps {
  tpl: TemplateSummary;
  editable: boolean;
  deleting: boolean;
  onDelete: () => void;
}

function TemplateCard({ tpl, editable, deleting, onDelete }: TemplateCardProps) {
  const { t, i18n } = useTranslation();
  const [showVersions, setShowVersions] = useState(false);
  const badge = templateBadge(tpl);
  const text = templateText(tpl, i18n.language);
  return (
    <li
      data-testid={`template-card-${tpl.id}`}
      data-builtin={tpl.builtin}
      data-visibility={tpl.visibility}
      className={`${card} flex flex-col gap-3`}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="break-words text-base font-semibold text-slate-900">{text.name}</h2>
          <p className="text-xs text-slate-500">
            {t(`jobs.kinds.${tpl.kind}`, { defaultValue: tpl.kind })} · {t('templates.version', { version: tpl.version })}
          </p>
        </div>
        <span data-testid="template-badge" data-badge={badge} className="shrink-0">
          <StatusBadge tone={TEMPLATE_BADGE_TONES[badge]} label={t(`templates.badge.${badge}`)} value={badge} />
        </span>
      </div>
      {text.description && <p className="text-sm text-slate-600">{text.description}</p>}
      <p className="text-xs text-slate-500">
        <span data-testid="template-owner">
          {tpl.builtin || tpl.owner === null ? t('templates.builtinOwner') : t('templates.owner', { owner: tpl.owner })}
        </span>
        {tpl.visibility === 'account' && tpl.account && <> · {t('templates.sharedWith', { account: tpl.account })}</>}
        {' · '}
        {t('templates.updated', { time: formatDateTime(tpl.updatedAt, i18n.language) })}
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <Link to={templateUseLink(tpl.id)} data-testid={`template-use-${tpl.id}`} className={btnPrimary}>
          {t('templates.use')}
        </Link>
        {editable && (
          <>
            <button
              type="button"
              data-testid={`template-versions-${tpl.id}`}
              aria-expanded={showVersions}
              className={btnSmall}
              onClick={() => setShowVersions((v) => !v)}
            >
              {showVersions ? t('templates.hideVersions') : t('templates.versions')}
            </button>
            <ConfirmButton testId={`template-delete-${tpl.id}`} disabled={deleting} onConfirm={onDelete}>
              {t('common.delete')}
            </ConfirmButton>
          </>
        )}
      </div>
      {editable && showVersions && <TemplateVersions tpl={tpl} />}
    </li>
  );
}

export function TemplatesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const query = useQuery(templateListQuery());
  const [deleted, setDeleted] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (tpl: TemplateSummary) => deleteTemplate(tpl.id),
    onSuccess: (_void, tpl) => {
      setDeleted(tpl.name);
      void queryClient.invalidateQueries({ queryKey: templateKeys.all });
    },
  });
  const items = query.data?.items ?? [];

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <PageHeader title={t('templates.title')} subtitle={t('templates.subtitle')} />
        <Link to="/jobs/new" className={btnPrimary}>
          {t('jobs.new')}
        </Link>
      </div>
      {deleted !== null && remove.isSuccess && (
        <SuccessNote testId="template-deleted">{t('templates.deleted', { name: deleted })}</SuccessNote>
      )}
      {remove.isError && <FormError error={remove.error} message={t('templates.deleteError', { name: remove.variables?.name ?? '' })} />}
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState title={t('templates.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState title={t('templates.empty')} />
      ) : (
        <ul data-testid="template-list" className="grid items-start gap-4 md:grid-cols-2 xl:grid-cols-3">
          {items.map((tpl) => (
            <TemplateCard
              key={tpl.id}
              tpl={tpl}
              editable={canEditTemplate(tpl, user)}
              deleting={remove.isPending && remove.variables?.id === tpl.id}
              onDelete={() => remove.mutate(tpl)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
