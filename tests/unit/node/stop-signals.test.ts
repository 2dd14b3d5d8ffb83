import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onStopSignal, STOP_SIGNALS } from '../../../src/node/stop-signals';

describe('onStopSignal', () => {
  it('runs the stop once, on the first of SIGINT, SIGTERM and SIGHUP, whatever comes after', () => {
    expect([...STOP_SIGNALS]).toEqual(['SIGINT', 'SIGTERM', 'SIGHUP']);
    for (const first of STOP_SIGNALS) {
      const target = new EventEmitter();
      let stops = 0;
      onStopSignal(() => (stops += 1), target as unknown as NodeJS.Process);
      expect(stops).toBe(0);
      target.emit(first);
      expect(stops).toBe(1);
      // npm start's launcher passes a Ctrl+C on while the terminal's own Ctrl+C reaches the same
      // process: the second is the same request, and the stop under way is not run twice.
      for (const again of STOP_SIGNALS) target.emit(again);
      expect(stops).toBe(1);
    }
  });
});
