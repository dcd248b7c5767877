import type { BadgeTone } from '../../components/common/StatusBadge';
import type { WebhookDeliveryState } from '../../api/types';

/** The badge tone of a delivery's state: sent is good, failed is given up, pending waits for a (re)try. */
export function deliveryTone(state: WebhookDeliveryState | null): BadgeTone {
  switch (state) {
    case 'sent':
      return 'success';
    case 'failed':
      return 'danger';
    case 'pending':
    case 'sending':
      return 'warning';
    default:
      return 'neutral';
  }
}

/** Whether a URL may be sent to the server at all (http or https with a host); the server decides the rest. */
export function plausibleUrl(text: string): boolean {
  try {
    const u = new URL(text.trim());
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}
