import { describe, expect, it } from 'vitest';
import { settleAll } from '#domain/settle-all.ts';

describe('settleAll', () => {
  it('answers every value in order', async () => {
    expect(await settleAll([Promise.resolve(1), Promise.resolve(2)])).toEqual([1, 2]);
  });

  it('throws the first failure only after every other promise has ended', async () => {
    let slowEnded = false;
    const slow = new Promise<number>((resolve) =>
      setTimeout(() => {
        slowEnded = true;
        resolve(1);
      }, 30),
    );
    const failing = Promise.reject(new Error('put failed'));
    await expect(settleAll([failing, slow])).rejects.toThrow('put failed');
    // Promise.all would have thrown at once, with the slow write still under way.
    expect(slowEnded).toBe(true);
  });
});
