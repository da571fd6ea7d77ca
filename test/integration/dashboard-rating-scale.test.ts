import { describe, expect, it, vi } from 'vitest';
import { teamWithOwner } from '#test/support/accounts.ts';
import { api, stack } from '#test/support/api.ts';
import { chromiumForFile } from '#test/support/browser.ts';
import {
  dashboardAs,
  expectAccessible,
  reloadUntil,
  summaryFact,
} from '#test/support/dashboard.ts';
import { seedSubmissions } from '#test/support/seed-submissions.ts';
import { localStore } from '#test/support/store.ts';

/**
 * A rating from 0 (docs/forms.md#ratings-and-scores) through the
 * dashboard: the builder makes the feedback form's stars a 0–10 score, a
 * visitor answers 0 on the hosted page, and the summary screen counts the
 * 60 answers of issue 29 (three of them 0) under "Score" with the NPS
 * counted here from the answers.
 */

vi.setConfig({ testTimeout: 120_000 });

const chromium = chromiumForFile();

/** The 60 answers to "How likely… 0–10", three of them 0 (one posted through the page). */
const ANSWERS = [
  0,
  0,
  0,
  ...[1, 2, 3, 4, 5, 6, 6, 5, 4],
  ...Array<number>(12).fill(7),
  ...Array<number>(12).fill(8),
  ...Array<number>(12).fill(9),
  ...Array<number>(12).fill(10),
];

describe('a rating from 0 in the dashboard', () => {
  it('the builder sets the scale, the hosted page draws 0 to 10, the summary counts every answer under Score with its NPS', async () => {
    await localStore();
    const owner = await teamWithOwner('pro');
    const created = await api('POST', '/v1/forms', {
      key: owner.apiKey,
      body: { name: 'Recommend', type: 'feedback' },
    });
    const formId = created.body.id as string;
    const key = created.body.key as string;
    const dashboard = await dashboardAs(chromium(), owner.email, {
      path: `/forms/${formId}/summary`,
    });
    const { page } = dashboard;
    const ratingTable = page
      .locator('section.counts')
      .filter({ has: page.getByRole('heading', { name: /^Rating \(/ }) });
    try {
      // Stars until the scale starts at 0.
      await ratingTable.getByRole('columnheader', { name: 'Stars' }).waitFor();

      await page.goto(`${stack().baseUrl}/app/forms/${formId}/fields`);
      // Cards are collapsed to a line each: opened to edit.
      await page.getByRole('button', { name: /^Field 1: Rating/ }).click();
      const rating = page.getByRole('group', { name: 'Field 1: Rating' });
      await rating.getByLabel('Stars (3 to 10)').waitFor();
      await rating.getByLabel('Scale starts at').selectOption('0');
      await rating.getByLabel('Highest score (3 to 10)').fill('10');
      await page.getByRole('button', { name: 'Save fields' }).click();
      await page.getByText('Fields saved.').waitFor();
      const fields = (await api('GET', `/v1/forms/${formId}`, { key: owner.apiKey })).body
        .fields as Record<string, unknown>[];
      expect(fields[0]).toMatchObject({ id: 'rating', type: 'rating', min: 0, max: 10 });
      await expectAccessible(page, 'fields builder with a rating from 0');
      // Read back as saved: the builder shows the scale it stored.
      await page.reload();
      await page.getByRole('button', { name: /^Field 1: Rating/ }).click();
      expect(
        await page
          .getByRole('group', { name: 'Field 1: Rating' })
          .getByLabel('Scale starts at')
          .inputValue(),
      ).toBe('0');

      // A visitor answers 0 on the hosted page: stored as a valid answer.
      const visitor = await chromium().newPage();
      try {
        await visitor.goto(`${stack().baseUrl}/f/${key}`);
        const radios = visitor.getByRole('group', { name: /Rating/ }).getByRole('radio');
        expect(
          await radios.evaluateAll((all) => all.map((r) => (r as HTMLInputElement).value)),
        ).toEqual(Array.from({ length: 11 }, (_, n) => String(n)));
        await visitor.getByLabel('0 of 10', { exact: true }).check();
        await visitor.getByRole('button', { name: 'Send' }).click();
        await visitor.getByText('Your submission has been received.').waitFor();
      } finally {
        await visitor.close();
      }
      const posted = await api('GET', `/v1/forms/${formId}/submissions`, { key: owner.apiKey });
      expect((posted.body.items as { data: object }[])[0]!.data).toEqual({
        rating: '0',
        message: '',
      });
      await seedSubmissions({
        formId,
        teamId: owner.teamId,
        count: ANSWERS.length - 1,
        data: (i) => ({ rating: String(ANSWERS[i + 1]), message: '' }),
      });

      // What the summary must say, counted from the answers.
      const promoters = ANSWERS.filter((a) => a >= 9).length;
      const detractors = ANSWERS.filter((a) => a <= 6).length;
      const nps = Math.round((100 * (promoters - detractors)) / ANSWERS.length);
      expect(nps).toBe(20);
      await page.goto(`${stack().baseUrl}/app/forms/${formId}/summary`);
      const fact = (term: string) => summaryFact(page, term);
      await reloadUntil(page, () => fact('Submissions').textContent(), '60');
      expect(await fact('NPS').textContent()).toBe(String(nps));
      expect(await fact('Detractors').textContent()).toBe(String(detractors));
      expect(await fact('Promoters').textContent()).toBe(String(promoters));
      await ratingTable.getByRole('columnheader', { name: 'Score' }).waitFor();
      expect(await ratingTable.getByRole('columnheader', { name: 'Stars' }).count()).toBe(0);
      const rows = await ratingTable
        .locator('tbody tr')
        .evaluateAll((all) =>
          all.map((row) => [
            row.querySelector('th')?.textContent,
            Number(row.querySelector('.count-number')?.textContent),
          ]),
        );
      expect(rows).toEqual(
        Array.from({ length: 11 }, (_, n) => [String(n), ANSWERS.filter((a) => a === n).length]),
      );
      expect(rows.reduce((sum, [, count]) => sum + Number(count), 0)).toBe(60);
      await expectAccessible(page, 'summary of a 0–10 score');
      expect(dashboard.errors).toEqual([]);
    } finally {
      await dashboard.close();
    }
  });
});
