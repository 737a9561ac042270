/**
 * The one definition of "under CI" for the tests and for the test runner
 * (test/run.ts): the environment variable CI set to anything but empty,
 * `false` or `0` (CI services set `CI=true`; `.ci/run` runs there).
 *
 * Under CI every test runs: a test that needs a system tool or the shared
 * fixtures fails when it is missing (missing() in test/helper.ts), and the
 * coverage thresholds of .c8rc.json are a gate. Elsewhere such a test is
 * skipped with one line naming what is missing, and coverage is reported.
 */
export function underCI (env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase()
  return value !== undefined && value !== '' && value !== 'false' && value !== '0'
}
