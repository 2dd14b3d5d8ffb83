// Sums the vitest and Playwright JSON reports into the one line CI reads, and exits non-zero
// when any suite failed or did not report at all.
import { existsSync, readFileSync } from 'node:fs';

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);
let passed = 0;
let failed = 0;
let skipped = 0;
const problems = [];

const vitest = read('test-results/vitest.json');
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
  // A file that failed to load has no tests but is a failure.
  const brokenFiles = vitest.testResults.filter(
    (f) => f.status === 'failed' && f.assertionResults.length === 0,
  );
  if (brokenFiles.length > 0) {
    failed += brokenFiles.length;
    problems.push(`vitest could not run ${brokenFiles.map((f) => f.name).join(', ')}`);
  }
} else problems.push('vitest wrote no report');

const playwright = read('test-results/playwright.json');
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky;
  failed += playwright.stats.unexpected;
  skipped += playwright.stats.skipped;
  for (const error of playwright.errors ?? []) problems.push(`playwright: ${error.message?.split('\n')[0]}`);
  if ((playwright.errors ?? []).length > 0 && playwright.stats.unexpected === 0) failed += 1;
} else problems.push('playwright wrote no report');

for (const problem of problems) console.log(`problem: ${problem}`);
if (problems.length > 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
