import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function Fallback({ error, onReset }: { error: Error; onReset: () => void }) {
  const { t } = useTranslation();
  return (
    <div role="alert" className="mx-auto mt-12 max-w-lg rounded-xl border border-rose-200 bg-white p-6 shadow-sm">
      <h1 className="text-lg font-semibold text-rose-800">{t('common.errorTitle')}</h1>
      <p className="mt-2 text-sm text-slate-600">{error.message || t('common.unexpected')}</p>
      <div className="mt-4 flex gap-2">
        <button
          type="button"
          onClick={onReset}
          className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-500"
        >
          {t('common.retry')}
        </button>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
        >
          {t('common.reload')}
        </button>
      </div>
    </div>
  );
}

interface Props {
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/** Catches render errors below it and offers to retry instead of leaving a blank page. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Render error', error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return <Fallback error={this.state.error} onReset={() => this.setState({ error: null })} />;
    }
    return this.props.children;
  }
}
