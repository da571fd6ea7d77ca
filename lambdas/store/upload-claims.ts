import { uploadClaimKey } from './keys.ts';
import { getItem } from './table.ts';

/** Whether a stored submission used this direct upload (its claim stands). */
export async function uploadClaimed(formId: string, uploadId: string): Promise<boolean> {
  return (await getItem(uploadClaimKey(formId, uploadId), { consistent: true })) !== undefined;
}
