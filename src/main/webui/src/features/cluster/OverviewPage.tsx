import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader';
import { AcceleratorSection, NodeSection } from './ClusterSections';

export function OverviewPage() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title={t('overview.title')} subtitle={t('overview.subtitle')} />
      <section aria-labelledby="accelerators-heading" className="flex flex-col gap-3">
        <h2 id="accelerators-heading" className="text-lg font-semibold text-slate-800">
          {t('overview.accelerators')}
        </h2>
        <AcceleratorSection />
      </section>
      <section aria-labelledby="nodes-heading" className="flex flex-col gap-3">
        <h2 id="nodes-heading" className="text-lg font-semibold text-slate-800">
          {t('overview.nodes')}
        </h2>
        <NodeSection />
      </section>
    </div>
  );
}
