/**
 * `npm run screenshots`: the dashboard's screens as docs/dashboard.md shows
 * them, taken in Chromium over a local stack in memory (a form, a few
 * submissions posted as a visitor would, a person signed in by the emailed
 * code). Writes PNGs to docs/images/. Run it after a change of a screen.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { sessionCookie, withBenchStack } from '#test/bench/bench-stack.ts';
import { startChromium } from '#test/support/chromium.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { random } from '#test/support/seeded-random.ts';

const OUT = new URL('../../docs/images/', import.meta.url);
mkdirSync(OUT, { recursive: true });

const VISITORS = [
  {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    message: 'Could you send me the price list for the spring workshop?',
  },
  {
    name: 'Grace Hopper',
    email: 'grace@example.com',
    message: 'The link on your contact page leads to a 404.',
  },
  {
    name: 'Katherine Johnson',
    email: 'kj@example.com',
    message: 'Do you offer a discount for schools?',
  },
  {
    name: 'Alan Turing',
    email: 'alan@example.com',
    message: 'Thanks for the quick reply last week!',
  },
];

await withBenchStack(async ({ stack, api, newForm }) => {
  const form = await newForm('Contact');
  const key = (form as { key?: string }).key;
  for (const visitor of VISITORS) {
    const posted = await fetch(`${stack.info.baseUrl}/s/${key}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        // As a visitor's browser sends them: the screens show device, browser and page.
        'user-agent':
          'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
        referer: 'https://shop.example/contact',
      },
      body: JSON.stringify(visitor),
    });
    if (posted.status !== 200) throw new Error(`post answered ${posted.status}`);
  }
  await newForm('Newsletter');
  // A feedback form with five weeks of answers for the summary screen.
  const feedback = await newForm('Workshop feedback');
  await api('PATCH', `/v1/forms/${feedback.id}`, {
    type: 'feedback',
    fields: [
      { id: 'rating', type: 'rating', label: 'How was it?', required: true, max: 10 },
      {
        id: 'track',
        type: 'select',
        label: 'Track',
        required: false,
        options: ['Design', 'Code', 'Ops'],
      },
      { id: 'message', type: 'textarea', label: 'Anything else?', required: false },
    ],
  });
  const rng = random(7);
  const answers = 420;
  await seedSubmissions({
    formId: feedback.id,
    teamId: feedback.teamId,
    count: answers,
    receivedAt: (i) => new Date(Date.now() - (answers - i) * 2.9 * 3_600_000),
    data: () => ({
      rating: String(Math.min(10, 4 + rng.int(4) + rng.int(4))),
      track: rng.pick(['Design', 'Code', 'Code', 'Ops']),
      message: rng.next() < 0.4 ? 'Great session' : '',
    }),
    meta: () => ({
      userAgent: 'Mozilla/5.0',
      referrer: rng.pick([
        '',
        'https://news.example/',
        'https://shop.example/events',
        'https://t.example/x',
      ]),
      country: rng.pick(['FR', 'DE', 'US', 'US', 'JP', 'GB']),
      deviceClass: rng.pick(['mobile', 'desktop', 'desktop', 'tablet'] as const),
    }),
  });
  // Views of the past weeks, straight into the hour buckets (a beacon counts only now), and
  // one through the beacon route as a page sends it.
  const { addToHour } = await import('#store/summary-buckets.ts');
  for (let day = 0; day < 50; day++) {
    const hour = new Date(Date.now() - day * 86_400_000)
      .toISOString()
      .slice(0, 13)
      .replace(/[-T]/g, '');
    await addToHour(feedback.id, hour, { v: 20 + rng.int(25) });
  }
  await fetch(`${stack.info.baseUrl}/f/${(feedback as { key?: string }).key}/views`, {
    method: 'POST',
    headers: { 'user-agent': 'Mozilla/5.0 (Macintosh) Chrome/130.0.0.0 Safari/537.36' },
  });
  const counted = async () => {
    const summary = await api(
      'GET',
      `/v1/forms/${feedback.id}/summary?from=${new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10)}`,
    );
    return (summary.body as { totals?: { stored: number } }).totals?.stored ?? 0;
  };
  for (let tries = 0; tries < 600 && (await counted()) < answers; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  // A notification whose Cc bounced (SES's mailbox simulator, played by the local stack):
  // the submission page says what became of each email.
  const support = await newForm('Support');
  await api('PATCH', `/v1/forms/${support.id}`, {
    notifyEnabled: true,
    notifyCc: ['bounce@simulator.amazonses.com'],
  });
  const asked = await fetch(`${stack.info.baseUrl}/s/${(support as { key?: string }).key}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(VISITORS[0]),
  });
  const bouncedId = ((await asked.json()) as { submissionId: string }).submissionId;
  const ccBounced = async () => {
    const shown = await api('GET', `/v1/forms/${support.id}/submissions/${bouncedId}`);
    const emails = (
      shown.body as { emails?: { notification?: { recipients?: { status: string }[] } } }
    ).emails;
    return emails?.notification?.recipients?.some((r) => r.status === 'bounced') ?? false;
  };
  for (let tries = 0; tries < 300 && !(await ccBounced()); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  // A waitlist that asks people to confirm their email (docs/dashboard.md#confirm-by-email):
  // three wait, and the first one's emailed link is pressed.
  const waitlist = await newForm('Waitlist');
  await api('PATCH', `/v1/forms/${waitlist.id}`, { confirmEmail: { field: 'email' } });
  const waiting: string[] = [];
  for (const visitor of VISITORS.slice(0, 3)) {
    const posted = await fetch(`${stack.info.baseUrl}/s/${(waitlist as { key?: string }).key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(visitor),
    });
    waiting.push(((await posted.json()) as { submissionId: string }).submissionId);
  }
  let confirmLink: string | undefined;
  for (let tries = 0; tries < 300 && !confirmLink; tries++) {
    const store = (await (await fetch(new URL('/store', stack.info.mailUrl))).json()) as {
      emails: { destination: { to: string[] }; subject: string; body: { text?: string } }[];
    };
    const mail = store.emails.find(
      (e) => e.destination.to.includes(VISITORS[0]!.email) && e.subject.startsWith('Confirm'),
    );
    confirmLink = /https?:\/\/\S+\/c\/[A-Za-z0-9_.-]+/.exec(mail?.body.text ?? '')?.[0];
    if (!confirmLink) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!confirmLink) throw new Error('no confirmation email');

  // A form that branches (docs/dashboard.md#logic): steps, a field shown on one answer, a jump.
  const signup = await newForm('Workshop signup');
  const when = (field: string, op: string, value: string) => ({ all: [{ field, op, value }] });
  await api('PATCH', `/v1/forms/${signup.id}`, {
    fields: [
      {
        id: 'who',
        type: 'radio',
        label: 'Who is coming?',
        options: ['Just me', 'A team'],
        required: true,
      },
      {
        id: 'team_size',
        type: 'number',
        label: 'How many people?',
        min: 2,
        showIf: when('who', 'eq', 'A team'),
      },
      {
        id: 'invoice',
        type: 'text',
        label: 'Invoice address',
        requiredIf: { all: [{ field: 'team_size', op: 'gte', value: '5' }] },
      },
      { id: 'source', type: 'hidden', label: 'Source' },
      { id: 'email', type: 'email', label: 'Email', required: true, prefill: true },
    ],
    pages: [
      {
        id: 'who',
        title: 'Who',
        fields: ['who', 'team_size'],
        next: [{ if: when('who', 'eq', 'Just me'), goTo: 'contact' }],
      },
      { id: 'billing', title: 'Billing', fields: ['invoice', 'source'] },
      { id: 'contact', title: 'Contact', fields: ['email'] },
    ],
  });

  // A session as the dashboard gets one: the sign-in email's code, verified.
  const cookie = await sessionCookie(stack.info, api, 'pro@dev.local');

  const browser = await startChromium();
  const shoot = async (
    name: string,
    path: string,
    options: {
      width: number;
      dark?: boolean;
      signedIn?: boolean;
      ready: string;
      /** What the person does before the picture (ticks rows, opens a detail). */
      act?: (page: Page) => Promise<void>;
    },
  ) => {
    const context = await browser.newContext({
      viewport: { width: options.width, height: options.width < 600 ? 812 : 760 },
      colorScheme: options.dark ? 'dark' : 'light',
    });
    if (options.signedIn !== false) {
      await context.addCookies([{ name: 'fs_session', value: cookie, url: stack.info.baseUrl }]);
    }
    const page = await context.newPage();
    await page.goto(`${stack.info.baseUrl}${path}`);
    await page.locator(options.ready).first().waitFor();
    // A form's workspace reads the form on its own: its name, not "Loading…", in the picture.
    await page.waitForFunction(
      () => !document.querySelector('.workspace-head h1')?.textContent?.startsWith('Loading'),
    );
    await options.act?.(page);
    await page.screenshot({ path: new URL(`${name}.png`, OUT).pathname });
    await context.close();
    console.log(`wrote docs/images/${name}.png`);
  };
  const list = await api('GET', `/v1/forms/${form.id}/submissions`);
  const first = (list.body as { items: { id: string }[] }).items[0]!.id;
  await shoot('dashboard-sign-in', '/app/sign-in', { width: 1280, signedIn: false, ready: 'form' });
  await shoot('dashboard-forms', '/app', { width: 1280, ready: 'table, ul' });
  await shoot('dashboard-inbox', `/app/forms/${form.id}`, { width: 1280, ready: 'tbody tr' });
  await shoot('dashboard-inbox-dark-375', `/app/forms/${form.id}`, {
    width: 375,
    dark: true,
    ready: 'tbody tr',
  });
  await shoot('dashboard-submission', `/app/forms/${form.id}/submissions/${first}`, {
    width: 1280,
    ready: 'main.submission h2',
  });
  await shoot('dashboard-submission-emails', `/app/forms/${support.id}/submissions/${bouncedId}`, {
    width: 1280,
    ready: 'main.submission h2',
    act: async (page) => {
      await page.getByText(/Not delivered to bounce@simulator/).waitFor();
      await page.getByText(/Not delivered to bounce@simulator/).scrollIntoViewIfNeeded();
    },
  });
  await shoot('dashboard-settings', `/app/forms/${form.id}/settings`, {
    width: 1280,
    ready: 'form.settings-group',
  });
  await shoot('dashboard-inbox-selected', `/app/forms/${form.id}`, {
    width: 1280,
    ready: 'tbody tr',
    act: async (page) => {
      for (const box of (await page.getByRole('checkbox').all()).slice(1, 3)) await box.check();
      await page.getByRole('button', { name: /spam/i }).first().waitFor();
    },
  });
  await shoot('dashboard-fields', `/app/forms/${form.id}/fields`, {
    width: 1280,
    ready: 'ol.field-list li',
  });
  await shoot('dashboard-logic', `/app/forms/${signup.id}/fields`, {
    width: 1280,
    ready: 'section.page-section',
    act: async (page) => {
      await page.getByRole('button', { name: /^Field 2: How many people/ }).click();
      // The field's rule and the page's jump in one picture.
      await page
        .getByRole('group', { name: 'Show only if' })
        .evaluate((rule) => rule.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => window.scrollBy(0, -160));
    },
  });
  await shoot('dashboard-logic-try', `/app/forms/${signup.id}/fields`, {
    width: 1280,
    ready: 'section.page-section',
    act: async (page) => {
      const preview = page.getByRole('region', { name: 'Try the form' });
      await preview.getByRole('button', { name: 'Try the form' }).click();
      await preview.getByLabel('Who is coming? (required)').selectOption('A team');
      await preview.getByLabel('How many people?').fill('6');
      await preview.getByRole('button', { name: 'Next' }).click();
      await preview.getByRole('heading', { name: 'Step 2 of 3: Billing' }).waitFor();
      await preview.scrollIntoViewIfNeeded();
    },
  });
  await shoot('dashboard-share', `/app/forms/${form.id}/share`, {
    width: 1280,
    ready: 'section.share',
  });
  await shoot('dashboard-emails', `/app/forms/${form.id}/emails`, {
    width: 1280,
    ready: 'section.email-preview',
  });
  await shoot('dashboard-design', `/app/forms/${feedback.id}/design`, {
    width: 1280,
    ready: '.design-preview',
  });
  await shoot('dashboard-team', '/app/team', { width: 1280, ready: 'table' });
  await shoot('dashboard-privacy', '/app/team/privacy', { width: 1280, ready: 'form' });
  await shoot('dashboard-integrations', `/app/forms/${form.id}/integrations`, {
    width: 1280,
    ready: 'section.integration',
  });
  await shoot('dashboard-integrations-dark-375', `/app/forms/${form.id}/integrations`, {
    width: 375,
    dark: true,
    ready: 'section.integration',
  });
  await shoot('dashboard-inbox-table', `/app/forms/${feedback.id}`, {
    width: 1280,
    ready: 'tbody tr',
    act: async (page) => {
      await page.getByRole('button', { name: 'Table', exact: true }).click();
      await page.getByRole('button', { name: 'Table', pressed: true }).waitFor();
    },
  });
  await shoot('dashboard-confirm-pending', `/app/forms/${waitlist.id}?folder=pending`, {
    width: 1280,
    ready: 'tbody tr',
    // One ticked: its only action is Delete.
    act: async (page) => {
      await (await page.getByRole('checkbox').all())[1]!.check();
      await page.getByRole('button', { name: 'Delete' }).waitFor();
    },
  });
  const confirmed = await fetch(confirmLink, { method: 'POST' });
  if (confirmed.status !== 200) throw new Error(`the confirm answered ${confirmed.status}`);
  await shoot(
    'dashboard-confirm-confirmed',
    `/app/forms/${waitlist.id}/submissions/${waiting[0]}`,
    {
      width: 1280,
      ready: 'p.confirmation',
    },
  );
  await shoot('dashboard-summary', `/app/forms/${feedback.id}/summary`, {
    width: 1280,
    ready: 'svg[role="img"]',
  });
  await browser.close();
});
