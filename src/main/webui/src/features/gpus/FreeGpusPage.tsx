import { useTranslation } from 'react-i18next';
import type { AccountRoom, FreeModel } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { StatusBadge } from '../../components/common/StatusBadge';
import { card, tableWrap, td, th } from '../../components/common/ui';
import { FreeModelChart } from './FreeModelChart';
import { cardMemoryText, modelNames, sortedRoom } from './freeGpus';
import { useFreeAccelerators } from './queries';

/** One of the caller's accounts: per model, what it may still use and why (quota, guarantee, member limit). */
function AccountRoomTable({ account, nameOf }: { account: AccountRoom; nameOf: (key: string) => string }) {
  const { t } = useTranslation();
  const rows = sortedRoom(account);
  return (
    <section data-testid="free-account" data-account={account.account} className="flex flex-col gap-2">
      <h3 className="font-mono text-sm font-semibold text-slate-800">{account.account}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{t('freeGpus.room.noModels')}</p>
      ) : (
        <div className={tableWrap}>
          <table className="min-w-full">
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('freeGpus.room.model')}</th>
                <th className={th}>{t('freeGpus.room.mayStillUse')}</th>
                <th className={th}>{t('freeGpus.room.withinGuarantee')}</th>
                <th className={th}>{t('freeGpus.room.usedOfMax')}</th>
                <th className={th}>{t('freeGpus.room.guaranteed')}</th>
                <th className={th}>{t('freeGpus.room.memberLeft')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr
                  key={r.model}
                  data-testid="free-room"
                  data-model={r.model}
                  // A model the account has no quota for and does not use reads dimmer than those it can take.
                  className={`border-t border-slate-100 ${r.max === 0 && r.used === 0 ? 'opacity-60' : ''}`.trim()}
                >
                  <td className={td}>{nameOf(r.model)}</td>
                  <td className={`${td} tabular-nums font-semibold text-slate-900`} data-testid="free-room-may">
                    {t('freeGpus.cards', { count: r.mayStillUse })}
                  </td>
                  <td className={`${td} tabular-nums`}>{t('freeGpus.cards', { count: r.withinGuarantee })}</td>
                  <td className={`${td} tabular-nums`}>{t('freeGpus.room.usedOf', { used: r.used, max: r.max })}</td>
                  <td className={`${td} tabular-nums`}>{t('freeGpus.cards', { count: r.guaranteed })}</td>
                  <td className={`${td} tabular-nums`}>
                    {r.memberLeft === null ? t('freeGpus.room.noLimit') : t('freeGpus.cards', { count: r.memberLeft })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A model: its free cards, the largest single-node job that fits now, and its nodes, most free first. */
function FreeModelCard({ model }: { model: FreeModel }) {
  const { t } = useTranslation();
  const memory = cardMemoryText(model.memoryMiB);
  return (
    <section data-testid="free-model" data-model={model.model} className={card}>
      <header className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <div className="flex flex-wrap items-baseline gap-2">
          <h3 className="font-semibold text-slate-900">{model.displayName}</h3>
          <span className="text-xs text-slate-500">
            {model.vendor}
            {memory !== null && ` · ${t('freeGpus.perCard', { memory })}`}
          </span>
          {model.restricted && <StatusBadge tone="warning" label={t('freeGpus.restricted')} value="restricted" />}
        </div>
        <p className="text-sm text-slate-700">
          <span data-testid="free-model-free" className="text-lg font-semibold tabular-nums text-emerald-700">
            {model.free}
          </span>{' '}
          {t('freeGpus.freeOf', { total: model.total })}
          <span className="ml-2 text-xs text-slate-500" data-testid="free-model-most">
            {t('freeGpus.mostOnOneNode', { count: model.mostOnOneNode })}
          </span>
        </p>
      </header>
      {model.nodes.length === 0 ? (
        <p className="text-sm text-slate-500">{t('freeGpus.noNodes')}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="min-w-full">
            <thead>
              <tr>
                <th className={th}>{t('freeGpus.node.name')}</th>
                <th className={th}>{t('freeGpus.node.free')}</th>
                <th className={th}>{t('freeGpus.node.memory')}</th>
                <th className={th}>{t('freeGpus.node.state')}</th>
              </tr>
            </thead>
            <tbody>
              {model.nodes.map((n) => (
                <tr key={n.name} data-testid="free-node" data-node={n.name} className="border-t border-slate-100">
                  <td className={`${td} font-mono text-xs`}>{n.name}</td>
                  <td className={`${td} tabular-nums`} data-testid="free-node-free">
                    {t('freeGpus.node.freeOf', { free: n.free, total: n.total })}
                  </td>
                  <td className={`${td} tabular-nums`}>{cardMemoryText(n.memoryMiB) ?? '—'}</td>
                  <td className={td}>
                    {n.schedulable ? (
                      <StatusBadge tone="success" label={t('freeGpus.node.takesPods')} value="schedulable" />
                    ) : (
                      <StatusBadge tone="neutral" label={t('freeGpus.node.takesNoPods')} value="unschedulable" />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Where free cards are now, and how many of them the caller's accounts may still use; refreshed every 15 s. */
export function FreeGpusPage() {
  const { t } = useTranslation();
  const query = useFreeAccelerators();
  let body;
  if (query.isPending) {
    body = <LoadingState />;
  } else if (query.data === undefined) {
    body = <ErrorState title={t('freeGpus.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (query.data.models.length === 0) {
    body = <EmptyState title={t('freeGpus.empty')}>{t('freeGpus.emptyHint')}</EmptyState>;
  } else {
    const { models, accounts } = query.data;
    const nameOf = modelNames(models);
    body = (
      <>
        {query.isError && <ErrorState title={t('freeGpus.refreshError')} error={query.error} onRetry={() => void query.refetch()} />}
        <section aria-labelledby="free-chart-heading" className="flex flex-col gap-3">
          <h2 id="free-chart-heading" className="text-lg font-semibold text-slate-800">
            {t('freeGpus.chart.title')}
          </h2>
          <FreeModelChart models={models} />
        </section>
        <section aria-labelledby="free-room-heading" className="flex flex-col gap-3">
          <h2 id="free-room-heading" className="text-lg font-semibold text-slate-800">
            {t('freeGpus.room.title')}
          </h2>
          <p className="text-sm text-slate-500">{t('freeGpus.room.explain')}</p>
          {accounts.length === 0 ? (
            <EmptyState title={t('freeGpus.room.noAccounts')} />
          ) : (
            accounts.map((a) => <AccountRoomTable key={a.account} account={a} nameOf={nameOf} />)
          )}
        </section>
        <section aria-labelledby="free-models-heading" className="flex flex-col gap-3">
          <h2 id="free-models-heading" className="text-lg font-semibold text-slate-800">
            {t('freeGpus.modelsTitle')}
          </h2>
          {models.map((m) => (
            <FreeModelCard key={m.model} model={m} />
          ))}
        </section>
      </>
    );
  }
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title={t('freeGpus.title')} subtitle={t('freeGpus.subtitle')} />
      {body}
    </div>
  );
}
