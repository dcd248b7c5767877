import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getMe } from '../../api/auth';
import { API_BASE, withQuery } from '../../api/client';
import { openEventStream, type StreamStatus } from '../../api/sse';
import { applyJobDeleted, applyJobEvent, parseJobEvent } from './jobEvents';
import { jobKeys } from './queries';

/**
 * Keeps the job caches current from the server's event stream while mounted.
 * `topic` is `jobs` (every job the viewer may see) or `job:<id>` (one job); null opens nothing.
 * Returns the state of the stream; callers poll as a fallback while it is not live.
 */
export function useJobEvents(topic: string | null): StreamStatus {
  const queryClient = useQueryClient();
  // The status is that of the stream of one topic: another topic's stream is still connecting.
  const [seen, setSeen] = useState<{ topic: string | null; status: StreamStatus }>({ topic, status: 'connecting' });

  useEffect(() => {
    if (topic === null || typeof EventSource === 'undefined') return undefined;
    return openEventStream({
      url: API_BASE + withQuery('/events', { topics: topic }),
      onStatus: (status) => setSeen({ topic, status }),
      handlers: {
        job: ({ data }) => {
          const job = parseJobEvent(data);
          if (job !== null) applyJobEvent(queryClient, job);
        },
        'job-deleted': ({ data }) => {
          try {
            const { id } = JSON.parse(data) as { id?: unknown };
            if (typeof id === 'string') applyJobDeleted(queryClient, id);
          } catch {
            // Not an event of this version: ignore it.
          }
        },
        // Events were missed (the server could not replay them): reload everything.
        reset: () => void queryClient.invalidateQueries({ queryKey: jobKeys.all }),
      },
      onReopen: async () => {
        // The browser gave up (e.g. the access token expired): renew the session if needed,
        // then reload the full state since events may have been missed.
        await getMe().catch(() => undefined);
        await queryClient.invalidateQueries({ queryKey: jobKeys.all });
      },
    });
  }, [queryClient, topic]);

  return seen.topic === topic ? seen.status : 'connecting';
}
