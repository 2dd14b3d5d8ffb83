import { createServer } from 'node:net';
import { expect, startTerminal, stopTerminal, test, watchConsole } from './fixtures';

// Issue #20 item 10: every start logged a Content-Security-Policy error (zod probing `new Function`),
// and no test noticed. Now the fixture fails any test whose pages log an error; these tests check
// the guard itself and the start that used to log.

interface CspRecordingPage {
  cspViolations: string[];
  document: {
    addEventListener(
      type: 'securitypolicyviolation',
      listener: (event: { violatedDirective: string; blockedURI: string }) => void,
    ): void;
  };
}

test('the guard records console errors and uncaught page errors, and stops when closed', async ({
  browser,
}) => {
  const context = await browser.newContext();
  try {
    const guard = watchConsole(context);
    const page = await context.newPage();
    await page.setContent('<p>quiet</p>');
    await page.evaluate(() => console.log('an ordinary log line'));
    expect(guard.problems).toEqual([]);
    await page.evaluate(() => console.error('a console error'));
    await page.evaluate(() => setTimeout(() => Promise.reject(new Error('nobody caught this'))));
    await expect.poll(() => guard.problems.length).toBe(2);
    expect(guard.problems[0]).toContain('console error: a console error');
    expect(guard.problems[1]).toContain('page error: Error: nobody caught this');
    guard.close();
    await page.evaluate(() => console.error('after closing'));
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(guard.problems).toHaveLength(2);
  } finally {
    await context.close();
  }
});

test('the terminal starts without a Content-Security-Policy refusal or any console error', async ({
  page,
  terminal,
  consoleGuard,
}) => {
  // The page's own record of CSP refusals, beside the console's (the test runs in Node: no DOM types).
  await page.addInitScript(() => {
    const page = globalThis as unknown as CspRecordingPage;
    page.cspViolations = [];
    page.document.addEventListener('securitypolicyviolation', (event) =>
      page.cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  await page.goto(terminal.url);
  await expect(page.getByTestId('leaderboard-table').getByTestId('table-row').first()).toBeVisible({
    timeout: 30_000,
  });
  // Every schema parse of the first page has run by now; a refused `new Function` would be logged.
  expect(await page.evaluate(() => (globalThis as unknown as CspRecordingPage).cspViolations)).toEqual([]);
  expect(consoleGuard.problems).toEqual([]);
});

/** A port of 127.0.0.1 that was free a moment ago and has nobody listening. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test("a terminal the test stopped is not the page's fault; any other failure still is", async ({
  browser,
}) => {
  const context = await browser.newContext();
  const terminal = await startTerminal();
  try {
    const guard = watchConsole(context);
    const page = await context.newPage();
    await page.goto(terminal.url);
    await expect(page.getByTestId('service-state')).toBeVisible({ timeout: 30_000 });
    // A request to an address no terminal had fails, and counts.
    const closed = await closedPort();
    await page.evaluate((url) => fetch(url).catch(() => null), `http://127.0.0.1:${closed}/nothing`);
    await expect.poll(() => guard.problems.length).toBe(1);
    expect(guard.problems[0]).toContain('Failed to load resource: net::ERR_CONNECTION_REFUSED');

    await stopTerminal(terminal);
    // The page keeps calling its stopped terminal: those failures are the test's doing.
    await page.evaluate(() => fetch('/ipc/settings:get', { method: 'POST' }).catch(() => null));
    await page.evaluate(() => console.error('the page logged this itself'));
    await expect.poll(() => guard.problems.length).toBe(2);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(guard.problems).toHaveLength(2);
    expect(guard.problems[1]).toContain('the page logged this itself');
  } finally {
    await context.close();
    await stopTerminal(terminal);
  }
});
