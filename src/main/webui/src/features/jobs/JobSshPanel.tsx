import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { JobConnect } from '../../api/types';
import { CopyButton } from '../../components/common/CopyButton';
import { SSH_KEYS_ANCHOR } from '../me/ProfilePage';
import { sshHostAlias } from './sshConfig';

const code = 'min-w-0 flex-1 select-all break-all rounded-md bg-slate-900 px-3 py-2 font-mono text-xs text-slate-100';

/** How to reach the job's pods from one's own machine: the ssh command and the ~/.ssh/config entry, per pod. */
export function JobSshPanel({ connect }: { connect: JobConnect }) {
  const { t } = useTranslation();
  if (!connect.sshEnabled) {
    return (
      <p data-testid="job-ssh-disabled" className="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">
        {t('jobs.ssh.disabled')}
      </p>
    );
  }
  const several = connect.pods.length > 1;
  return (
    <div data-testid="job-ssh" className="flex flex-col gap-4 text-sm">
      <p className="text-slate-600">
        {t('jobs.ssh.intro')}{' '}
        <Link data-testid="job-ssh-keys" to={`/profile#${SSH_KEYS_ANCHOR}`} className="font-medium text-indigo-700 hover:underline">
          {t('jobs.ssh.keys')}
        </Link>
      </p>
      {connect.pods.map((p) => {
        const alias = sshHostAlias(p.sshConfig);
        return (
          <div key={p.pod} data-testid="job-ssh-pod" data-pod={p.pod} className="flex flex-col gap-2">
            {several && <h3 className="font-medium text-slate-800">{t('jobs.ssh.pod', { pod: p.pod })}</h3>}
            <p className="text-xs font-medium text-slate-500">{t('jobs.ssh.command')}</p>
            <div className="flex items-start gap-2">
              <code data-testid="job-ssh-command" className={code}>
                {p.command}
              </code>
              <CopyButton text={p.command} testId="job-ssh-command-copy" />
            </div>
            <p className="text-xs font-medium text-slate-500">{t('jobs.ssh.config')}</p>
            <div className="flex items-start gap-2">
              <pre data-testid="job-ssh-config" className={`${code} whitespace-pre`}>
                {p.sshConfig.replace(/\n$/, '')}
              </pre>
              <CopyButton text={p.sshConfig} testId="job-ssh-config-copy" />
            </div>
            {alias && (
              <p data-testid="job-ssh-vscode" className="text-xs text-slate-500">
                {t('jobs.ssh.vscode', { alias })}
              </p>
            )}
          </div>
        );
      })}
    </div>
  );
}
