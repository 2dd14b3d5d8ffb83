// Writes bench:core's 200,000 records in a process of its own: `tsx core-world-process.ts DB
// PROTOCOL WINDOW COUNT NOW_MS`. The bench's own process plays the terminal's core during the
// download, so it does only what the core does: writing the records there left it with their
// garbage and a heap grown by them, which a terminal's core never starts with.
import type { Window } from '../../src/shared/api/common';
import { openServiceDatabase } from '../../src/service/store/database';
import { writeOnePopulation } from './core-world';

const [dbPath, protocol, window, count, nowMs] = process.argv.slice(2);
if (!dbPath || !protocol || !window || !count || !nowMs)
  throw new Error('usage: core-world-process.ts DB PROTOCOL WINDOW COUNT NOW_MS');
const db = openServiceDatabase(dbPath);
writeOnePopulation(db, protocol, window as Window, Number(count), Number(nowMs));
db.close();
