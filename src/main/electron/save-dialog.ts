import type { BrowserWindow, Dialog } from 'electron';
import { basename, join } from 'node:path';

/**
 * The Electron shell's `pickSavePath` for exports: the system's save dialog, attached to the
 * terminal's window, opening in `defaultDir` with the suggested name. Null when cancelled.
 */
export function saveDialogPicker(
  dialog: Pick<Dialog, 'showSaveDialog'>,
  window: () => BrowserWindow | null,
  defaultDir: () => string,
): (suggestedName: string) => Promise<string | null> {
  return async (suggestedName) => {
    const options = {
      title: 'Export as CSV',
      defaultPath: join(defaultDir(), basename(suggestedName)),
      filters: [{ name: 'CSV', extensions: ['csv'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'] as (
        'createDirectory' | 'showOverwriteConfirmation'
      )[],
    };
    const parent = window();
    const result = parent
      ? await dialog.showSaveDialog(parent, options)
      : await dialog.showSaveDialog(options);
    return result.canceled || !result.filePath ? null : result.filePath;
  };
}
