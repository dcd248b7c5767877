import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader';
import { AcceleratorSection, NodeSection } from './ClusterSections';
import { useCurrentUser } from '../auth/session';
import { OnboardingChecklist } from '../onboarding/OnboardingChecklist';

export function OverviewPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const admin = user.role === 'admin';
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title={t('overview.title')} subtitle={t('overview.subtitle')} />
      {admin && <OnboardingChecklist />}
      <section aria-labelledby="accelerators-heading" className="flex flex-col gap-3">
        <h2 id="accelerators-heading" className="text-lg font-semibold text-slate-800">
          {t('overview.accelerators')}
        </h2>
        <AcceleratorSection live={admin} />
      </section>
      {admin && (
        <section aria-labelledby="nodes-heading" className="flex flex-col gap-3">
          <h2 id="nodes-heading" className="text-lg font-semibold text-slate-800">
            {t('overview.nodes')}
          </h2>
          <NodeSection />
        </section>
      )}
    </div>
  );
}
