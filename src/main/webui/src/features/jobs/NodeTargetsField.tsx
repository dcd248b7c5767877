import { useQuery } from '@tanstack/react-query';
import { useContext, useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { inputClass, inputInvalid, labelText } from '../../components/common/ui';
import { CurrentUserContext } from '../auth/session';
import { nodesQuery } from '../cluster/queries';
import { freeAcceleratorsQuery } from '../gpus/queries';
import { NODE_MODES, addNodeNames, isNodeName, splitNodeNames, type NodeMode, type NodeTargetsForm } from './nodeTargets';

const byName = new Intl.Collator('en', { numeric: true });

/**
 * The cluster's node names to suggest: every node for platform admins (the nodes list), the accelerator nodes for
 * everyone (the free GPUs view). Read only once the field names nodes; empty while unknown or unreadable.
 */
function useNodeNameSuggestions(enabled: boolean): string[] {
  const admin = useContext(CurrentUserContext)?.role === 'admin';
  const nodes = useQuery({ ...nodesQuery(), enabled: enabled && admin });
  const free = useQuery({ ...freeAcceleratorsQuery(), enabled });
  const names = new Set<string>();
  for (const n of nodes.data?.items ?? []) names.add(n.name);
  for (const m of free.data?.models ?? []) for (const n of m.nodes) names.add(n.name);
  return [...names].sort(byName.compare);
}

/**
 * Where a job's pods may run: any node, only the listed nodes, or never them. Names are added from a box that
 * suggests the cluster's nodes and takes any text; a name that is no node's name is marked at once.
 */
export function NodeTargetsField({
  value,
  onChange,
  error,
  hint,
}: {
  value: NodeTargetsForm;
  onChange: (value: NodeTargetsForm) => void;
  error: string | undefined;
  hint?: string | undefined;
}) {
  const { t } = useTranslation();
  const listId = useId();
  const [draft, setDraft] = useState('');
  const listing = value.mode !== 'any';
  const suggestions = useNodeNameSuggestions(listing).filter((n) => !value.names.includes(n));

  const add = (text: string) => {
    const names = splitNodeNames(text);
    if (names.length > 0) onChange({ ...value, names: addNodeNames(value.names, names) });
    setDraft('');
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      add(draft);
    }
  };

  return (
    <fieldset data-testid="job-nodes" data-mode={value.mode} className="flex flex-col gap-2">
      <legend className={labelText}>{t('jobs.nodes.label')}</legend>
      <div role="radiogroup" aria-label={t('jobs.nodes.modeLabel')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        {NODE_MODES.map((m) => (
          <label key={m} className="inline-flex items-center gap-1.5">
            <input
              type="radio"
              data-testid={`job-nodes-${m}`}
              checked={value.mode === m}
              onChange={() => onChange({ ...value, mode: m as NodeMode })}
            />
            {t(`jobs.nodes.mode.${m}`)}
          </label>
        ))}
      </div>
      {listing && (
        <>
          <ul data-testid="job-nodes-list" className="flex flex-wrap gap-1">
            {value.names.map((name) => (
              <li
                key={name}
                data-testid="job-node"
                data-name={name}
                data-invalid={!isNodeName(name)}
                className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-mono text-xs ${
                  isNodeName(name) ? 'bg-slate-100 text-slate-700' : 'bg-rose-50 text-rose-700 ring-1 ring-rose-300'
                }`}
              >
                {name}
                <button
                  type="button"
                  aria-label={t('jobs.nodes.remove', { name })}
                  className="rounded px-0.5 text-slate-400 hover:bg-slate-200 hover:text-slate-700"
                  onClick={() => onChange({ ...value, names: value.names.filter((n) => n !== name) })}
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
          <div className="flex gap-2">
            <input
              data-testid="job-nodes-input"
              aria-label={t('jobs.nodes.names')}
              className={`${inputClass} ${error ? inputInvalid : ''} font-mono`}
              list={listId}
              placeholder={t('jobs.nodes.placeholder')}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onKey}
              onBlur={() => add(draft)}
            />
            <button
              type="button"
              data-testid="job-nodes-add"
              className="rounded-md bg-white px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
              onClick={() => add(draft)}
            >
              {t('jobs.nodes.add')}
            </button>
            <datalist id={listId} data-testid="job-nodes-suggestions">
              {suggestions.map((n) => (
                <option key={n} value={n} />
              ))}
            </datalist>
          </div>
        </>
      )}
      {error ? (
        <p role="alert" data-testid="job-nodes-error" className="text-xs text-rose-700">
          {error}
        </p>
      ) : (
        <p className="text-xs text-slate-500">
          {listing ? `${t(`jobs.nodes.${value.mode}Hint`)} ${t('jobs.nodes.addHint')}` : (hint ?? t('jobs.nodes.hint'))}
        </p>
      )}
    </fieldset>
  );
}
