import { describe, it, expect } from 'vitest';
import { InputError } from '../../src/base/inputError.ts';
import { dedupSizing, describeDedup } from '../../src/capacity/dedup.ts';

describe('dedupSizing', () => {
  it('sizes 18,000/s kept for 12 h at 96 B as 777,600,000 entries and 74.6496 GB', () => {
    const sizing = dedupSizing({ ratePerSec: 18000, windowSec: 43200, entryBytes: 96 });
    expect(sizing.entries.toFixed()).toBe('777600000');
    expect(sizing.logicalBytes.toFixed()).toBe('74649600000');
    expect(sizing.entriesExact).toBe(true);
    const { text, json } = describeDedup(sizing);
    expect(text).toBe(
      [
        'dedup sizing: 18,000/s kept for 12 h (43,200 s), 96 B per entry (GB = 10^9 bytes)',
        '  entries      = 18,000/s × 43,200 s = 777,600,000',
        '  logical size = 777,600,000 × 96 B = 74,649,600,000 B = 74.6496 GB',
      ].join('\n'),
    );
    expect(json).toMatchObject({ entries: '777600000', logicalBytes: '74649600000', logicalGB: '74.6496' });
  });

  it('sizes 20,000,000/day kept for 7 days at 64 B as 140,000,000 rows and 8.96 GB', () => {
    const sizing = dedupSizing({ ratePerDay: 20000000, windowSec: 604800, entryBytes: 64 });
    const { text, json } = describeDedup(sizing);
    expect(text).toContain('  entries      = 20,000,000/d × 7 d = 140,000,000\n');
    expect(text).toContain('= 8,960,000,000 B = 8.96 GB');
    expect(json).toMatchObject({ rate: '20000000/d', entries: '140000000', logicalGB: '8.96' });
  });

  it('multiplies by replication and amplification without float residue', () => {
    // 74.6496 × 3 × 1.1 is 246.34368 exactly; in binary floats it is 246.34368000000004.
    const sizing = dedupSizing({ ratePerSec: 18000, windowSec: 43200, entryBytes: 96, replication: 3, amplification: '1.1' });
    const { text, json } = describeDedup(sizing);
    expect(text).toContain('  replicated size = 74.6496 GB × 3 copies = 223.9488 GB');
    expect(text).toContain('  physical size   = 223.9488 GB × 1.1 amplification = 246.34368 GB');
    expect(json).toMatchObject({ replicatedGB: '223.9488', physicalGB: '246.34368', physicalBytes: '246343680000' });
  });

  it('rounds a fractional entry count up and says so', () => {
    // 20,000,000 a day for one hour is 833,333.33… entries; a store holds 833,334.
    const sizing = dedupSizing({ ratePerDay: 20000000, windowSec: 3600, entryBytes: 64 });
    expect(sizing.entries.toFixed()).toBe('833334');
    const { text, json } = describeDedup(sizing);
    expect(text).toContain('= 20,000,000/d × 3,600 s ÷ 86,400 s/d = 833,334 (rounded up to a whole entry)');
    expect(json).toMatchObject({ entriesRoundedUp: true });
  });

  it('leaves the physical lines out when neither replication nor amplification was given', () => {
    const { text, json } = describeDedup(dedupSizing({ ratePerSec: 1, windowSec: 10, entryBytes: 100 }));
    expect(text).not.toContain('physical');
    expect(json).toMatchObject({ replication: '1', amplification: '1', physicalGB: '0.000001' });
  });

  it('refuses a missing or doubled rate, zero figures and partial replicas', () => {
    expect(() => dedupSizing({ windowSec: 1, entryBytes: 1 })).toThrow(InputError);
    expect(() => dedupSizing({ ratePerSec: 1, ratePerDay: 1, windowSec: 1, entryBytes: 1 })).toThrow(InputError);
    expect(() => dedupSizing({ ratePerSec: 0, windowSec: 1, entryBytes: 1 })).toThrow('rate must be greater than zero');
    expect(() => dedupSizing({ ratePerSec: 1, windowSec: -1, entryBytes: 1 })).toThrow(InputError);
    expect(() => dedupSizing({ ratePerSec: 1, windowSec: 1, entryBytes: 1, replication: 2.5 })).toThrow(
      'replication must be a whole number of copies, got 2.5',
    );
  });
});
