import { describe, expect, it } from 'vitest';
import { faultUnderLoad } from './fault-scenario.js';

describe('kill -9 of the database (SecantusDB)', () => {
  it('under load: nothing acknowledged lost, only 503s in the error shape meanwhile, recovered without a hand', async () => {
    const { problems, lost } = await faultUnderLoad('mongo');
    expect.soft(problems, 'answers clients should not have seen').toEqual([]);
    expect.soft(lost, 'acknowledged and lost').toEqual([]);
  });
});
