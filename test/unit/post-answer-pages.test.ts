import { describe, expect, it } from 'vitest';
import { escapeHtml } from '#domain/html.ts';
import {
  errorPage,
  methodNotAllowedPage,
  PAGE_HEADERS,
  thankYouPage,
} from '#http/post-answer-pages.ts';

const styleOf = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
const bodyOf = (html: string) => /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? '';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('leaves other text, including non-ASCII, as it is', () => {
    expect(escapeHtml('Grüße, 你好 🎉 / = `')).toBe('Grüße, 你好 🎉 / = `');
  });
});

describe('PAGE_HEADERS', () => {
  it('sends HTML in UTF-8 under a policy that forbids scripts', () => {
    expect(PAGE_HEADERS['content-type']).toBe('text/html; charset=utf-8');
    const csp = PAGE_HEADERS['content-security-policy'] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src/);
    expect(PAGE_HEADERS['x-content-type-options']).toBe('nosniff');
  });
});

describe('thankYouPage', () => {
  it('shows the default title and message when the caller has none', () => {
    const html = thankYouPage({ title: null, message: null, design: {} });
    expect(html).toContain('<h1>Thank you!</h1>');
    expect(html).toContain('Your submission has been received.');
    expect(html).toContain('<title>Thank you!</title>');
  });

  it('uses the defaults for missing or blank texts too', () => {
    const html = thankYouPage({ title: '  ', design: {} });
    expect(html).toContain('<h1>Thank you!</h1>');
    expect(html).toContain('Your submission has been received.');
  });

  it('shows custom title and message instead of the defaults', () => {
    const html = thankYouPage({
      title: 'You are on the list',
      message: 'We write when doors open.',
      design: {},
    });
    expect(html).toContain('<h1>You are on the list</h1>');
    expect(html).toContain('We write when doors open.');
    expect(html).not.toContain('Thank you!');
    expect(html).not.toContain('Your submission has been received.');
  });

  it('escapes script tags and entities in title and message', () => {
    const html = thankYouPage({
      title: '<script>alert(1)</script>',
      message: '<img src=x onerror=alert(1)> Tom & "Jerry"',
      design: {},
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(html).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; Tom &amp; &quot;Jerry&quot;');
  });

  it('is a small accessible, responsive document', () => {
    const html = thankYouPage({ design: {} });
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('name="viewport"');
    expect(html).toMatch(/<main>[\s\S]*<h1>[\s\S]*<\/main>/);
    expect(html).not.toMatch(/<script|<link|src=/i);
  });

  it('is the same for the same inputs, so a dropped post cannot be told apart', () => {
    expect(thankYouPage({ design: { theme: 'dark' } })).toBe(
      thankYouPage({ design: { theme: 'dark' } }),
    );
  });

  it('links back only to an http(s) backUrl', () => {
    const linked = thankYouPage({ design: {}, backUrl: 'https://shop.example.com/contact' });
    expect(linked).toContain('<a href="https://shop.example.com/contact">Go back</a>');
    const refused = thankYouPage({ design: {}, backUrl: 'javascript:alert(1)' });
    expect(refused).not.toContain('<a ');
    expect(refused).not.toContain('javascript');
  });
});

describe('the design', () => {
  it('uses a valid #rrggbb accent, in either case', () => {
    expect(styleOf(thankYouPage({ design: { accent: '#ff0066' } }))).toContain('--accent:#ff0066');
    expect(styleOf(thankYouPage({ design: { accent: '#ABCDEF' } }))).toContain('--accent:#ABCDEF');
  });

  it('never puts an unchecked accent into the CSS', () => {
    for (const accent of [
      'red;}</style><script>alert(1)</script>',
      '#ff0066;}body{display:none',
      '#ff006',
      '#ff00667',
      'red',
      '#ff0066 ',
    ]) {
      const html = thankYouPage({ design: { accent } });
      expect(html, accent).not.toContain('<script>');
      expect(html, accent).not.toContain(accent);
      expect(styleOf(html), accent).not.toContain('display:none');
    }
  });

  it('light and dark themes pin one scheme; auto follows the system setting', () => {
    const light = styleOf(thankYouPage({ design: { theme: 'light' } }));
    expect(light).toContain('color-scheme:light');
    expect(light).not.toContain('prefers-color-scheme');
    expect(light).not.toContain('color-scheme:dark');
    const dark = styleOf(thankYouPage({ design: { theme: 'dark' } }));
    expect(dark).toContain('color-scheme:dark');
    expect(dark).not.toContain('prefers-color-scheme');
    expect(dark).not.toContain('color-scheme:light');
    const auto = styleOf(thankYouPage({ design: { theme: 'auto' } }));
    expect(auto).toContain('@media (prefers-color-scheme:dark)');
    expect(styleOf(thankYouPage({ design: {} }))).toBe(auto);
  });

  it('the accent applies over both schemes of the auto theme', () => {
    const css = styleOf(thankYouPage({ design: { accent: '#123456' } }));
    // After the media query, so it overrides the dark default accent too.
    expect(css.lastIndexOf('--accent:#123456')).toBeGreaterThan(css.indexOf('@media'));
  });
});

describe('errorPage', () => {
  const base = { status: 423, title: 'This form is closed', message: 'Back in spring.' };

  it('shows the status, title and reason', () => {
    const html = errorPage(base);
    expect(html).toContain('Error 423');
    expect(html).toContain('<h1>This form is closed</h1>');
    expect(html).toContain('Back in spring.');
  });

  it('escapes the reason', () => {
    const html = errorPage({ ...base, message: 'Closed for <b>winter</b>' });
    expect(html).toContain('Closed for &lt;b&gt;winter&lt;/b&gt;');
    expect(bodyOf(html)).not.toContain('<b>');
  });

  it('links back to the posting page, escaping quotes inside the attribute', () => {
    const html = errorPage({ ...base, backUrl: 'https://www.example.com/contact?x="1"&y=\'2\'' });
    expect(html).toContain(
      '<a href="https://www.example.com/contact?x=&quot;1&quot;&amp;y=&#39;2&#39;">Go back</a>',
    );
  });

  it('an attribute break-out attempt stays inside the href', () => {
    const html = errorPage({ ...base, backUrl: 'https://a.example/"><script>alert(1)</script>' });
    expect(html).not.toContain('<script>');
    expect(html).toContain('href="https://a.example/&quot;&gt;&lt;script&gt;');
  });

  it.each([
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/',
    '/relative/path',
    'not a url',
    '',
  ])('refuses backUrl %j and offers the back button instead', (backUrl) => {
    const html = errorPage({ ...base, backUrl });
    expect(bodyOf(html)).not.toContain('<a ');
    expect(html).toContain('back button');
  });

  describe('the refusal of a post (posted: the pasted form, the hosted page without script)', () => {
    const refused = { ...base, status: 429, title: 'Too many submissions', posted: true };

    it('always says the way back: the browser’s back button keeps what was typed', () => {
      for (const backUrl of [
        undefined,
        'https://shop.example.com/',
        'https://shop.example.com/contact',
      ]) {
        expect(bodyOf(errorPage({ ...refused, backUrl }))).toContain(
          'Nothing was sent. Your browser’s back button returns to the form, with what you typed still in it.',
        );
      }
    });

    it('links to the form’s page by its Referer; an origin alone is said as where it goes, not "Go back"', () => {
      expect(errorPage({ ...refused, backUrl: 'https://shop.example.com/contact' })).toContain(
        '<a href="https://shop.example.com/contact">Go back to the form</a>',
      );
      const home = errorPage({ ...refused, backUrl: 'https://shop.example.com/' });
      expect(home).toContain('<a href="https://shop.example.com/">Go to shop.example.com</a>');
      expect(home).not.toContain('Go back');
    });

    it('escapes the Referer it links to, and links to none that is not http(s)', () => {
      const broken = errorPage({
        ...refused,
        backUrl: 'https://a.example/"><script>alert(1)</script>',
      });
      expect(broken).not.toContain('<script>');
      expect(broken).toContain('href="https://a.example/&quot;&gt;&lt;script&gt;');
      const scripted = errorPage({ ...refused, backUrl: 'javascript:alert(1)' });
      expect(bodyOf(scripted)).not.toContain('<a ');
      expect(scripted).toContain('back button returns to the form');
    });

    it('a 429 says when to send it again, from its Retry-After', () => {
      expect(errorPage({ ...refused, retryAfterSeconds: 37 })).toContain(
        'Wait about 40 seconds, then send the form again.',
      );
      expect(errorPage({ ...refused, retryAfterSeconds: 3 })).toContain('Wait a few seconds');
      expect(errorPage({ ...refused, retryAfterSeconds: 60 })).toContain('Wait about a minute');
      expect(errorPage(refused)).not.toContain('Wait');
    });
  });

  it('uses the design when given, the auto theme otherwise', () => {
    expect(styleOf(errorPage({ ...base, design: { theme: 'dark', accent: '#00aa00' } }))).toContain(
      '--accent:#00aa00',
    );
    expect(styleOf(errorPage(base))).toContain('prefers-color-scheme');
  });
});

describe('methodNotAllowedPage', () => {
  it('says the address receives form posts and is not a page to open', () => {
    const html = methodNotAllowedPage();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Error 405');
    expect(html).toContain('POST');
    expect(html).toMatch(/<h1>[^<]*form submissions<\/h1>/);
    expect(html).toContain('not a web page to open');
  });
});
