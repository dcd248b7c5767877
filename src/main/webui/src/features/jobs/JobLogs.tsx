import { useLayoutEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { jobLogStreamUrl, jobLogsUrl } from '../../api/jobs';
import type { JobDetail } from '../../api/types';
import { ErrorState, LoadingState } from '../../components/common/States';
import { btnSecondary, btnSmall, card } from '../../components/common/ui';
import { isFinished } from './jobState';
import { isNearBottom, logPodNames, selectedPod } from './logBuffer';
import { jobLogsQuery } from './queries';
import { useLogStream } from './useLogStream';

/** Lines in the download (the whole log in practice). */
const DOWNLOAD_TAIL_LINES = 100_000;

/** The log lines in a dark monospace box that keeps scrolling with new lines unless the user scrolled up. */
function LogLines({ text, status }: { text: string; status: string }) {
  const { t } = useTranslation();
  const box = useRef<HTMLPreElement>(null);
  const stick = useRef(true);

  useLayoutEffect(() => {
    const el = box.current;
    if (el && stick.current) el.scrollTop = el.scrollHeight;
  }, [text]);

  return (
    <pre
      ref={box}
      data-testid="job-log-lines"
      data-status={status}
      tabIndex={0}
      aria-label={t('jobs.logs.title')}
      onScroll={(e) => {
        stick.current = isNearBottom(e.currentTarget);
      }}
      className="h-96 overflow-auto whitespace-pre-wrap break-all rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
    >
      {text !== '' ? (
        text
      ) : status === 'connecting' ? (
        <span className="text-slate-400">{t('jobs.logs.stream.connecting')}</span>
      ) : (
        <span className="text-slate-400">{t('jobs.logs.empty')}</span>
      )}
    </pre>
  );
}

/**
 * A running pod's log, followed from the moment the page opens. When the stream cannot be had at all (it ended
 * before a line came), the last lines are read instead, with their own loading, empty and error states.
 */
function FollowedLog({ url, jobId, pod }: { url: string; jobId: string; pod: string }) {
  const { t } = useTranslation();
  const { lines, status } = useLogStream(url);
  if (status === 'ended' && lines.length === 0) return <TailLog jobId={jobId} pod={pod} />;
  return (
    <div className="flex flex-col gap-2">
      <LogLines text={lines.join('\n')} status={status} />
      <p data-testid="job-log-stream" data-status={status} className="text-xs text-slate-500">
        {t(`jobs.logs.stream.${status}`)}
      </p>
    </div>
  );
}

function TailLog({ jobId, pod }: { jobId: string; pod: string }) {
  const { t } = useTranslation();
  const query = useQuery(jobLogsQuery(jobId, pod));
  if (query.isPending) return <LoadingState />;
  if (query.isError) {
    const status = isApiError(query.error) ? query.error.status : undefined;
    if (status === 403) {
      return (
        <p data-testid="job-log-forbidden" className="text-sm text-slate-500">
          {t('jobs.logs.forbidden')}
        </p>
      );
    }
    if (status === 404) return <LogLines text="" status="empty" />;
    return <ErrorState title={t('jobs.logs.loadError')} error={query.error} onRetry={() => void query.refetch()} />;
  }
  return (
    <div className="flex flex-col gap-2">
      <LogLines text={query.data.replace(/\r?\n$/, '')} status="loaded" />
      <div>
        <button
          type="button"
          data-testid="job-log-refresh"
          className={btnSmall}
          disabled={query.isFetching}
          onClick={() => void query.refetch()}
        >
          {query.isFetching ? t('common.loading') : t('jobs.logs.refresh')}
        </button>
      </div>
    </div>
  );
}

/**
 * The logs of one of the job's pods: the last lines (from the archive once the job has finished), or,
 * while it runs, followed live. Hidden when the caller may not read them.
 */
export function JobLogs({ detail }: { detail: JobDetail }) {
  const { t } = useTranslation();
  const [choice, setChoice] = useState('');
  // A running job's log is followed at once; unticking shows the last lines with a Refresh button.
  const [follow, setFollow] = useState(true);
  const { job } = detail;
  if (!detail.permissions.readLogs) return null;

  const names = logPodNames(detail.pods, detail.exits);
  const pod = selectedPod(choice, detail.pods, names);
  const canFollow = !isFinished(job.state) && detail.pods.length > 0;
  const following = follow && canFollow;
  const download = jobLogsUrl(job.id, { pod: pod || null, tailLines: DOWNLOAD_TAIL_LINES });

  return (
    <section className={card} data-testid="job-logs" data-pod={pod}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-sm font-semibold text-slate-900">{t('jobs.logs.title')}</h2>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          {names.length > 1 && (
            <label className="inline-flex items-center gap-2 text-slate-600">
              {t('jobs.logs.pod')}
              <select
                data-testid="job-log-pod"
                className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
                value={pod}
                onChange={(e) => setChoice(e.target.value)}
              >
                {names.map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </label>
          )}
          {names.length === 1 && <span className="font-mono text-xs text-slate-500">{pod}</span>}
          {canFollow && (
            <label className="inline-flex items-center gap-1.5 text-slate-600">
              <input type="checkbox" data-testid="job-log-follow" checked={follow} onChange={(e) => setFollow(e.target.checked)} />
              {t('jobs.logs.follow')}
            </label>
          )}
          <a data-testid="job-log-download" className={btnSecondary} href={download} download={`${job.name}${pod ? `-${pod}` : ''}.log`}>
            {t('jobs.logs.download')}
          </a>
        </div>
      </div>
      {isFinished(job.state) && <p className="mb-2 text-xs text-slate-500">{t('jobs.logs.archived')}</p>}
      {following ? (
        <FollowedLog key={pod} url={jobLogStreamUrl(job.id, pod || null)} jobId={job.id} pod={pod} />
      ) : (
        // Keyed by state too: when the job ends, its archived log is read afresh.
        <TailLog key={`${pod}:${job.state}`} jobId={job.id} pod={pod} />
      )}
    </section>
  );
}
