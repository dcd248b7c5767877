import type { CreateTensorboard, Tensorboard } from '../../api/types';
import type { BadgeTone } from '../../components/common/StatusBadge';

/** The most log folders one panel shows (the server's limit). */
export const MAX_SOURCES = 8;

/** One line of the form: a space's folder or a job, with an optional run-name prefix. */
export interface SourceLine {
  kind: 'folder' | 'job';
  space: string;
  path: string;
  job: string;
  name: string;
}

export interface TensorboardFormValues {
  name: string;
  sources: SourceLine[];
}

export const emptySource = (): SourceLine => ({ kind: 'folder', space: 'user', path: '', job: '', name: '' });

/** A new form; with `job`, its first line is that job's working directory ("Open in TensorBoard"). */
export function emptyTensorboardForm(job?: string): TensorboardFormValues {
  return {
    name: job ? `tb-${job}` : '',
    sources: [job ? { ...emptySource(), kind: 'job', job } : emptySource()],
  };
}

const NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The checks the server makes too, by field (`name`, `sources`, `sources[1].path`), as message keys. */
export function checkTensorboardForm(v: TensorboardFormValues): Record<string, string> {
  const out: Record<string, string> = {};
  if (!NAME.test(v.name.trim())) out.name = 'name';
  if (v.sources.length === 0) out.sources = 'noSources';
  if (v.sources.length > MAX_SOURCES) out.sources = 'tooMany';
  v.sources.forEach((s, i) => {
    if (s.kind === 'folder' && !s.path.trim().startsWith('/')) out[`sources[${i}].path`] = 'path';
    if (s.kind === 'job' && !/^[a-z0-9]{4,32}$/.test(s.job.trim())) out[`sources[${i}].job`] = 'job';
  });
  return out;
}

/** The request body: blank fields left out. */
export function createTensorboardBody(v: TensorboardFormValues): CreateTensorboard {
  return {
    name: v.name.trim(),
    sources: v.sources.map((s) => {
      const name = s.name.trim() ? { name: s.name.trim() } : {};
      return s.kind === 'job' ? { job: s.job.trim(), ...name } : { space: s.space, path: s.path.trim(), ...name };
    }),
  };
}

/** How a panel's state shows. */
export function panelTone(p: Pick<Tensorboard, 'state'>): BadgeTone {
  if (p.state === 'Running') return 'success';
  if (p.state === 'Stopped') return 'neutral';
  return 'info';
}

/** Whether a panel's server has ended, so it may be started again. */
export const stopped = (p: Pick<Tensorboard, 'state'>) => p.state === 'Stopped';
