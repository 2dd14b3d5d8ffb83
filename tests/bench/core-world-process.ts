// Writes bench:core's 200,000 records in a process of its own: `tsx core-world-process.ts DB
// PROTOCOL WINDOW COUNT NOW_MS`. Writing them allocates a lot; done in the bench's own process, it
// grew that process's young generation to its largest, and V8 then ran a full collection of the
// core's thread every few batches of the download that followed (a small old generation beside a
// large young one: docs/core-cache.md, Benchmark). The terminal's core never starts like that.
import type { Window } from '../../src/shared/api/common';
import { openServiceDatabase } from '../../src/service/store/database';
import { writeOnePopulation } from './core-world';

const [dbPath, protocol, window, count, nowMs] = process.argv.slice(2);
if (!dbPath || !protocol || !window || !count || !nowMs)
  throw new Error('usage: core-world-process.ts DB PROTOCOL WINDOW COUNT NOW_MS');
const db = openServiceDatabase(dbPath);
writeOnePopulation(db, protocol, window as Window, Number(count), Number(nowMs));
db.close();
