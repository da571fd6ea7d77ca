import { describe, expect, it } from 'vitest';
import { submissionPageUrl } from '#domain/dashboard-links.ts';
import { fillTemplate, placeholderProblem, placeholdersIn } from '#domain/email-placeholders.ts';

describe('placeholders of the email texts', () => {
  it('reads each {{…}} with its kind: the form’s own, an answer, or unknown', () => {
    expect(
      placeholdersIn('{{ form.name }} {{field.first name}} {{name}} {{field.}} {single}').map(
        (use) => [use.written, use.name, use.kind],
      ),
    ).toEqual([
      ['{{ form.name }}', 'form.name', 'form'],
      ['{{field.first name}}', 'field.first name', 'field'],
      ['{{name}}', 'name', 'unknown'],
      ['{{field.}}', 'field.', 'unknown'],
    ]);
  });

  it('a text without an unknown placeholder has no problem', () => {
    expect(placeholderProblem('New: {{form.name}} from {{field.email}}')).toBeUndefined();
    expect(placeholderProblem('No placeholder, {braces} and {{unclosed')).toBeUndefined();
  });

  it('fills what it knows, an answer through the caller, and anything else with nothing', () => {
    const filled = fillTemplate('{{form.name}}|{{field.topic}}|{{field.none}}|{{name}}', {
      form: { id: 'f', name: 'Contact' },
      submission: { id: 's', createdAt: '2026-01-01T00:00:00.000Z' },
      answer: (name) => (name === 'topic' ? 'Billing {{form.id}}' : undefined),
    });
    // An answer that looks like a placeholder is text: filled values are not read again.
    expect(filled).toBe('Contact|Billing {{form.id}}||');
  });
});

describe('submissionPageUrl', () => {
  it('is the dashboard page of the submission under the base URL, its parts encoded', () => {
    expect(submissionPageUrl('https://x.example/prod', 'f-1', 's-2')).toBe(
      'https://x.example/prod/app/forms/f-1/submissions/s-2',
    );
    expect(submissionPageUrl('http://127.0.0.1:3000', 'a/b', 'c?d')).toBe(
      'http://127.0.0.1:3000/app/forms/a%2Fb/submissions/c%3Fd',
    );
  });
});
