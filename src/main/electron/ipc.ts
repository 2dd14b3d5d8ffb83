import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { channelNames, eventNames, type Channel } from '../../shared/ipc/names';
import { fail } from '../../shared/result';
import type { Core } from '../core/core';

/**
 * The one wrapper that registers every channel (after VS Code's validatedIpcMain): it refuses
 * calls from any frame that is not the app's own page, then hands the raw request to the core,
 * which validates it and answers a Result. `onCall` hears each trusted call start and returns
 * what to do when it ends, however it ends (the taskbar's progress bar: taskbar-progress.ts).
 */
export function registerIpc(
  ipcMain: IpcMain,
  core: Core,
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
  onCall: (channel: Channel) => () => void = () => () => undefined,
): void {
  for (const channel of channelNames) {
    ipcMain.handle(channel, async (event, request: unknown) => {
      if (!isTrustedSender(event))
        return fail('FORBIDDEN', 'This call did not come from the Copydesk window.');
      const ended = onCall(channel);
      try {
        return await core.invoke(channel, request);
      } finally {
        ended();
      }
    });
  }
}

/**
 * Forwards every core event to a window for as long as it lives, and replays the latest state
 * events after each page load so a reloaded page does not wait for the next change.
 */
export function forwardEvents(core: Core, contents: WebContents): void {
  const off = core.events.onAny((event, payload) => {
    if (!contents.isDestroyed()) contents.send(event, payload);
  }, eventNames);
  contents.on('did-finish-load', () => {
    for (const event of eventNames) {
      const latest = core.events.latest(event);
      if (latest !== undefined) contents.send(event, latest);
    }
  });
  contents.once('destroyed', off);
}
