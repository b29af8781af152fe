import { configDefaults } from 'vitest/config';

// A test file's tier is its name's last suffix before `.test.ts` (docs/testing.md):
// unit, integration, e2e, process, faults, fuzz. The root vitest.config.ts runs the last two as the
// `solo-faults` and `solo-fuzz` projects, each alone after every other project; every app's and
// package's own project leaves them out with `excludeSoloTiers`, wherever in its folder they live.
export type SoloTier = 'faults' | 'fuzz';

/** The files of one solo tier anywhere in the repository (globs relative to its root). */
export const tierFiles = (tier: SoloTier) => [`{apps,packages}/*/{src,test}/**/*.${tier}.test.ts`, `infra/test/**/*.${tier}.test.ts`];

export const excludeSoloTiers = [...configDefaults.exclude, '**/*.faults.test.ts', '**/*.fuzz.test.ts'];
