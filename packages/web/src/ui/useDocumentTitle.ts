import { useEffect } from 'react';
import { t } from '../i18n/t';

/** Sets the tab title to `<title> · Caseroom` (or just the product name) while mounted. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${t('app.name')}` : t('app.name');
  }, [title]);
}
