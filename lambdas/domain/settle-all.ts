/**
 * Waits for every promise, then throws the first failure, if any. Where a
 * failure is cleaned up by the caller (files of a post not stored), the
 * clean-up must not run while another write is still under way: that write
 * would land after it, with nothing pointing at it.
 */
export async function settleAll<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}
