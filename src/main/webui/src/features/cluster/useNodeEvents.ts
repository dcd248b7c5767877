import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getMe } from '../../api/auth';
import { API_BASE } from '../../api/client';
import { openEventStream, type StreamStatus } from '../../api/sse';
import type { ClusterNode, ItemList, NodeDetail } from '../../api/types';
import { applyNodeEvent, applyNodeEventToDetail, parseNodeEvent } from './nodeEvents';
import { clusterKeys } from './queries';

/** Keeps the node, node detail and accelerator caches current from the server's event stream. */
export function useNodeEvents(): StreamStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StreamStatus>('connecting');

  useEffect(() => {
    if (typeof EventSource === 'undefined') return undefined;
    return openEventStream({
      url: `${API_BASE}/events?topics=nodes`,
      onStatus: setStatus,
      handlers: {
        node: ({ data }) => {
          const event = parseNodeEvent(data);
          if (event === null) return;
          queryClient.setQueryData<ItemList<ClusterNode>>(clusterKeys.nodes(), (old) => applyNodeEvent(old, event));
          // The node's detail page, when open, shows the new status at once and reads its pods and jobs again.
          const detail = clusterKeys.node(event.node.name);
          queryClient.setQueryData<NodeDetail>(detail, (old) => applyNodeEventToDetail(old, event));
          void queryClient.invalidateQueries({ queryKey: detail });
          void queryClient.invalidateQueries({ queryKey: clusterKeys.accelerators() });
        },
      },
      onReopen: async () => {
        // The browser gave up (e.g. the access token expired): renew the session if needed,
        // then reload the full state since events may have been missed.
        await getMe().catch(() => undefined);
        await queryClient.invalidateQueries({ queryKey: clusterKeys.all });
      },
    });
  }, [queryClient]);

  return status;
}
