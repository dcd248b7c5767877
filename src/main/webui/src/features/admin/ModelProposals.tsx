import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { acceptModelProposal } from '../../api/acceleratorModels';
import type { ModelProposal } from '../../api/types';
import { DataTable } from '../../components/common/DataTable';
import { FormError } from '../../components/common/Form';
import { btnPrimary, td } from '../../components/common/ui';
import { formatGpuCount } from '../../lib/units';
import { catalogKeys, modelProposalsQuery } from '../catalog/queries';
import { mappingText, memoryText } from './modelChanges';

function ProposalRow({ proposal }: { proposal: ModelProposal }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => acceptModelProposal(proposal.key, {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: catalogKeys.all }),
  });
  return (
    <tr data-testid="proposal-row" data-key={proposal.key} className="border-t border-slate-100 align-top">
      <td className={td}>
        <span className="block font-mono text-sm text-slate-800">{proposal.key}</span>
        <span className="block text-xs text-slate-500">{mappingText(proposal)}</span>
        {accept.isError && (
          <div className="mt-1">
            <FormError error={accept.error} />
          </div>
        )}
      </td>
      <td className={td}>
        {proposal.displayName}
        <span className="block text-xs text-slate-500">{proposal.vendor}</span>
      </td>
      <td className={`${td} tabular-nums`}>{memoryText(proposal.memoryMiB)}</td>
      <td className={td}>
        <span className="tabular-nums">{formatGpuCount(proposal.count)}</span>
        <span className="block text-xs text-slate-500" title={proposal.nodes.join(', ')}>
          {t('catalog.onNodes', { count: proposal.nodes.length, nodes: proposal.nodes.slice(0, 3).join(', ') })}
        </span>
      </td>
      <td className={`${td} text-right`}>
        <button
          type="button"
          data-testid="proposal-accept"
          className={btnPrimary}
          disabled={accept.isPending}
          onClick={() => accept.mutate()}
        >
          {t('catalog.accept')}
        </button>
      </td>
    </tr>
  );
}

/** What the nodes publish that the catalogue lacks, each accepted into it with one click. */
export function ModelProposals() {
  const { t } = useTranslation();
  const query = useQuery(modelProposalsQuery());
  return (
    <section className="flex flex-col gap-2" data-testid="proposals">
      <h2 className="text-base font-semibold text-slate-900">{t('catalog.proposalsTitle')}</h2>
      <p className="text-sm text-slate-500">{t('catalog.proposalsHint')}</p>
      <DataTable
        query={query}
        rows={query.data?.items ?? []}
        columns={[
          { id: 'key', header: t('catalog.key') },
          { id: 'name', header: t('catalog.displayName') },
          { id: 'memory', header: t('catalog.memory') },
          { id: 'count', header: t('catalog.devices') },
          { id: 'actions' },
        ]}
        rowKey={(p) => p.key}
        renderRow={(p) => <ProposalRow proposal={p} />}
        empty={{ title: t('catalog.noProposals') }}
        errorTitle={t('catalog.proposalsError')}
        testId="proposal-table"
      />
    </section>
  );
}
