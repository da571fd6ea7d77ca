import type { Page } from 'playwright-core';
import { teamWithOwner } from './accounts.ts';
import { api } from './api.ts';

/** An owner of a team on `plan` with one contact form, and a read of the form as saved. */
export async function ownerWithForm(plan: 'free' | 'pro', name: string) {
  const owner = await teamWithOwner(plan);
  const created = await api('POST', '/v1/forms', {
    key: owner.apiKey,
    body: { name, type: 'contact' },
  });
  const formId = created.body.id as string;
  const saved = async () =>
    (await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey })).body as Record<
      string,
      unknown
    >;
  return { owner, formId, saved };
}

/**
 * The element that has the keyboard: its tag, id and text, and for a text
 * area the text selected in it (an error summary's link selects a bad line).
 */
export function focusedElement(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    const selected =
      element instanceof HTMLTextAreaElement
        ? element.value.slice(element.selectionStart, element.selectionEnd)
        : undefined;
    return { tag: element?.tagName, id: element?.id, text: element?.textContent, selected };
  });
}
