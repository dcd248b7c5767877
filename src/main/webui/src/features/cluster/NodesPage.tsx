import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../app/PageHeader';
import { NodeSection } from './ClusterSections';

export function NodesPage() {
  const { t } = useTranslation();
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('nodes.title')} subtitle={t('nodes.subtitle')} />
      <NodeSection />
    </div>
  );
}
