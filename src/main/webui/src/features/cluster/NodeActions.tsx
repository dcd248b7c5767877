import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cordonNode, drainNode, shareNode, uncordonNode } from '../../api/cluster';
import type { ClusterNode, NodeDrainResult } from '../../api/types';
import { Dialog } from '../../components/common/Dialog';
import { describeError } from '../../components/common/errorText';
import { btnDanger, btnPrimary, btnSecondary, btnSmall, inputClass, labelText } from '../../components/common/ui';
import { ExclusiveDialog } from './ExclusiveDialog';
import { NodeLabelsDialog } from './NodeLabelsDialog';
import { isCordoned, useNodeUpdate } from './nodeAdmin';

type Open = 'cordon' | 'drain' | 'labels' | 'exclusive' | null;

/**
 * A node's administration: cordon with a reason, uncordon, drain (confirmed), labels and taints, making it exclusive
 * to a team account and sharing it again.
 */
export function NodeActions({ node }: { node: ClusterNode }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Open>(null);
  const update = useNodeUpdate();
  const uncordon = useMutation({ mutationFn: () => uncordonNode(node.name), onSuccess: update });
  const share = useMutation({ mutationFn: () => shareNode(node.name), onSuccess: update });
  const cordoned = isCordoned(node);
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-1">
        {cordoned ? (
          <button
            type="button"
            data-testid="node-uncordon"
            className={btnSmall}
            disabled={uncordon.isPending}
            onClick={() => uncordon.mutate()}
          >
            {uncordon.isPending ? t('nodeAdmin.working') : t('nodeAdmin.uncordon')}
          </button>
        ) : (
          <button type="button" data-testid="node-cordon" className={btnSmall} onClick={() => setOpen('cordon')}>
            {t('nodeAdmin.cordon')}
          </button>
        )}
        <button
          type="button"
          data-testid="node-drain"
          className={`${btnSmall} text-rose-700 ring-rose-300 hover:bg-rose-50`}
          onClick={() => setOpen('drain')}
        >
          {t('nodeAdmin.drain')}
        </button>
        <button type="button" data-testid="node-labels" className={btnSmall} onClick={() => setOpen('labels')}>
          {t('nodeAdmin.labelsAndTaints')}
        </button>
        {node.exclusive ? (
          <button
            type="button"
            data-testid="node-share"
            className={btnSmall}
            title={t('nodeExclusive.shareHint')}
            disabled={share.isPending}
            onClick={() => share.mutate()}
          >
            {share.isPending ? t('nodeAdmin.working') : t('nodeExclusive.share')}
          </button>
        ) : (
          <button type="button" data-testid="node-make-exclusive" className={btnSmall} onClick={() => setOpen('exclusive')}>
            {t('nodeExclusive.make')}
          </button>
        )}
      </div>
      {(uncordon.isError || share.isError) && (
        <p role="alert" data-testid="node-action-error" className="text-xs text-rose-700">
          {describeError(uncordon.error ?? share.error, t('nodeAdmin.failed'))}
        </p>
      )}
      {(open === 'cordon' || open === 'drain') && <CordonDialog node={node} drain={open === 'drain'} onClose={() => setOpen(null)} />}
      {open === 'labels' && <NodeLabelsDialog node={node} onClose={() => setOpen(null)} />}
      {open === 'exclusive' && <ExclusiveDialog node={node} onClose={() => setOpen(null)} />}
    </div>
  );
}

/** Asks for the reason of a cordon or a drain; a drain is confirmed and its outcome shown. */
function CordonDialog({ node, drain, onClose }: { node: ClusterNode; drain: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [requeue, setRequeue] = useState(false);
  const [result, setResult] = useState<NodeDrainResult | null>(null);
  const update = useNodeUpdate();
  const mutation = useMutation({
    mutationFn: async () => {
      if (drain) {
        const r = await drainNode(node.name, reason.trim(), requeue);
        setResult(r);
        return r.node;
      }
      return cordonNode(node.name, reason.trim());
    },
    onSuccess: (n) => {
      update(n);
      if (!drain) onClose();
    },
  });
  const title = t(drain ? 'nodeAdmin.drainTitle' : 'nodeAdmin.cordonTitle', { node: node.name });
  if (result) {
    return (
      <Dialog title={title} onClose={onClose} testId="node-drain-result">
        <DrainOutcome result={result} />
        <div className="mt-4 flex justify-end">
          <button type="button" className={btnPrimary} onClick={onClose}>
            {t('common.done')}
          </button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title={title} onClose={onClose} testId={drain ? 'node-drain-dialog' : 'node-cordon-dialog'}>
      <form
        className="flex flex-col gap-3 text-left"
        onSubmit={(e) => {
          e.preventDefault();
          if (reason.trim() !== '') mutation.mutate();
        }}
      >
        <p className="text-sm text-slate-600">{t(drain ? 'nodeAdmin.drainExplain' : 'nodeAdmin.cordonExplain')}</p>
        {drain && (
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              data-testid="node-drain-requeue"
              className="mt-1"
              checked={requeue}
              onChange={(e) => setRequeue(e.target.checked)}
            />
            <span>
              {t('nodeAdmin.requeue')}
              <span className="block text-xs text-slate-500">{t('nodeAdmin.requeueHint')}</span>
            </span>
          </label>
        )}
        <label>
          <span className={labelText}>{t('nodeAdmin.reason')}</span>
          <textarea
            data-testid="node-reason"
            className={inputClass}
            rows={2}
            maxLength={256}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder={t('nodeAdmin.reasonPlaceholder')}
          />
        </label>
        {mutation.isError && (
          <p role="alert" className="text-sm text-rose-700">
            {describeError(mutation.error, t('nodeAdmin.failed'))}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <button type="button" className={btnSecondary} onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button
            type="submit"
            data-testid="node-reason-submit"
            className={drain ? btnDanger : btnPrimary}
            disabled={reason.trim() === '' || mutation.isPending}
          >
            {mutation.isPending ? t('nodeAdmin.working') : t(drain ? 'nodeAdmin.drainConfirm' : 'nodeAdmin.cordon')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DrainOutcome({ result }: { result: NodeDrainResult }) {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-2 text-sm text-slate-700" data-testid="node-drain-outcome">
      <p>{t('nodeAdmin.evicted', { count: result.evicted.length })}</p>
      <p>{t('nodeAdmin.stoppedJobs', { count: result.stoppedJobs.length })}</p>
      {result.stoppedJobs.length > 0 && (
        <ul className="font-mono text-xs" data-testid="node-drain-stopped">
          {result.stoppedJobs.map((id) => (
            <li key={id}>{result.requeued?.[id] ? t('nodeAdmin.requeuedAs', { job: id, copy: result.requeued[id] }) : id}</li>
          ))}
        </ul>
      )}
      {result.blocked.length > 0 && (
        <div className="rounded-md bg-amber-50 p-2 text-amber-800" data-testid="node-drain-blocked">
          <p>{t('nodeAdmin.blocked', { count: result.blocked.length })}</p>
          <ul className="mt-1 list-disc pl-5 text-xs">
            {result.blocked.map((b) => (
              <li key={`${b.namespace}/${b.pod}`}>
                <span className="font-mono">
                  {b.namespace}/{b.pod}
                </span>
                : {b.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.kept.length > 0 && (
        <p className="text-xs text-slate-500">
          {t('nodeAdmin.kept', {
            count: result.kept.length,
            pods: result.kept.map((k) => `${k.namespace}/${k.name} (${t(`nodeAdmin.keptWhy.${k.why}`)})`).join(', '),
          })}
        </p>
      )}
    </div>
  );
}
