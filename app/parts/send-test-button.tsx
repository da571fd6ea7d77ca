import { call } from '../api.ts';
import type { Action } from '../data.ts';

/**
 * "Send a test": a test submission of the form (docs/dashboard.md), whose
 * deliveries the screen then watches for (`onSent` gives the time to watch from).
 */
export function SendTestButton(props: {
  formId: string;
  action: Action;
  /** What the screen says once it is sent: where its deliveries show. */
  notice: string;
  onSent: (at: number) => void;
}) {
  const { formId, action } = props;
  return (
    <button
      type="button"
      disabled={action.busy}
      onClick={() =>
        action.run(async () => {
          await call('sendTestSubmission', { params: { id: formId } });
          props.onSent(Date.now());
        }, props.notice)
      }
    >
      Send a test
    </button>
  );
}
