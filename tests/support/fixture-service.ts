import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalService, type LocalService } from '../../src/service/app';
import { defaultConfig } from '../../src/service/config';
import { DEFAULT_GRAPHQL_NAMESPACE, DEFAULT_VENUE, type ServiceProfile } from '../../src/shared/profile';

/**
 * The real local service in this process, over HTTP, with the fixture world and the real clock:
 * what a core test points a "remote" profile at. It can be stopped and started again on the same
 * port with the same database, to take the service away and bring it back.
 */
export class FixtureService {
  service: LocalService | null = null;
  url = '';
  port = 0;
  readonly dir = mkdtempSync(join(tmpdir(), 'copydesk-remote-'));

  constructor(private readonly name = 'Fixture deployment') {}

  async start(): Promise<this> {
    this.service = createLocalService(
      defaultConfig({
        port: this.port,
        dbPath: join(this.dir, 'service.db'),
        seedFixture: true,
        serviceName: this.name,
        rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
        searchBudget: { msPerSecond: 10_000_000, burstMs: 10_000_000 },
      }),
    );
    this.url = await this.service.listen();
    this.port = Number(new URL(this.url).port);
    return this;
  }

  /** Takes the service away; its database stays for `start()`. */
  async stop(): Promise<void> {
    await this.service?.close();
    this.service = null;
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** A remote profile pointing at this service. */
  profile(id: string): ServiceProfile {
    return {
      id,
      name: this.name,
      kind: 'remote',
      baseUrl: this.url,
      serviceName: this.name,
      venue: this.service?.config.venue ?? DEFAULT_VENUE,
      graphqlNamespace: this.service?.config.graphqlNamespace ?? DEFAULT_GRAPHQL_NAMESPACE,
    };
  }
}

/** A core of its own (data folder, keychain items) whose active profile is `remote`. */
export async function startRemoteCore(remote: FixtureService, profileId = 'fixture') {
  const { startTestCore } = await import('./core');
  return startTestCore({
    remoteProfile: remote.profile(profileId),
    // Offline is noticed after the retries; the probe finds the service back within 200 ms.
    tuning: {
      probeIntervalMs: 200,
      client: { retry: { baseDelayMs: 20 } },
      eventStream: { backoff: { baseMs: 100, maxMs: 500 } },
    },
  });
}
