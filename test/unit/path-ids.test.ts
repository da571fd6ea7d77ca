import { describe, expect, it } from 'vitest';
import { misshapenPathId } from '#domain/ids.ts';

const UUID = '0b6f6f1e-5c1a-4a53-9d1b-4a7c7e0c2f10';

describe('path ids of the wrong shape name nothing', () => {
  it('passes well-shaped ids and names nothing for path parameters it does not know', () => {
    expect(
      misshapenPathId({ id: UUID, submissionId: UUID, index: '12', keyId: 'abcdefghij012345' }),
    ).toBeUndefined();
    expect(misshapenPathId({ key: 'any-form-key', file: 'app.js' })).toBeUndefined();
  });

  it.each([
    [{ userId: 'a'.repeat(1018) }, 'Member'],
    [{ id: UUID, submissionId: 'not-a-uuid' }, 'Submission'],
    [{ id: `${UUID}x` }, 'Form'],
    [{ keyId: 'ABCDEFGHIJ012345' }, 'API key'],
    [{ index: '1000' }, 'File'],
    [{ deliveryId: '' }, 'Delivery'],
  ])('%j names nothing: a 404 for %s', (params, what) => {
    expect(misshapenPathId(params)).toBe(what);
  });
});
