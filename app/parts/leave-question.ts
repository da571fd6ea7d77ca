import { useEffect } from 'preact/hooks';
import { askBeforeLeaving } from '../router.ts';

/**
 * Unsaved changes: the browser asks before the page is left or reloaded, and
 * the app before one of its links leads elsewhere. `unsaved` names what is
 * unsaved ("notifications", "the fields"), '' when nothing is: keyed by the
 * words, so the question names what is unsaved now.
 */
export function useLeaveQuestion(unsaved: string): void {
  useEffect(() => {
    if (unsaved === '') return;
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    askBeforeLeaving(() => window.confirm(`Leave without saving ${unsaved}?`));
    return () => {
      window.removeEventListener('beforeunload', ask);
      askBeforeLeaving(undefined);
    };
  }, [unsaved]);
}
