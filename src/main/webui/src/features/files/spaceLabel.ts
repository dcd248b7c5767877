import { useTranslation } from 'react-i18next';
import { spaceKind } from '../../lib/filePaths';

/** The name a space is shown with: "My files", "Account lab", "Public". */
export function useSpaceLabel(): (space: string) => string {
  const { t } = useTranslation();
  return (space) => {
    const k = spaceKind(space);
    if (k.kind === 'user') return t('files.space.user');
    if (k.kind === 'public') return t('files.space.public');
    if (k.kind === 'account') return t('files.space.account', { slug: k.slug });
    return space;
  };
}
