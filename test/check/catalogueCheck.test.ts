// A bounded check of each catalogue scenario (one fault, 20,000 states, the whole bound
// searched) gives exactly the verdict, the states, end states and depth, and the first path of
// each violation that test/golden/catalogue-check.txt keeps: a change to the search, its world
// or a model that moves any of them is seen here, whatever it does to the verdicts. The quick
// suite checks the sampled scenarios, the catalogue suite every one (test/support/suite.ts).
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/scenario/catalogue.ts';
import { check } from '../../src/modes/check/check.ts';
import { asJsonScenario, CHECK_MAX_STATES, readGolden, scenarioDifferences } from '../golden/catalogueGolden.ts';
import { SAMPLE_SCENARIOS, sampled } from '../support/suite.ts';

const entries = await loadCatalogue();

describe('a bounded check of the catalogue', () => {
  it('is kept in test/golden/catalogue-check.txt for every scenario and no other', () => {
    expect([...readGolden('check').keys()].sort()).toEqual(entries.map((e) => e.scenario.name).sort());
  });

  it.each(sampled(entries, (e) => SAMPLE_SCENARIOS.includes(e.scenario.name)).map((e) => [e.scenario.name, e] as const))('%s: as the golden file has it', (name, { scenario }) => {
    const r = check(scenario, { faults: 1, maxStates: CHECK_MAX_STATES, ref: name });
    const differences = scenarioDifferences(asJsonScenario(r), 'check');
    expect(differences, differences.join('\n')).toEqual([]);
  });
});
