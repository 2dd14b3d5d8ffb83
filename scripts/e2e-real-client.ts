// `npm run e2e:real-client`: the API's open-source web client (copin-protocol/copin-interface, a
// Vite + React app) run in Chromium against the local service, as its users would: its explorer
// and a trader page, screenshotted into test-artifacts/real-client/, and a count of its requests to
// the service that succeeded, with the failing ones listed. Not part of `npm test`: installing
// the client takes minutes. What it shows and why is in docs/real-clients.md.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { chromium, type Page } from 'playwright-core';
import { demoTradesAsFills } from '../src/service/real-client/demo-fills';

const USAGE = `Usage: npm run e2e:real-client -- [--git-dir DIR] [--work-dir DIR] [--protocol NAME] [--fresh]
  --git-dir   a clone or mirror of github.com/copin-protocol/copin-interface
              (default $COPYDESK_REAL_CLIENT_GIT, else /work/.mirror/copin-protocol+copin-interface/repo)
  --work-dir  where the client is installed and the run's data go (default <tmp>/copydesk-real-client)
  --protocol  the client-known protocol the demo traders are imported as (default GMX_V2)
  --fresh     reinstall the client even when an install of the same commit is there
  --service-port  the port the service listens on, built into the client (default 18787)`;

/** Missing from the npm registry; a development dependency the run does not need (issue 17). */
const SKIPPED_DEV_DEPENDENCIES = ['@socket.tech/ll-core-v2'];
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = resolve('test-artifacts/real-client');
/** The calls the run adds the API key to (see `browse`). */
const KEYED = /^\/graphql$|^\/[A-Z0-9_]+\/position\/filter(\/|$)/;
/** The client's GraphQL index names are `copin.<kind>`. */
const CLIENT_NAMESPACE = ['--graphql-namespace', 'copin'];
/** Demo traders imported under the client-known protocol. */
const TRADERS_IMPORTED = 20;

interface Options {
  gitDir: string;
  workDir: string;
  protocol: string;
  fresh: boolean;
  /** The service's port, fixed: the client's build has the service address baked in. */
  servicePort: number;
}

function portOf(raw: string): number {
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) fail('--service-port must be a port number');
  return port;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      'git-dir': { type: 'string' },
      'work-dir': { type: 'string' },
      protocol: { type: 'string' },
      fresh: { type: 'boolean' },
      'service-port': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const protocol = values.protocol ?? 'GMX_V2';
  if (!/^[A-Z][A-Z0-9_]*$/.test(protocol)) fail('--protocol must be an UPPER_SNAKE_CASE protocol id');
  return {
    gitDir:
      values['git-dir'] ??
      process.env.COPYDESK_REAL_CLIENT_GIT ??
      '/work/.mirror/copin-protocol+copin-interface/repo',
    workDir: resolve(values['work-dir'] ?? join(tmpdir(), 'copydesk-real-client')),
    protocol,
    fresh: values.fresh === true,
    servicePort: portOf(values['service-port'] ?? '18787'),
  };
}

function fail(message: string): never {
  console.error(`e2e:real-client: ${message}`);
  process.exit(1);
}

