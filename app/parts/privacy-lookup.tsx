import { useRef, useState } from 'preact/hooks';
import { call } from '../api.ts';
import { useAction } from '../data.ts';
import {
  CUT_EXPORT_WORDS,
  countsByForm,
  erasedWords,
  exportDocument,
  inPrivacyWords,
  isCutExport,
} from '../privacy-model.ts';
import { Confirm } from './confirm.tsx';
import { Outcome } from './feedback.tsx';
import { type Found, PrivacyFound } from './privacy-found.tsx';
import { EraseReach } from './privacy-reach.tsx';
import { TeamSection } from './team-section.tsx';

/**
 * A person's submissions by their email address (docs/privacy.md): looked up
 * with the export route (one read of the email index, audited as an export),
 * counted by form, downloaded as that same document, and erased after a
 * question that says what an erase reaches and what it does not.
 */
export function PrivacyLookup() {
  const action = useAction();
  const [email, setEmail] = useState('');
  const [found, setFound] = useState<Found>();
  const [asking, setAsking] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const lookUp = async (event: Event) => {
    event.preventDefault();
    const address = email.trim();
    setFound(undefined);
    const outcome = await action.run(async (): Promise<Found> => {
      try {
        const exported = exportDocument(
          await call('exportPersonSubmissions', { query: { email: address } }),
        );
        return { email: address, exported, counts: countsByForm(exported) };
      } catch (failure) {
        // Cut short, it cannot be counted here, but an erase still reaches them all.
        if (isCutExport(failure)) return { email: address, unreadable: CUT_EXPORT_WORDS };
        throw inPrivacyWords(failure);
      }
    });
    setFound(outcome);
  };

  const erase = async () => {
    if (!found) return;
    setAsking(false);
    const answer = await action.run(async () => {
      try {
        return await call('erasePersonSubmissions', { body: { email: found.email } });
      } catch (failure) {
        throw inPrivacyWords(failure);
      }
    }, erasedWords);
    if (!answer) return;
    // Erased, and the same request again finds nothing (docs/privacy.md#erase-by-email).
    setFound({ email: found.email, exported: { submissions: [] }, counts: [] });
    // The Erase button that had the focus is gone: the focus goes to what the screen now says.
    heading.current?.focus();
  };

  return (
    <TeamSection id="person-title" title="A person's submissions">
      <p>
        When someone asks what the team holds about them, or asks for it to be deleted: find every
        submission of the team's forms that holds their email address, download them as one file, or
        erase them.
      </p>
      <form class="inline-form" onSubmit={lookUp}>
        <label>
          Their email address
          <input
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
        </label>
        <button type="submit" disabled={action.busy}>
          Find their submissions
        </button>
      </form>
      <Outcome action={action} />
      {found && (
        <PrivacyFound
          found={found}
          heading={heading}
          busy={action.busy}
          onErase={() => setAsking(true)}
        />
      )}
      {asking && found && (
        <Confirm
          title={`Erase every submission holding ${found.email}?`}
          confirm="Erase"
          onCancel={() => setAsking(false)}
          onConfirm={erase}
        >
          <EraseReach found={found} />
        </Confirm>
      )}
    </TeamSection>
  );
}
