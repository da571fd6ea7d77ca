import { describe, expect, it } from 'vitest';
import { newForm } from '#domain/form-defaults.ts';
import { FIELD_TYPES, type FieldDefinition, type FormRecord } from '#domain/form-model.ts';
import { DEFAULT_FIELDS, publicFormOf } from '#domain/public-form.ts';
import { ANSWER_REASONS } from '#domain/submission-model.ts';
import { answerMessage } from '#http/pages/answer-messages.ts';
import { formCss, formMarkup, textOnAccent } from '#http/pages/form-markup.ts';
import { boundedFormPage, formPage, formPageCsp, MAX_PAGE_BYTES } from '#http/pages/form-page.ts';

const NOW = new Date('2026-11-23T12:00:00Z');

function form(settings: Partial<FormRecord> = {}): FormRecord {
  return {
    ...newForm({ teamId: 't-1', userId: 'u-1', name: 'Contact us', type: 'contact', now: NOW }),
    ...settings,
  };
}

const markup = (record: FormRecord, plan: 'free' | 'pro' = 'free') =>
  formMarkup(publicFormOf(record, plan, NOW, 2000), { action: '../s/key', headingLevel: 1 });

describe('publicFormOf: what a visitor may know of a form', () => {
  it('names only public settings: no secret, address, block list, team or counter', () => {
    const view = publicFormOf(
      form({
        captchaEnabled: true,
        captchaSiteKey: 'site-key',
        captchaSecretKey: 'secret-key',
        notifyEmail: 'owner@example.com',
        notifyCc: ['desk@example.com'],
        blockedIps: ['203.0.113.1'],
        blockedCountries: ['KP'],
        allowedOrigins: ['https://shop.example'],
        autoreplyBody: 'reply body',
      }),
      'pro',
      NOW,
      900,
    );
    const text = JSON.stringify(view);
    for (const secret of [
      'secret-key',
      'owner@example.com',
      'desk@example.com',
      '203.0.113.1',
      'KP',
      'reply body',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toContain('t-1');
    expect(text).not.toContain('u-1');
    expect(view.captchaSiteKey).toBe('site-key');
    expect(view.renderedAt).toBe(NOW.getTime());
    expect(view.minFillMs).toBe(900);
  });

  it('a form without fields draws name, email and message', () => {
    expect(publicFormOf(form({ fields: null }), 'free', NOW, 2000).fields).toEqual(DEFAULT_FIELDS);
  });

  it('file fields: multipart when the form takes uploads (Pro with allowUploads); otherwise drawn, disabled, never left out (docs/forms.md#file-fields)', () => {
    const fields: FieldDefinition[] = [
      { id: 'name', type: 'text' },
      { id: 'cv', type: 'file', label: 'CV', required: true },
      {
        id: 'portfolio',
        type: 'file',
        label: 'Portfolio',
        requiredIf: { all: [{ field: 'name', op: 'notEmpty' }] },
      },
    ];
    const view = (plan: 'free' | 'pro', allowUploads: boolean) =>
      publicFormOf(form({ fields, allowUploads }), plan, NOW, 2000);
    expect(view('pro', true).fields.map((f) => f.id)).toEqual(['name', 'cv', 'portfolio']);
    expect(view('pro', true)).toMatchObject({ multipart: true, filesOff: false });
    expect(view('pro', true).fields[1]?.required).toBe(true);
    expect(view('pro', true).fields[2]?.requiredIf).toBeDefined();
    for (const [plan, allowUploads] of [
      ['pro', false],
      ['free', true],
      ['free', false],
    ] as const) {
      const off = view(plan, allowUploads);
      expect(
        off.fields.map((f) => f.id),
        `${plan} ${allowUploads}`,
      ).toEqual(['name', 'cv', 'portfolio']);
      expect(off).toMatchObject({ multipart: false, filesOff: true });
      // Asked of nobody, on any branch: a visitor cannot send it.
      expect(off.fields[1]?.required).toBe(false);
      expect(off.fields[2]?.requiredIf).toBeUndefined();
    }
    const page = markup(form({ fields, allowUploads: false }), 'pro');
    expect(page).toMatch(/<label for="fs-f-cv">CV<\/label>/);
    expect(page).toContain('This form cannot receive files at the moment.');
    expect(page).toMatch(
      /<input id="fs-f-cv" name="cv" type="file" disabled aria-describedby="fs-e-cv fs-o-cv">/,
    );
    expect(page).not.toContain('enctype');
    expect(publicFormOf(form({ fields: null }), 'free', NOW, 2000).filesOff).toBe(false);
  });

  it('closed: the endpoint’s message (the form’s own on Pro only), for every reason', () => {
    const closed = form({ status: 'paused', closedMessage: 'Back in May' });
    expect(publicFormOf(closed, 'pro', NOW, 2000).closedMessage).toBe('Back in May');
    expect(publicFormOf(closed, 'free', NOW, 2000).closedMessage).toBe(
      'This form is closed and no longer accepts submissions.',
    );
    expect(
      publicFormOf(form({ autoCloseAt: '2026-01-01T00:00:00.000Z' }), 'free', NOW, 2000)
        .closedMessage,
    ).not.toBeNull();
    expect(
      publicFormOf(form({ maxSubmissions: 3, submissionCount: 3 }), 'free', NOW, 2000)
        .closedMessage,
    ).not.toBeNull();
    expect(publicFormOf(form(), 'free', NOW, 2000).closedMessage).toBeNull();
  });

  it('design: title falls back to the name, a malformed accent to the default, blanks to defaults', () => {
    const view = publicFormOf(
      form({ design: { title: ' ', accent: 'red;}body{', submitLabel: '', theme: 'dark' } }),
      'free',
      NOW,
      900,
    );
    expect(view).toMatchObject({
      title: 'Contact us',
      accent: null,
      submitLabel: 'Send',
      theme: 'dark',
      successTitle: 'Thank you!',
      successMessage: 'Your submission has been received.',
    });
    expect(formCss(view, ':root')).not.toContain('red;');
  });

  it('completion texts and redirect as the thank-you page has them (Pro only)', () => {
    const message = form({
      completionMode: 'message',
      completionTitle: 'Merci',
      completionMessage: 'À bientôt',
    });
    expect(publicFormOf(message, 'pro', NOW, 2000)).toMatchObject({
      successTitle: 'Merci',
      successMessage: 'À bientôt',
    });
    expect(publicFormOf(message, 'free', NOW, 2000).successTitle).toBe('Thank you!');
    const redirect = form({
      completionMode: 'redirect',
      redirectUrl: 'https://shop.example/thanks',
    });
    expect(publicFormOf(redirect, 'pro', NOW, 2000).redirectUrl).toBe(
      'https://shop.example/thanks',
    );
    expect(publicFormOf(redirect, 'free', NOW, 2000).redirectUrl).toBeNull();
  });
});

describe('formMarkup', () => {
  const evil = '<img src=x onerror=alert(1)>"\'&';

  it('escapes every setting it places', () => {
    const html = markup(
      form({
        design: { title: evil, description: evil, submitLabel: evil },
        captchaEnabled: true,
        captchaSiteKey: evil,
        fields: [
          { id: 'a', type: 'text', label: evil, placeholder: evil, helpText: evil, pattern: evil },
          { id: 'b', type: 'select', label: evil, options: [evil, 'x'] },
          { id: 'c', type: 'radio', label: evil, options: [evil] },
          { id: 'd', type: 'checkbox', label: evil },
        ],
      }),
    );
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/="[^"]*"'/);
    expect(html.split('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;').length - 1).toBe(14);
  });

  it('ties labels, help and errors to each control', () => {
    const html = markup(
      form({
        fields: [
          { id: 'email', type: 'email', label: 'Email', required: true, helpText: 'We reply here' },
          { id: 'when', type: 'radio', label: 'When', options: ['Day', 'Night'], required: true },
          { id: 'stars', type: 'rating', label: 'Stars', max: 4 },
        ],
      }),
    );
    expect(html).toContain('<label for="fs-f-email">Email');
    expect(html).toContain(
      '<input id="fs-f-email" name="email" required aria-describedby="fs-h-email fs-e-email" type="email" autocomplete="email">',
    );
    expect(html).toContain('<p class="fs-help" id="fs-h-email">We reply here</p>');
    expect(html).toContain('<p class="fs-error" id="fs-e-email"></p>');
    expect(html).toContain(
      '<fieldset class="fs-field fs-group" id="fs-f-when" aria-describedby="fs-e-when" data-fs-field="when"><legend>When',
    );
    expect(
      html.match(/type="radio" id="fs-f-when-\d" name="when" value="[^"]+" required>/g),
    ).toHaveLength(2);
    expect(html.match(/name="stars"/g)).toHaveLength(4);
    expect(html).toContain('aria-label="4 of 4"');
    expect(html).toContain('role="status" aria-live="polite"');
  });

  it('an option sends exactly its text: a value attribute where white space would collapse', () => {
    const html = markup(
      form({ fields: [{ id: 's', type: 'select', options: ['Plain one', 'Two  spaces'] }] }),
    );
    expect(html).toContain('<option>Plain one</option>');
    expect(html).toContain('<option value="Two  spaces">Two  spaces</option>');
  });

  it('draws every field type', () => {
    const fields = FIELD_TYPES.map((type) => ({
      id: `f-${type}`,
      type,
      label: type,
      ...(type === 'select' || type === 'radio' ? { options: ['x'] } : {}),
    })) as FieldDefinition[];
    const html = markup(form({ fields, allowUploads: true }), 'pro');
    for (const type of FIELD_TYPES) expect(html).toContain(`name="f-${type}"`);
    expect(html).toContain('enctype="multipart/form-data"');
  });

  it('a closed form is its message, without a form', () => {
    const html = markup(form({ status: 'paused' }));
    expect(html).not.toContain('<form');
    expect(html).toContain('role="status">This form is closed');
  });
});

describe('the hosted page', () => {
  it('CSP: frame-ancestors * for an open form, its websites for a locked one; Turnstile only with a captcha', () => {
    const open = formPageCsp({ captchaSiteKey: null, redirectUrl: null }, [], 'n0nce');
    expect(open).toContain('frame-ancestors *');
    expect(open).toContain("script-src 'self';");
    expect(open).toContain("style-src 'nonce-n0nce'");
    expect(open).not.toContain('cloudflare');
    const locked = formPageCsp(
      { captchaSiteKey: 'k', redirectUrl: 'https://shop.example/thanks?x=1' },
      ['https://shop.example'],
      'n',
    );
    expect(locked).toContain("frame-ancestors 'self' https://shop.example");
    expect(locked).toContain("script-src 'self' https://challenges.cloudflare.com");
    expect(locked).toContain('frame-src https://challenges.cloudflare.com');
    expect(locked).toContain("form-action 'self' https://shop.example;");
  });

  it('its JSON block cannot end the script element', () => {
    const view = publicFormOf(
      form({ design: { title: '</script><script>alert(1)</script>' } }),
      'free',
      NOW,
      900,
    );
    const html = formPage(view, { base: '../', nonce: 'n' });
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    expect(html).toContain('\\u003c/script>\\u003cscript>');
  });
});

describe('the page counts its view (docs/analytics.md#views)', () => {
  const view = publicFormOf(form({ key: 'k1' }), 'free', NOW, 900);
  const image = '<img src="../f/k1/views" alt="" width="1" height="1" hidden>';

  it('with its script, by the beacon; without script, by the image in <noscript>; its posts say so', () => {
    const page = formPage(view, { base: '../', nonce: 'n' });
    expect(page).toContain(`<noscript>${image}</noscript>`);
    expect(page).toContain('<input type="hidden" name="_views" value="counted">');
    // A page too large for its script counts by the image itself.
    expect(formPage(view, { base: '../', nonce: 'n', script: false })).toContain(`${image}</main>`);
  });

  it('a closed form shows no form, so counts no view', () => {
    const closed = publicFormOf(form({ key: 'k1', status: 'paused' }), 'free', NOW, 900);
    expect(formPage(closed, { base: '../', nonce: 'n' })).not.toContain('/views');
  });
});

describe('a bounded page', () => {
  const bloated = (type: 'select' | 'radio', text: (n: number) => string) =>
    publicFormOf(
      form({
        design: { title: text(200), description: text(2000), submitLabel: text(50) },
        fields: Array.from({ length: 30 }, (_, i) => ({
          id: `f${i}`,
          type,
          label: text(200),
          helpText: text(500),
          options: Array.from({ length: 100 }, (_, j) => text(196) + String(j).padStart(4, '0')),
        })),
      }),
      'free',
      NOW,
      900,
    );
  const quotes = (n: number) => '"'.repeat(n);
  const letters = (n: number) => 'x'.repeat(n);
  const options = { base: '../', nonce: 'n' };

  it('a form at every limit with ordinary text is drawn whole, script included', () => {
    for (const type of ['select', 'radio'] as const) {
      const page = boundedFormPage(bloated(type, letters), options)!;
      expect(Buffer.byteLength(page)).toBeLessThanOrEqual(MAX_PAGE_BYTES);
      expect(page).toContain('embed.js');
    }
  });

  it('one built to bloat its page loses the script, then is refused, never over the limit', () => {
    const select = boundedFormPage(bloated('select', quotes), options)!;
    expect(Buffer.byteLength(select)).toBeLessThanOrEqual(MAX_PAGE_BYTES);
    expect(select).not.toContain('embed.js');
    expect(select).toContain('<form');
    expect(Buffer.byteLength(formPage(bloated('radio', quotes), options))).toBeGreaterThan(
      MAX_PAGE_BYTES,
    );
    expect(boundedFormPage(bloated('radio', quotes), options)).toBeUndefined();
  });
});

describe('answer messages and colours', () => {
  it('every reason code reads as a sentence for every field type', () => {
    for (const type of FIELD_TYPES) {
      for (const reason of ANSWER_REASONS) {
        const message = answerMessage(
          { id: 'x', type, min: 1, max: 9, minLength: 2, maxLength: 5 },
          reason,
        );
        expect(message).toMatch(/^Please .+\.$/);
        expect(message).not.toContain('undefined');
      }
    }
  });

  it('the submit button’s text contrasts with any accent (WCAG AA, 4.5:1)', () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const contrast = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
      return (hi + 0.05) / (lo + 0.05);
    };
    for (const accent of [
      '#2563eb',
      '#ffcc00',
      '#7c3aed',
      '#f59e0b',
      '#000000',
      '#ffffff',
      '#777777',
    ]) {
      expect(contrast(accent, textOnAccent(accent)), accent).toBeGreaterThanOrEqual(4.5);
    }
  });
});
