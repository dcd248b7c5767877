import { useQuery } from '@tanstack/react-query';
import type { AccountFeatures } from '../../api/types';
import { featuresQuery } from '../accounts/queries';
import { useCurrentAccount } from '../me/useCurrentAccount';

/** Whether the account has turned the feature (a job kind, ssh, high-priority) off; unknown (still loading) is on. */
export function featureOff(features: AccountFeatures | undefined, name: string): boolean {
  return features?.effective.features[name] === false;
}

/** The current account and what its members may use, so forms grey out what the server would refuse. */
export function useAccountFeatures(): { account: string | null; features: AccountFeatures | undefined } {
  const { account } = useCurrentAccount();
  const query = useQuery({ ...featuresQuery(account ?? ''), enabled: account !== null });
  return { account, features: query.data };
}
