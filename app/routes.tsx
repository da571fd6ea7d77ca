import { lazyScreen } from './parts/lazy.tsx';
import { BackLink } from './parts/link.tsx';
import { paths } from './paths.ts';
import { type Route, route } from './router.ts';
import { Forms } from './screens/forms.tsx';
import { Inbox } from './screens/inbox.tsx';
import { Share } from './screens/share.tsx';

/** A submission's page (its answers model, keys and delivery): loaded when a row is pointed at or opened. */
const SubmissionView = lazyScreen(() =>
  import('./screens/submission.tsx').then((module) => module.SubmissionView),
);

/** The settings screen checks with the route's own schema (zod and more): loaded when opened. */
const SettingsScreen = lazyScreen(() =>
  import('./screens/settings.tsx').then((module) => module.SettingsScreen),
);

/** The fields builder checks with the route's own field schema: loaded when opened. */
const FieldsScreen = lazyScreen(() =>
  import('./screens/fields.tsx').then((module) => module.FieldsScreen),
);

/** The design screen draws the hosted page's own markup: loaded when opened. */
const DesignScreen = lazyScreen(() =>
  import('./screens/design.tsx').then((module) => module.DesignScreen),
);

/** The emails screen renders the email worker's own templates: loaded when opened. */
const EmailsScreen = lazyScreen(() =>
  import('./screens/emails.tsx').then((module) => module.EmailsScreen),
);

/** The team screen names sessions with a user-agent parser (bowser): loaded when opened. */
const TeamScreen = lazyScreen(() =>
  import('./screens/team.tsx').then((module) => module.TeamScreen),
);

/** The team's Privacy screen (look-up, export and erase by email; visitor addresses): loaded when opened. */
const PrivacyScreen = lazyScreen(() =>
  import('./screens/privacy.tsx').then((module) => module.PrivacyScreen),
);

/** The summary's charts, quotes and tables: loaded when opened. */
const SummaryScreen = lazyScreen(() =>
  import('./screens/summary.tsx').then((module) => module.SummaryScreen),
);

/** The webhook screen and its delivery log (the body rebuilt with the worker's own code): loaded when opened. */
const WebhookScreen = lazyScreen(() =>
  import('./screens/webhook.tsx').then((module) => module.WebhookScreen),
);

/** Slack, Discord and Google Sheets, with their delivery logs: loaded when opened. */
const IntegrationsScreen = lazyScreen(() =>
  import('./screens/integrations.tsx').then((module) => module.IntegrationsScreen),
);

/**
 * Every signed-in screen at its path, first match first (sign-in is the
 * app's own, before any of these). A route with a `tab` is drawn in its
 * form's workspace: docs/dashboard.md#add-a-screen.
 */
export const ROUTES: Route[] = [
  route(
    '/forms/:id/submissions/:submissionId',
    ({ id, submissionId }, query) => (
      <SubmissionView formId={id} submissionId={submissionId} query={query} />
    ),
    { tab: 'inbox', preload: SubmissionView.preload },
  ),
  route('/forms/:id/summary', ({ id }, query) => <SummaryScreen formId={id} query={query} />, {
    tab: 'summary',
    preload: SummaryScreen.preload,
  }),
  route('/forms/:id/share', ({ id }) => <Share formId={id} />, { tab: 'share' }),
  route('/forms/:id/settings', ({ id }) => <SettingsScreen formId={id} />, {
    tab: 'settings',
    preload: SettingsScreen.preload,
  }),
  route('/forms/:id/fields', ({ id }) => <FieldsScreen formId={id} />, {
    tab: 'fields',
    preload: FieldsScreen.preload,
  }),
  route('/forms/:id/design', ({ id }) => <DesignScreen formId={id} />, {
    tab: 'design',
    preload: DesignScreen.preload,
  }),
  route('/forms/:id/emails', ({ id }) => <EmailsScreen formId={id} />, {
    tab: 'emails',
    preload: EmailsScreen.preload,
  }),
  route('/forms/:id/webhook', ({ id }) => <WebhookScreen formId={id} />, {
    tab: 'webhook',
    preload: WebhookScreen.preload,
  }),
  route('/forms/:id/integrations', ({ id }) => <IntegrationsScreen formId={id} />, {
    tab: 'integrations',
    preload: IntegrationsScreen.preload,
  }),
  route('/forms/:id', ({ id }, query) => <Inbox formId={id} query={query} />, { tab: 'inbox' }),
  route('/team/privacy', () => <PrivacyScreen />, { preload: PrivacyScreen.preload }),
  route('/team', () => <TeamScreen />, { preload: TeamScreen.preload }),
  route('/', () => <Forms />),
];

/** No screen at this path: say so, and the way home. */
export function NotFound() {
  return (
    <main id="main">
      <h1>Not found</h1>
      <p>There is no page here: the link may be mistyped, or the page may have moved.</p>
      <BackLink to={paths.forms()}>Back to your forms</BackLink>
    </main>
  );
}
