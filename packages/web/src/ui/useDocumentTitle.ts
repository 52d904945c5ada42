import { useEffect } from 'react';
import { setScreenTitle } from './documentTitle';

/** Sets the tab title to `<title> · Caseroom` (or just the product name) while mounted; see documentTitle. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    setScreenTitle(title);
  }, [title]);
}
