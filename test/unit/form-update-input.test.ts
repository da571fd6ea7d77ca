import { describe, expect, it } from 'vitest';
import { ServiceError } from '#domain/errors.ts';
import { FORM_TYPES } from '#domain/form-model.ts';
import { parseFormUpdate } from '#domain/form-update.ts';
import type { Issue } from '#domain/validation-issues.ts';

/** The issues a refused body carries; fails the test when the body is accepted. */
function issuesFor(body: unknown): Issue[] {
  try {
    parseFormUpdate(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    const refused = error as ServiceError;
    expect(refused.status).toBe(400);
    expect(refused.code).toBe('invalid_request');
    return refused.issues as Issue[];
  }
  throw new Error(`expected ${JSON.stringify(body).slice(0, 200)} to be refused`);
}

const refusedAt = (body: unknown, path: string) =>
  expect(issuesFor(body).map((issue) => issue.path)).toContain(path);

const x = (n: number) => 'x'.repeat(n);

describe('PATCH body: text settings', () => {
  const bounded: [string, number, number][] = [
    ['name', 1, 200],
    ['closedMessage', 1, 500],
    ['notifySubject', 1, 500],
    ['notifyFromName', 1, 100],
    ['autoreplySubject', 1, 500],
    ['autoreplyBody', 1, 5000],
    ['completionTitle', 1, 200],
    ['completionMessage', 1, 2000],
    ['captchaSiteKey', 1, 200],
    ['captchaSecretKey', 1, 500],
  ];

  for (const [key, min, max] of bounded) {
    it(`${key} takes ${min} to ${max} characters and refuses one more or an empty value`, () => {
      expect(parseFormUpdate({ [key]: x(min) })).toEqual({ [key]: x(min) });
      expect(parseFormUpdate({ [key]: x(max) })).toEqual({ [key]: x(max) });
      refusedAt({ [key]: x(max + 1) }, key);
      refusedAt({ [key]: '' }, key);
      refusedAt({ [key]: '   ' }, key);
      refusedAt({ [key]: 42 }, key);
    });
  }

  it('counts characters as code points, so emoji are not double-counted', () => {
    expect(parseFormUpdate({ name: '😀'.repeat(200) }).name).toBe('😀'.repeat(200));
    refusedAt({ name: '😀'.repeat(201) }, 'name');
  });

  it('trims surrounding whitespace before storing and counting', () => {
    expect(parseFormUpdate({ name: `  ${x(200)}  ` }).name).toBe(x(200));
  });

  it('only nullable settings can be cleared with null', () => {
    for (const key of [
      'closedMessage',
      'autoreplySubject',
      'autoreplyBody',
      'completionTitle',
      'completionMessage',
      'captchaSiteKey',
      'captchaSecretKey',
      'emoji',
      'notifyEmail',
      'redirectUrl',
      'maxSubmissions',
      'autoCloseAt',
      'fields',
    ]) {
      expect(parseFormUpdate({ [key]: null })).toEqual({ [key]: null });
    }
    for (const key of ['name', 'notifySubject', 'notifyFromName', 'design', 'uploadLimitMb']) {
      refusedAt({ [key]: null }, key);
    }
  });

  it('mail header texts must be one line', () => {
    for (const key of ['notifySubject', 'notifyFromName', 'autoreplySubject']) {
      refusedAt({ [key]: 'Hello\r\nBcc: victim@example.com' }, key);
    }
    expect(parseFormUpdate({ autoreplyBody: 'Line 1\nLine 2' }).autoreplyBody).toBe(
      'Line 1\nLine 2',
    );
  });

  it('email texts refuse a {{…}} that is not a placeholder, naming the setting and listing the known ones', () => {
    for (const key of ['notifySubject', 'autoreplySubject', 'autoreplyBody']) {
      const issues = issuesFor({ [key]: 'Thanks, {{name}}' });
      expect(issues.map((issue) => issue.path)).toEqual([key]);
      expect(issues[0]!.message).toBe(
        'Unknown placeholder {{name}}. The placeholders are {{form.name}}, {{form.id}}, ' +
          '{{submission.id}}, {{submission.createdAt}} and {{field.<id>}} (the answer named <id>).',
      );
    }
    // Each unknown one once; letter case counts; `field.` needs a name, and `_invalid` is none.
    expect(
      issuesFor({
        autoreplyBody: '{{Form.Name}} {{ team.name }} {{}} {{field.}} {{field._invalid}} {{}}',
      })[0]!.message,
    ).toMatch(
      /^Unknown placeholders \{\{Form\.Name\}\}, \{\{ team\.name \}\}, \{\{\}\}, \{\{field\.\}\}, \{\{field\._invalid\}\}\. /,
    );
    // Other settings take braces as text.
    expect(parseFormUpdate({ completionMessage: 'Hi {{name}}' }).completionMessage).toBe(
      'Hi {{name}}',
    );
  });

  it('email texts take the known placeholders, spaces inside the braces and any answer name', () => {
    const text =
      '{{form.name}} {{ form.id }} {{submission.id}} {{submission.createdAt}} {{field.email}} {{field.first name}} {single} {{unclosed';
    for (const key of ['notifySubject', 'autoreplySubject', 'autoreplyBody']) {
      expect(parseFormUpdate({ [key]: text })).toEqual({ [key]: text });
    }
  });

  it('emoji takes up to 32 characters; an empty one means none', () => {
    expect(parseFormUpdate({ emoji: '📝' }).emoji).toBe('📝');
    expect(parseFormUpdate({ emoji: '👍'.repeat(32) }).emoji).toBe('👍'.repeat(32));
    refusedAt({ emoji: '👍'.repeat(33) }, 'emoji');
    expect(parseFormUpdate({ emoji: '' }).emoji).toBeNull();
  });

  it('notifyEmail must be an email address', () => {
    expect(parseFormUpdate({ notifyEmail: ' team@example.com ' }).notifyEmail).toBe(
      'team@example.com',
    );
    refusedAt({ notifyEmail: 'not-an-email' }, 'notifyEmail');
    refusedAt({ notifyEmail: '' }, 'notifyEmail');
  });

  it('notifyCc takes up to 4 addresses, each refused at its index, kept once whatever the case', () => {
    expect(
      parseFormUpdate({ notifyCc: ['A@example.com', ' a@EXAMPLE.com', 'b@example.com'] }).notifyCc,
    ).toEqual(['A@example.com', 'b@example.com']);
    refusedAt({ notifyCc: ['a@example.com', 'nope'] }, 'notifyCc.1');
    refusedAt({ notifyCc: ['a@x.com', 'b@x.com', 'c@x.com', 'd@x.com', 'e@x.com'] }, 'notifyCc');
    refusedAt({ notifyCc: null }, 'notifyCc');
  });
});

describe('PATCH body: numbers, enums, booleans and dates', () => {
  it('maxSubmissions is a whole number from 1 to 1,000,000', () => {
    expect(parseFormUpdate({ maxSubmissions: 1 }).maxSubmissions).toBe(1);
    expect(parseFormUpdate({ maxSubmissions: 1_000_000 }).maxSubmissions).toBe(1_000_000);
    refusedAt({ maxSubmissions: 0 }, 'maxSubmissions');
    refusedAt({ maxSubmissions: 1_000_001 }, 'maxSubmissions');
    refusedAt({ maxSubmissions: 1.5 }, 'maxSubmissions');
    refusedAt({ maxSubmissions: '10' }, 'maxSubmissions');
  });

  it('uploadLimitMb is a whole number from 1 to 100', () => {
    expect(parseFormUpdate({ uploadLimitMb: 1 }).uploadLimitMb).toBe(1);
    expect(parseFormUpdate({ uploadLimitMb: 100 }).uploadLimitMb).toBe(100);
    refusedAt({ uploadLimitMb: 0 }, 'uploadLimitMb');
    refusedAt({ uploadLimitMb: 101 }, 'uploadLimitMb');
    refusedAt({ uploadLimitMb: 2.5 }, 'uploadLimitMb');
  });

  it('type, status and completionMode take only their listed values', () => {
    for (const type of FORM_TYPES) expect(parseFormUpdate({ type }).type).toBe(type);
    refusedAt({ type: 'survey' }, 'type');
    for (const status of ['active', 'paused']) {
      expect(parseFormUpdate({ status }).status).toBe(status);
    }
    refusedAt({ status: 'closed' }, 'status');
    for (const completionMode of ['default', 'message', 'redirect']) {
      expect(parseFormUpdate({ completionMode }).completionMode).toBe(completionMode);
    }
    refusedAt({ completionMode: 'popup' }, 'completionMode');
  });

  it('switches are booleans, not strings', () => {
    for (const key of [
      'notifyEnabled',
      'autoreplyEnabled',
      'captchaEnabled',
      'dontStoreIp',
      'allowUploads',
    ]) {
      expect(parseFormUpdate({ [key]: false })).toEqual({ [key]: false });
      refusedAt({ [key]: 'true' }, key);
    }
  });

  it('autoCloseAt is an ISO 8601 time with an offset, stored in UTC with milliseconds', () => {
    expect(parseFormUpdate({ autoCloseAt: '2030-01-01T00:00:00Z' }).autoCloseAt).toBe(
      '2030-01-01T00:00:00.000Z',
    );
    expect(parseFormUpdate({ autoCloseAt: '2030-01-01T02:30:00.5+02:30' }).autoCloseAt).toBe(
      '2030-01-01T00:00:00.500Z',
    );
    refusedAt({ autoCloseAt: '2030-01-01' }, 'autoCloseAt');
    refusedAt({ autoCloseAt: '2030-01-01T00:00:00' }, 'autoCloseAt');
    refusedAt({ autoCloseAt: '2030-02-30T00:00:00Z' }, 'autoCloseAt');
    refusedAt({ autoCloseAt: 1893456000000 }, 'autoCloseAt');
  });
});

describe('PATCH body: redirect URL', () => {
  it('takes an http or https URL up to 2,048 characters', () => {
    const url = 'https://example.com/thanks?from=form';
    expect(parseFormUpdate({ redirectUrl: url }).redirectUrl).toBe(url);
    expect(parseFormUpdate({ redirectUrl: 'http://example.com' }).redirectUrl).toBe(
      'http://example.com',
    );
    const longest = `https://example.com/${x(2048 - 20)}`;
    expect(longest).toHaveLength(2048);
    expect(parseFormUpdate({ redirectUrl: longest }).redirectUrl).toBe(longest);
    refusedAt({ redirectUrl: `${longest}x` }, 'redirectUrl');
  });

  it('refuses other schemes and things that are not URLs', () => {
    for (const bad of ['javascript:alert(1)', 'ftp://example.com', '/thanks', 'example.com']) {
      refusedAt({ redirectUrl: bad }, 'redirectUrl');
    }
  });

  it('an empty string removes it, like null', () => {
    expect(parseFormUpdate({ redirectUrl: '' }).redirectUrl).toBeNull();
    expect(parseFormUpdate({ redirectUrl: '  ' }).redirectUrl).toBeNull();
  });
});

describe('PATCH body: design', () => {
  it('takes the six known keys within their bounds', () => {
    const design = {
      theme: 'dark',
      accent: '#1a2b3c',
      title: x(200),
      description: x(2000),
      submitLabel: x(50),
      successMessage: x(500),
    };
    expect(parseFormUpdate({ design }).design).toEqual(design);
    for (const [key, max] of [
      ['title', 200],
      ['description', 2000],
      ['submitLabel', 50],
      ['successMessage', 500],
    ] as const) {
      refusedAt({ design: { [key]: x(max + 1) } }, `design.${key}`);
    }
  });

  it('theme is light, dark or auto; accent is a #rrggbb colour, stored lower-case', () => {
    for (const theme of ['light', 'dark', 'auto']) {
      expect(parseFormUpdate({ design: { theme } }).design).toEqual({ theme });
    }
    refusedAt({ design: { theme: 'blue' } }, 'design.theme');
    expect(parseFormUpdate({ design: { accent: '#ABCDEF' } }).design).toEqual({
      accent: '#abcdef',
    });
    for (const accent of ['#abc', 'red', '#abcdeg', 'abcdef']) {
      refusedAt({ design: { accent } }, 'design.accent');
    }
  });

  it('refuses keys it does not know, each at its own path', () => {
    const issues = issuesFor({ design: { theme: 'dark', font: 'Comic Sans', color: 'red' } });
    expect(issues.map((issue) => issue.path)).toEqual(['design.font', 'design.color']);
  });

  it('an empty design is allowed', () => {
    expect(parseFormUpdate({ design: {} }).design).toEqual({});
  });
});

describe('PATCH body: shape', () => {
  it('an empty object is a valid no-op, and so is no body', () => {
    expect(parseFormUpdate({})).toEqual({});
    expect(parseFormUpdate(undefined)).toEqual({});
  });

  it('refuses unknown and read-only keys, one issue per key', () => {
    const issues = issuesFor({
      name: 'ok',
      nmae: 'typo',
      id: 'x',
      key: 'x',
      closedReason: null,
      captchaProvider: 'turnstile',
      captchaSecretKeySet: true,
      createdAt: 'x',
    });
    expect(issues.map((issue) => issue.path).sort()).toEqual(
      [
        'captchaProvider',
        'captchaSecretKeySet',
        'closedReason',
        'createdAt',
        'id',
        'key',
        'nmae',
      ].sort(),
    );
    for (const issue of issues) expect(issue.code).toBe('unrecognized_keys');
  });

  it('refuses a body that is not an object', () => {
    for (const body of [[], 'name', 42]) expect(issuesFor(body)).toHaveLength(1);
  });

  it('reports every problem at once, each with a path, code and message', () => {
    const issues = issuesFor({ name: '', maxSubmissions: 0, status: 'closed' });
    expect(issues.map((issue) => issue.path).sort()).toEqual(['maxSubmissions', 'name', 'status']);
    for (const issue of issues) {
      expect(Object.keys(issue).sort()).toEqual(['code', 'message', 'path']);
      expect(issue.message.length).toBeGreaterThan(0);
    }
  });
});
