import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/errors';
import { describeError } from '../../components/common/errorText';
import { formatReason } from '../jobs/reasons';

/** A refused file call: the problem's detail and, for a quota refusal, its reason with the numbers in units. */
export function FileError({ error, testId = 'file-error' }: { error: unknown; testId?: string }) {
  const { t } = useTranslation();
  const reasons = isApiError(error) ? error.problemReasons : [];
  return (
    <div role="alert" data-testid={testId} className="rounded-md border border-rose-200 bg-rose-50 p-3 text-sm text-rose-800">
      <p>{describeError(error, t('common.unexpected'))}</p>
      {reasons.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {reasons.map((r) => (
            <li key={r.code} data-testid="file-error-reason">
              {formatReason(r, t)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
