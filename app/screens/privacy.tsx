import { PrivacyLookup } from '../parts/privacy-lookup.tsx';
import { PrivacySuppressions } from '../parts/privacy-suppressions.tsx';
import { TeamIpStorage } from '../parts/team-ip-storage.tsx';
import { TeamNav } from '../parts/team-nav.tsx';
import { TeamSection } from '../parts/team-section.tsx';
import { useSession } from '../session.ts';

/**
 * The team's Privacy screen, for owners (docs/dashboard.md#the-privacy-screen):
 * a person's submissions found by their email address, counted by form,
 * downloaded and erased; and what new submissions keep of a sender's
 * internet address; the addresses the team's forms no longer email
 * (bounced or complained), each let go again after a question. Members read that it is the owners' (the routes
 * answer them 403), as on the team screen. Loaded when first opened.
 */
export function PrivacyScreen() {
  const owner = useSession().role === 'owner';
  return (
    <main id="main" class="team privacy">
      <h1>Privacy</h1>
      <TeamNav current="privacy" />
      {owner ? (
        <>
          <PrivacyLookup />
          <TeamIpStorage />
          <PrivacySuppressions />
        </>
      ) : (
        <TeamSection id="privacy-owners-title" title="For the team's owners">
          <p class="hint">
            Only the team's owners find, download and erase a person's submissions by their email
            address, choose what new submissions keep of a sender's internet address, and see the
            addresses the team's forms no longer email.
          </p>
        </TeamSection>
      )}
    </main>
  );
}
