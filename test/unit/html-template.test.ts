import { describe, expect, it } from 'vitest';
import { html, raw } from '#domain/html.ts';

describe('html, the escaping template', () => {
  it('escapes every interpolated string and number', () => {
    const name = '<img src=x onerror="alert(1)">&\'';
    expect(html`<p title="${name}">${name}</p>`.toString()).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;</p>',
    );
    expect(html`${42}`.toString()).toBe('42');
  });

  it('passes its own results and raw markup through, once', () => {
    const item = (text: string) => html`<li>${text}</li>`;
    expect(html`<ul>${['a<', 'b'].map(item)}</ul>`.toString()).toBe(
      '<ul><li>a&lt;</li><li>b</li></ul>',
    );
    expect(html`${raw('<br>')}`.toString()).toBe('<br>');
  });

  it('renders nothing for null, undefined and false', () => {
    expect(html`[${null}${undefined}${false}]`.toString()).toBe('[]');
  });
});
