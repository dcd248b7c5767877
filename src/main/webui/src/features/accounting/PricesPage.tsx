import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addPrice } from '../../api/accounting';
import { fieldError } from '../../api/errors';
import type { NewPrice, Price, PriceBook } from '../../api/types';
import { PageHeader } from '../../app/PageHeader';
import { Field, FormError, SuccessNote } from '../../components/common/Form';
import { QuantityInput } from '../../components/common/QuantityInput';
import { unitProblemText } from '../../components/common/quantityText';
import { EmptyState, ErrorState, LoadingState } from '../../components/common/States';
import { btnPrimary, card, inputClass, tableWrap, td, th } from '../../components/common/ui';
import { formatDateTime, localInputToIso } from '../../lib/time';
import { useNow } from '../../lib/useNow';
import { useCurrentUser } from '../auth/session';
import { useAcceleratorModels, useModelNames } from '../catalog/queries';
import { parseMoneyIn, priceText, priceUnit, resourceName } from './money';
import { accountingKeys, pricesQuery } from './queries';

function PriceTable({ prices, currency, history }: { prices: readonly Price[]; currency: string; history: boolean }) {
  const { t, i18n } = useTranslation();
  const modelName = useModelNames();
  const now = useNow();
  return (
    <div className={tableWrap}>
      <table className="min-w-full" data-testid={history ? 'price-history' : 'price-current'}>
        <thead className="bg-slate-50">
          <tr>
            <th className={th}>{t('accounting.prices.resource')}</th>
            <th className={th}>{t('accounting.prices.unit')}</th>
            <th className={`${th} text-right`}>{t('accounting.prices.pricePerHour')}</th>
            <th className={th}>{t('accounting.prices.effectiveFrom')}</th>
            {history && <th className={th}>{t('accounting.prices.by')}</th>}
          </tr>
        </thead>
        <tbody>
          {prices.map((p) => (
            <tr
              key={`${p.resource}@${p.effectiveFrom}`}
              className="border-t border-slate-100"
              data-testid="price-row"
              data-resource={p.resource}
            >
              <td className={td}>
                <span className="block font-medium text-slate-800">{resourceName(t, p.resource, modelName)}</span>
                <span className="block font-mono text-xs text-slate-500">{p.resource}</span>
              </td>
              <td className={td}>{priceUnit(t, p.resource)}</td>
              <td className={`${td} text-right tabular-nums`} data-testid="price-value">
                {priceText(t, p.pricePerHour, currency, p.resource)}
              </td>
              <td className={`${td} whitespace-nowrap`}>
                {formatDateTime(p.effectiveFrom, i18n.language)}
                {history && Date.parse(p.effectiveFrom) > now && (
                  <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-800">{t('accounting.prices.scheduled')}</span>
                )}
              </td>
              {history && <td className={td}>{p.by ?? '—'}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AddPriceForm({ currency }: { currency: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const models = useAcceleratorModels();
  const [resource, setResource] = useState('cpu');
  const [price, setPrice] = useState('');
  const [from, setFrom] = useState('');
  const [localError, setLocalError] = useState<string | undefined>(undefined);
  const [added, setAdded] = useState<Price | null>(null);
  const parse = parseMoneyIn(currency);
  const mutation = useMutation({
    mutationFn: (body: NewPrice) => addPrice(body),
    onSuccess: (p) => {
      setAdded(p);
      setPrice('');
      setFrom('');
      void queryClient.invalidateQueries({ queryKey: accountingKeys.prices() });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setAdded(null);
    const parsed = parse(price);
    if (!parsed.ok) {
      setLocalError(unitProblemText(t, parsed.problem));
      return;
    }
    const effectiveFrom = localInputToIso(from);
    mutation.mutate(effectiveFrom ? { resource, pricePerHour: parsed.api, effectiveFrom } : { resource, pricePerHour: parsed.api });
  };
  const modelName = useModelNames();
  return (
    <form onSubmit={submit} className={`${card} flex flex-col gap-4`} noValidate data-testid="price-form">
      <h2 className="text-sm font-semibold text-slate-900">{t('accounting.prices.addTitle')}</h2>
      <p className="text-sm text-slate-500">{t('accounting.prices.addHint')}</p>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label={t('accounting.prices.resource')} error={fieldError(mutation.error, 'resource')}>
          <select data-testid="price-resource" className={inputClass} value={resource} onChange={(e) => setResource(e.target.value)}>
            <option value="cpu">{t('accounting.resources.cpu')}</option>
            <option value="memory">{t('accounting.resources.memory')}</option>
            <option value="storage">{t('accounting.resources.storage')}</option>
            {(models.data?.items ?? []).map((m) => (
              <option key={m.key} value={m.key}>
                {modelName(m.key)}
              </option>
            ))}
          </select>
          {models.isError && <span className="mt-1 block text-xs text-amber-700">{t('accounting.prices.catalogueError')}</span>}
        </Field>
        <Field label={t('accounting.prices.pricePerUnit', { currency, unit: priceUnit(t, resource) })}>
          <QuantityInput
            testId="price-amount"
            value={price}
            parse={parse}
            error={localError ?? fieldError(mutation.error, 'pricePerHour')}
            onChange={(text) => {
              setPrice(text);
              setLocalError(undefined);
            }}
          />
        </Field>
        <Field
          label={t('accounting.prices.effectiveFrom')}
          hint={t('accounting.prices.effectiveFromHint')}
          error={fieldError(mutation.error, 'effectiveFrom')}
        >
          <input
            type="datetime-local"
            data-testid="price-from"
            className={inputClass}
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </Field>
      </div>
      {mutation.isError && (
        <FormError error={mutation.error} shownFields={(f) => ['resource', 'pricePerHour', 'effectiveFrom'].includes(f)} />
      )}
      {added && (
        <SuccessNote testId="price-added">
          {t('accounting.prices.added', {
            price: priceText(t, added.pricePerHour, currency, added.resource),
            resource: resourceName(t, added.resource, modelName),
          })}
        </SuccessNote>
      )}
      <div className="flex justify-end">
        <button type="submit" data-testid="price-save" className={btnPrimary} disabled={mutation.isPending}>
          {t('accounting.prices.add')}
        </button>
      </div>
    </form>
  );
}

function Book({ book, platformAdmin }: { book: PriceBook; platformAdmin: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <section className="flex flex-col gap-2">
        <h2 className="text-lg font-semibold text-slate-800">{t('accounting.prices.current')}</h2>
        {book.current.length === 0 ? (
          <EmptyState title={t('accounting.prices.empty')}>
            <p className="mt-1">{t('accounting.prices.emptyHint')}</p>
          </EmptyState>
        ) : (
          <PriceTable prices={book.current} currency={book.currency} history={false} />
        )}
      </section>
      {platformAdmin && <AddPriceForm currency={book.currency} />}
      {platformAdmin && book.history.length > 0 && (
        <section className="flex flex-col gap-2">
          <h2 className="text-lg font-semibold text-slate-800">{t('accounting.prices.history')}</h2>
          <PriceTable prices={book.history} currency={book.currency} history />
        </section>
      )}
    </>
  );
}

/** The price book: the prices in force for everyone; platform admins also see every version and add prices. */
export function PricesPage() {
  const { t } = useTranslation();
  const platformAdmin = useCurrentUser().role === 'admin';
  const query = useQuery(pricesQuery());
  return (
    <div className="flex flex-col gap-6" data-testid="prices-page">
      <PageHeader title={t('accounting.prices.title')} subtitle={t('accounting.prices.subtitle')} />
      {query.isPending ? (
        <LoadingState />
      ) : query.isError ? (
        <ErrorState title={t('accounting.prices.loadError')} error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Book book={query.data} platformAdmin={platformAdmin} />
      )}
    </div>
  );
}
