import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { editNodeLabels, editNodeTaints } from '../../api/cluster';
import { isApiError } from '../../api/errors';
import type { ClusterNode, NodeTaint, TaintEffect } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { describeError } from '../../components/common/errorText';
import { btnPrimary, btnSmall, inputClass } from '../../components/common/ui';
import { useNodeUpdate } from './nodeAdmin';

const EFFECTS: TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** The problem's message and each field error, as one list of lines. */
function problemLines(error: unknown, fallback: string): string[] {
  const head = describeError(error, fallback);
  const fields = isApiError(error) ? error.fieldErrors.map((e) => `${e.field}: ${e.message}`) : [];
  return [head, ...fields];
}

/** Edits a node's labels and taints; each save changes only what it lists, and a refused one changes nothing. */
export function NodeLabelsDialog({ node, onClose }: { node: ClusterNode; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog title={t('nodeAdmin.labelsTitle', { node: node.name })} onClose={onClose} testId="node-labels-dialog" wide>
      <div className="flex flex-col gap-6 text-left">
        <LabelEditor node={node} />
        <TaintEditor node={node} />
      </div>
    </Dialog>
  );
}

function LabelEditor({ node }: { node: ClusterNode }) {
  const { t } = useTranslation();
  const update = useNodeUpdate();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const mutation = useMutation({
    mutationFn: (edit: { set?: Record<string, string>; remove?: string[] }) => editNodeLabels(node.name, edit),
    onSuccess: (n) => {
      update(n);
      setKey('');
      setValue('');
    },
  });
  const entries = Object.entries(node.labels).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section data-testid="node-labels-editor">
      <h3 className="mb-2 text-sm font-semibold text-slate-900">{t('nodeAdmin.labels')}</h3>
      {entries.length === 0 ? (
        <p className="text-sm text-slate-500">{t('nodeAdmin.noLabels')}</p>
      ) : (
        <ul className="mb-2 flex flex-col gap-1">
          {entries.map(([k, v]) => (
            <li key={k} className="flex items-center justify-between gap-2 text-xs" data-testid="node-label">
              <span className="font-mono text-slate-700">
                {k}={v}
              </span>
              <button type="button" className={btnSmall} disabled={mutation.isPending} onClick={() => mutation.mutate({ remove: [k] })}>
                {t('common.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim() !== '') mutation.mutate({ set: { [key.trim()]: value.trim() } });
        }}
      >
        <input
          data-testid="node-label-key"
          className={inputClass}
          placeholder={t('nodeAdmin.key')}
          aria-label={t('nodeAdmin.key')}
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
        <input
          data-testid="node-label-value"
          className={inputClass}
          placeholder={t('nodeAdmin.value')}
          aria-label={t('nodeAdmin.value')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <button type="submit" data-testid="node-label-add" className={btnPrimary} disabled={key.trim() === '' || mutation.isPending}>
          {mutation.isPending ? t('nodeAdmin.working') : t('nodeAdmin.setLabel')}
        </button>
      </form>
      {mutation.isError && <Problem lines={problemLines(mutation.error, t('nodeAdmin.failed'))} />}
    </section>
  );
}

function TaintEditor({ node }: { node: ClusterNode }) {
  const { t } = useTranslation();
  const update = useNodeUpdate();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [effect, setEffect] = useState<TaintEffect>('NoSchedule');
  const mutation = useMutation({
    mutationFn: (edit: { add?: NodeTaint[]; remove?: { key: string; effect: TaintEffect }[] }) => editNodeTaints(node.name, edit),
    onSuccess: (n) => {
      update(n);
      setKey('');
      setValue('');
    },
  });
  return (
    <section data-testid="node-taints-editor">
      <h3 className="mb-2 text-sm font-semibold text-slate-900">{t('nodeAdmin.taints')}</h3>
      {node.taints.length === 0 ? (
        <p className="text-sm text-slate-500">{t('nodeAdmin.noTaints')}</p>
      ) : (
        <ul className="mb-2 flex flex-col gap-1">
          {node.taints.map((taint) => (
            <li key={`${taint.key}:${taint.effect}`} className="flex items-center justify-between gap-2 text-xs" data-testid="node-taint">
              <span className="font-mono text-slate-700">
                {taint.key}
                {taint.value !== '' ? `=${taint.value}` : ''}:{taint.effect}
              </span>
              <button
                type="button"
                className={btnSmall}
                disabled={mutation.isPending}
                onClick={() => mutation.mutate({ remove: [{ key: taint.key, effect: taint.effect }] })}
              >
                {t('common.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (key.trim() !== '') mutation.mutate({ add: [{ key: key.trim(), value: value.trim(), effect }] });
        }}
      >
        <input
          data-testid="node-taint-key"
          className={inputClass}
          placeholder={t('nodeAdmin.key')}
          aria-label={t('nodeAdmin.key')}
          value={key}
          onChange={(e) => setKey(e.target.value)}
        />
        <input
          data-testid="node-taint-value"
          className={inputClass}
          placeholder={t('nodeAdmin.value')}
          aria-label={t('nodeAdmin.value')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <select
          data-testid="node-taint-effect"
          className={inputClass}
          aria-label={t('nodeAdmin.effect')}
          value={effect}
          onChange={(e) => setEffect(e.target.value as TaintEffect)}
        >
          {EFFECTS.map((e) => (
            <option key={e} value={e}>
              {e}
            </option>
          ))}
        </select>
        <button type="submit" data-testid="node-taint-add" className={btnPrimary} disabled={key.trim() === '' || mutation.isPending}>
          {mutation.isPending ? t('nodeAdmin.working') : t('nodeAdmin.addTaint')}
        </button>
      </form>
      {mutation.isError && <Problem lines={problemLines(mutation.error, t('nodeAdmin.failed'))} />}
    </section>
  );
}

function Problem({ lines }: { lines: string[] }) {
  return (
    <div role="alert" className="mt-2 text-sm text-rose-700" data-testid="node-edit-error">
      {lines.map((l) => (
        <p key={l}>{l}</p>
      ))}
    </div>
  );
}
