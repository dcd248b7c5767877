import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Tabs } from '../../components/common/Form';
import { ErrorState } from '../../components/common/States';
import { card } from '../../components/common/ui';
import { JobSshPanel } from './JobSshPanel';
import { JobTerminal } from './JobTerminal';
import { jobConnectQuery } from './queries';

type ConnectTab = 'terminal' | 'ssh';

/**
 * The ways into a running job for its owner: a terminal in the page and SSH from one's own machine. Shown only
 * when the server says the caller may reach it (`reachable`); switching tabs closes an open terminal.
 */
export function JobConnect({ jobId }: { jobId: string }) {
  const { t } = useTranslation();
  const query = useQuery(jobConnectQuery(jobId));
  const [tab, setTab] = useState<ConnectTab>('terminal');

  if (query.isError && query.data === undefined) {
    return (
      <section className={card}>
        <ErrorState title={t('jobs.connect.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      </section>
    );
  }
  const connect = query.data;
  if (!connect?.reachable || connect.pods.length === 0) return null;

  return (
    <section data-testid="job-connect" className={`${card} flex flex-col gap-4`}>
      <h2 className="text-sm font-semibold text-slate-900">{t('jobs.connect.title')}</h2>
      <Tabs<ConnectTab>
        label={t('jobs.connect.tabs')}
        testIdPrefix="job-connect-tab"
        value={tab}
        onChange={setTab}
        tabs={[
          { value: 'terminal', label: t('jobs.connect.terminal') },
          { value: 'ssh', label: t('jobs.connect.ssh') },
        ]}
      />
      {tab === 'terminal' ? <JobTerminal pods={connect.pods} /> : <JobSshPanel connect={connect} />}
    </section>
  );
}
