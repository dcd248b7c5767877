import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CLIENT_JAR_PATH, type ClientInfo } from '../../api/cli';
import { CommandBox } from '../../components/common/CopyButton';
import { ErrorState, LoadingState } from '../../components/common/States';
import { formatMiB } from '../../lib/units';
import { clientInfoQuery } from './queries';
import { Section } from './Section';

/** The first commands after signing in, each with what it does (`profile.cli.next.<key>`). */
const NEXT_COMMANDS = [
  { key: 'submit', command: 'crater job submit --template batch --set command="python run.py"' },
  { key: 'logs', command: 'crater job logs -f JOB' },
  { key: 'ssh', command: 'crater job ssh JOB' },
] as const;

const step = 'text-sm font-medium text-slate-700';
const hint = 'text-sm text-slate-500';
const inlineCode = 'rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800';

function Unavailable() {
  const { t } = useTranslation();
  return (
    <div data-testid="cli-unavailable" className="rounded-lg border border-dashed border-slate-300 p-4 text-sm">
      <p className="font-medium text-slate-700">{t('profile.cli.unavailable')}</p>
      <p className="mt-1 text-slate-500">{t('profile.cli.unavailableHint')}</p>
    </div>
  );
}

function Download({ cli }: { cli: ClientInfo }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2 text-sm">
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-slate-600">
        <div className="flex gap-1.5">
          <dt className="text-slate-500">{t('profile.cli.version')}</dt>
          <dd data-testid="cli-version" className="font-mono">
            {cli.version}
          </dd>
        </div>
        {cli.sizeBytes !== null && (
          <div className="flex gap-1.5">
            <dt className="text-slate-500">{t('profile.cli.size')}</dt>
            <dd data-testid="cli-size">{t('profile.cli.sizeMiB', { size: formatMiB(cli.sizeBytes) })}</dd>
          </div>
        )}
      </dl>
      <p className="text-slate-600">
        <a data-testid="cli-download" href={CLIENT_JAR_PATH} download className="font-medium text-indigo-700 hover:underline">
          {t('profile.cli.download')}
        </a>{' '}
        {t('profile.cli.downloadHint')}
      </p>
      {cli.sha256 !== null && (
        <p className="flex flex-wrap items-baseline gap-1.5 text-slate-500">
          <span>{t('profile.cli.sha256')}</span>
          <code data-testid="cli-sha256" className="select-all break-all font-mono text-xs text-slate-800">
            {cli.sha256}
          </code>
        </p>
      )}
    </div>
  );
}

function NextCommands() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2">
      <p className={step}>{t('profile.cli.nextStep')}</p>
      <p className={hint}>
        <code className={inlineCode}>crater --help</code> {t('profile.cli.helpLists')}
      </p>
      <ul className="flex flex-col gap-1.5 text-sm">
        {NEXT_COMMANDS.map(({ key, command }) => (
          <li key={key} data-testid="cli-next" className="flex flex-col gap-0.5 sm:flex-row sm:items-baseline sm:gap-3">
            <code className={`${inlineCode} break-all`}>{command}</code>
            <span className="text-slate-500">{t(`profile.cli.next.${key}`)}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Available({ cli }: { cli: ClientInfo & { install: string } }) {
  const { t } = useTranslation();
  return (
    <>
      <div className="flex flex-col gap-2">
        <p className={step}>{t('profile.cli.installStep')}</p>
        <CommandBox value={cli.install} testId="cli-install" />
        <p className={hint}>{t('profile.cli.needsJava')}</p>
      </div>
      <div className="flex flex-col gap-2">
        <p className={step}>{t('profile.cli.loginStep')}</p>
        <CommandBox value={cli.login} testId="cli-login" />
        <p className={hint}>{t('profile.cli.loginHint')}</p>
      </div>
      <Download cli={cli} />
      <NextCommands />
    </>
  );
}

/** How to install the command-line client from this server and sign in with it. */
export function ClientSection() {
  const { t } = useTranslation();
  const cli = useQuery(clientInfoQuery());
  return (
    <Section title={t('profile.cli.title')} testId="cli-section">
      <p className={hint}>{t('profile.cli.intro')}</p>
      {cli.isPending ? (
        <LoadingState />
      ) : cli.isError ? (
        <ErrorState title={t('profile.cli.loadError')} error={cli.error} onRetry={() => void cli.refetch()} />
      ) : cli.data.available && cli.data.install !== null ? (
        <Available cli={{ ...cli.data, install: cli.data.install }} />
      ) : (
        <Unavailable />
      )}
    </Section>
  );
}
