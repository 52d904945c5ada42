import { useCallback, useState } from 'react';
import { errorMessage } from '../caseplans/feedback';

/** The outcome of the last action on a section: what was done, or the server's refusal. */
export type Outcome = { kind: 'saved' | 'failed'; text: string } | null;

/**
 * Runs an action and keeps its outcome for {@link Feedback}: every change on the organization page says
 * whether it was saved, or why not, in a line inside its section (the case-plan page toasts instead:
 * caseplans/feedback.ts, whose `errorMessage` words the refusal for both).
 */
export function useFeedback() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<string>) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ kind: 'saved', text: await action() });
    } catch (err) {
      setOutcome({ kind: 'failed', text: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }, []);
  return { outcome, setOutcome, busy, run };
}

/** The outcome line: a polite status when saved, an alert when refused. */
export function Feedback({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return outcome.kind === 'saved' ? (
    <p role="status" className="org-feedback org-feedback-saved">
      {outcome.text}
    </p>
  ) : (
    <p role="alert" className="org-feedback inline-error">
      {outcome.text}
    </p>
  );
}
