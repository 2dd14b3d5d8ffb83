// A child process for tests/integration/wal-checkpointer.test.ts: the service's database with its
// checkpointer told never to checkpoint (so the WAL only grows), committing batches of rows into
// copy_source_orders and printing `committed <n>` after each commit, until it is killed.
import { startWalCheckpointer } from '../../src/node/wal-checkpointer';
import { openServiceDatabase } from '../../src/service/store/database';

const path = process.argv[2];
if (!path) throw new Error('usage: wal-writer-child.ts <db path>');
const db = openServiceDatabase(path);
startWalCheckpointer(db, path, { pages: Number.MAX_SAFE_INTEGER, idleMs: 3_600_000 });
const insert = db.prepare(
  'INSERT INTO copy_source_orders (id, account, protocol, processed_at_ms) VALUES (?, ?, ?, ?)',
);
const batch = db.transaction((from: number) => {
  for (let i = from; i < from + 100; i += 1)
    insert.run(`order-${i}-${'x'.repeat(200)}`, '0xabc', 'NOVA_ARB', i);
});
let n = 0;
const step = () => {
  batch(n);
  n += 100;
  process.stdout.write(`committed ${n}\n`);
  setImmediate(step);
};
step();