const step = (message: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

/** Runs a command to its end; its output goes to ours; fails the run on a non-zero exit. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) fail(`${command} ${args.join(' ')} failed (exit ${result.status})`);
}

function git(gitDir: string, args: string[], input?: string): string {
  const result = spawnSync('git', ['--git-dir', gitDir, ...args], {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (result.status !== 0) fail(`git ${args[0]} failed: ${result.stderr.trim()}`);
  return result.stdout;
}

// ---- the client: copied out of the mirror, patched, installed ----

/**
 * Copies the client's tree at HEAD out of the mirror with `git archive`. A mirror may lack its
 * largest blobs (the charting library's bundle here); they are left out, since the pages run
 * without them.
 */
function copyClient(gitDir: string, dir: string): string {
  const commit = git(gitDir, ['rev-parse', 'HEAD']).trim();
  const tree = git(gitDir, ['ls-tree', '-r', 'HEAD']).trim().split('\n');
  const blobs = tree.map((line) => line.split(/\s+/)[2]).join('\n');
  const present = git(gitDir, ['cat-file', '--batch-check'], `${blobs}\n`).trim().split('\n');
  const missing = tree.filter((_, i) => / missing$/.test(present[i] ?? '')).map((l) => l.split('\t')[1]!);
  if (missing.length > 0) step(`the mirror lacks ${missing.length} file(s), left out: ${missing.join(', ')}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync(
    'git',
    ['--git-dir', gitDir, 'archive', 'HEAD', '--', '.', ...missing.map((p) => `:(exclude)${p}`)],
    {
      maxBuffer: 1 << 30,
    },
  );
  if (archive.status !== 0) fail(`git archive failed: ${archive.stderr.toString().trim()}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) fail('could not unpack the client');
  return commit;
}

/** The copy's own package.json and vite.config.ts, changed only where the run needs it. */
function patchClient(dir: string): void {
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  for (const name of SKIPPED_DEV_DEPENDENCIES) delete manifest.devDependencies[name];
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  // Its dev server type-checks the whole app in a worker (vite-plugin-checker): minutes of CPU that
  // show nothing on a page.
  const configPath = join(dir, 'vite.config.ts');
  const config = readFileSync(configPath, 'utf8');
  const patched = config.replace(/^\s*checker\(\{ typescript: true \}\),\n/m, '');
  if (patched === config) fail('vite.config.ts no longer has the checker line this script removes');
  writeFileSync(configPath, patched);
}

/** yarn 1 from PATH, or through npx when it is not installed. */
function yarn(): [string, string[]] {
  const found = spawnSync('yarn', ['--version'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.startsWith('1.') ? ['yarn', []] : ['npx', ['-y', 'yarn@1']];
}

function installClient(opts: Options): { dir: string; commit: string } {
  if (!existsSync(opts.gitDir))
    fail(
      `no clone of the client at ${opts.gitDir}; clone github.com/copin-protocol/copin-interface and pass --git-dir`,
    );
  const dir = join(opts.workDir, 'client');
  const head = git(opts.gitDir, ['rev-parse', 'HEAD']).trim();
  const stamp = join(dir, '.copydesk-installed');
  if (!opts.fresh && existsSync(stamp) && readFileSync(stamp, 'utf8') === head) {
    step(`the client at ${head.slice(0, 12)} is installed in ${dir}`);
    return { dir, commit: head };
  }
  step(`copying the client (${head.slice(0, 12)}) out of ${opts.gitDir}`);
  const commit = copyClient(opts.gitDir, dir);
  patchClient(dir);
  step('installing its dependencies from the npm registry (yarn 1, --ignore-scripts)');
  const [command, prefix] = yarn();
  run(
    command,
    [...prefix, 'install', '--ignore-scripts', '--ignore-engines', '--pure-lockfile', '--non-interactive'],
    dir,
  );
  writeFileSync(stamp, commit);
  return { dir, commit };
}

// ---- the local service: the demo world, its busiest traders also under a client-known protocol ----

interface Started {
  child: ChildProcess;
  url: string;
  /** Everything the process has written so far. */
  output: () => string;
}

/** Starts a process and resolves with the first match of `ready` in its output. */
function startUntil(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, ready: RegExp) {
  return new Promise<Started>((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match?.[1]) resolvePromise({ child, url: match[1], output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${command} exited ${code}:\n${output.slice(-2000)}`)));
  });
}

const serviceArgs = (db: string, extra: string[]) => [
  '--import',
  'tsx',
  'src/service/cli.ts',
  '--db',
  db,
  ...extra,
];
const LISTENING = /listening on (http:\/\/[\d.:]+)/;
/** A first start listens before it has seeded its world, then says so (docs/service.md). */
const PREPARED = /listening on (http:\/\/[\d.:]+)[\s\S]*prepared its data in/;

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The demo world's busiest traders of its busiest protocol, written as venue fills (CSV, the
 * importer's format), sizes exact so that each position closes (docs/real-clients.md).
 */
function exportFills(db: string, csv: string): void {
  const sqlite = new Database(db, { readonly: true });
  try {
    const fills = demoTradesAsFills(sqlite, TRADERS_IMPORTED);
    writeFileSync(csv, fills.csv);
    step(`exported ${fills.orders} orders of ${TRADERS_IMPORTED} ${fills.protocol} traders as fills`);
  } finally {
    sqlite.close();
  }
}

async function prepareData(opts: Options): Promise<string> {
  const dataDir = join(opts.workDir, 'data');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const db = join(dataDir, 'service.db');
  step('seeding the demo world');
  const seeding = await startUntil(
    process.execPath,
    serviceArgs(db, ['--demo', '--port', '0']),
    process.cwd(),
    process.env,
    PREPARED,
  );
  await stop(seeding.child);
  const csv = join(dataDir, 'fills.csv');
  exportFills(db, csv);
  step(`importing them as ${opts.protocol}`);
  const args = ['--import', 'tsx', 'src/service/cli.ts', 'import', '--db', db, '--protocol', opts.protocol];
  const imported = spawnSync(process.execPath, [...args, '--leverage', '5', csv], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  writeFileSync(join(dataDir, 'import.log'), imported.stdout + imported.stderr);
  if (imported.status !== 0)
    fail(`the import failed (exit ${imported.status}); see ${join(dataDir, 'import.log')}`);
  step(`  ${imported.stdout.split('\n')[0]}`);
  return db;
}

/**
 * The trader page's trader: the busiest one with an open position, so that both the open positions
 * and the history have rows (most demo traders have nothing open at a given time); else the busiest.
 */
function busiestTrader(db: string, protocol: string): string {
  const sqlite = new Database(db, { readonly: true });
  try {
    return sqlite
      .prepare(
        `SELECT account FROM positions WHERE protocol = ? GROUP BY account
         ORDER BY SUM(status = 'OPEN') > 0 DESC, COUNT(*) DESC, account LIMIT 1`,
      )
      .pluck()
      .get(protocol) as string;
  } finally {
    sqlite.close();
  }
}

function apiKey(db: string): string {
  const args = ['--import', 'tsx', 'src/service/cli.ts', 'create-api-key', '--db', db];
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (result.status !== 0) fail(`create-api-key failed: ${result.stderr}`);
  return result.stdout.trim().split('\n').at(-1)!;
}

// ---- the browser run ----

interface Seen {
  method: string;
  path: string;
  status: number | string;
}

/**
 * Opens the client's explorer and a trader page, records every request to the service, and
 * screenshots both. The client has nowhere to put an API key, and logged out it calls two
 * endpoints the spec gives JWT or API key that `--public-anonymous` does not open (docs/api.md
 * names only the /public/... ones): POST /graphql and the position filter. The run adds the key to
 * those calls alone (KEYED), as a proxy in front of a deployment would.
 */
async function browse(clientUrl: string, serviceUrl: string, key: string, protocol: string, trader: string) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
  const seen: Seen[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.route(
      (url) => url.href.startsWith(serviceUrl) && KEYED.test(url.pathname),
      (route) => route.continue({ headers: { ...route.request().headers(), 'x-api-key': key } }),
    );
    const path = (url: string) => url.slice(serviceUrl.length);
    page.on('response', (r) => {
      if (r.url().startsWith(serviceUrl) && r.request().method() !== 'OPTIONS')
        seen.push({ method: r.request().method(), path: path(r.url()), status: r.status() });
    });
    page.on('requestfailed', (r) => {
      if (r.url().startsWith(serviceUrl))
        seen.push({ method: r.method(), path: path(r.url()), status: r.failure()?.errorText ?? 'failed' });
    });
    await visit(page, `${clientUrl}/${protocol}/explorer`, /\/graphql$/, 'explorer.png');
    await visit(
      page,
      `${clientUrl}/${protocol}/trader/${trader}`,
      /\/statistic\/trader\/pnl\//,
      'trader.png',
    );
  } finally {
    await browser.close();
  }
  return seen;
}

/** Loads a page, waits for its data call (at most 2 minutes) and a few seconds of rendering. */
async function visit(page: Page, url: string, dataCall: RegExp, shot: string): Promise<void> {
  step(`opening ${url}`);
  const data = page
    .waitForResponse((r) => dataCall.test(new URL(r.url()).pathname), { timeout: 120_000 })
    .catch(() => null);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 180_000 });
  if ((await data) === null) step(`  no ${dataCall} call within 2 minutes`);
  await page.waitForTimeout(8_000);
  await page.screenshot({ path: join(ARTIFACTS, shot) });
  step(`  screenshot: ${join(ARTIFACTS, shot)}`);
}

/** The request's path with the trader's address and numbers folded, so repeats group together. */
const shapeOf = (s: Seen) =>
  `${s.method} ${s.path
    .split('?')[0]!
    .replace(/0x[0-9a-fA-F]{40}/g, '{account}')
    .replace(/^\/storage\/image\/.*/, '/storage/image/{name}')}`;

/** Prints the count and the failing calls; false when nothing reached the service or all failed. */
function report(seen: Seen[]): boolean {
  const ok = seen.filter((s) => typeof s.status === 'number' && s.status < 400);
  console.log(`\n${ok.length} of ${seen.length} requests to the service succeeded.`);
  const failing = new Map<string, { count: number; statuses: Set<string> }>();
  for (const s of seen.filter((x) => !ok.includes(x))) {
    const entry = failing.get(shapeOf(s)) ?? { count: 0, statuses: new Set() };
    entry.count += 1;
    entry.statuses.add(String(s.status));
    failing.set(shapeOf(s), entry);
  }
  if (failing.size > 0) console.log('Failing:');
  for (const [shape, { count, statuses }] of failing)
    console.log(`  ${shape}  ${[...statuses].join(', ')}  ×${count}`);
  writeFileSync(join(ARTIFACTS, 'requests.json'), JSON.stringify(seen, null, 2));
  console.log(`Every request: ${join(ARTIFACTS, 'requests.json')}`);
  return ok.length > 0;
}

/**
 * The client built once per commit and service address (`vite build`; minutes). Its Vite 4.0.0 dev
 * server was tried first: on a cold start it bundles dependencies twice at once, fails to write
 * them (ENOENT renaming deps_temp) and answers the page's modules 504, so the page stays blank.
 * The build bakes the service's address in, so the service listens on a fixed port.
 */
function buildClient(dir: string, serviceUrl: string): void {
  const stamp = join(dir, 'build/.copydesk-built-for');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === serviceUrl) {
    step(`the client is built for ${serviceUrl}`);
    return;
  }
  step(`building the client for ${serviceUrl} (vite build; several minutes)`);
  const env = {
    ...process.env,
    VITE_API: serviceUrl,
    NO_COLOR: '1',
    NODE_OPTIONS: '--max-old-space-size=6144',
  };
  const built = spawnSync(
    process.execPath,
    [join(dir, 'node_modules/vite/bin/vite.js'), 'build', '--mode', 'development'],
    {
      cwd: dir,
      env,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    },
  );
  writeFileSync(join(dir, 'build.log'), built.stdout + built.stderr);
  if (built.status !== 0) fail(`the client's build failed; see ${join(dir, 'build.log')}`);
  writeFileSync(stamp, serviceUrl);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
};

/**
 * Serves the build as the client's host does: a file when the path names one, else index.html (its
 * routes live in the browser). `vite preview` of 4.0.0 answers those routes 404.
 */
function serveBuild(dir: string, port: number): Promise<Server> {
  const root = join(dir, 'build');
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent((request.url ?? '/').split('?')[0]!)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    const file = join(root, path);
    const found =
      file.startsWith(root) && existsSync(file) && statSync(file).isFile() ? file : join(root, 'index.html');
    response.writeHead(200, { 'content-type': CONTENT_TYPES[extname(found)] ?? 'application/octet-stream' });
    createReadStream(found).pipe(response);
  });
  return new Promise((resolvePromise) => server.listen(port, '127.0.0.1', () => resolvePromise(server)));
}

async function main(): Promise<void> {
  const opts = options();
  mkdirSync(ARTIFACTS, { recursive: true });
  const client = installClient(opts);
  const db = await prepareData(opts);
  const key = apiKey(db);
  const clientPort = 3000 + Math.floor(Math.random() * 1000);
  const origin = `http://127.0.0.1:${clientPort}`;
  const serviceUrl = `http://127.0.0.1:${opts.servicePort}`;
  buildClient(client.dir, serviceUrl);
  let service: Started | undefined;
  let host: Server | undefined;
  try {
    service = await startUntil(
      process.execPath,
      serviceArgs(db, [
        '--port',
        String(opts.servicePort),
        '--cors-origin',
        origin,
        '--public-anonymous',
        ...CLIENT_NAMESPACE,
      ]),
      process.cwd(),
      process.env,
      LISTENING,
    );
    step(`service: ${service.url} (--cors-origin ${origin} --public-anonymous --graphql-namespace copin)`);
    host = await serveBuild(client.dir, clientPort);
    step(`client ${client.commit.slice(0, 12)}: ${origin}`);
    const seen = await browse(origin, service.url, key, opts.protocol, busiestTrader(db, opts.protocol));
    if (!report(seen)) process.exitCode = 1;
  } finally {
    host?.close();
    await stop(service?.child);
  }
}

main().catch((error: unknown) => fail((error as Error).message));
