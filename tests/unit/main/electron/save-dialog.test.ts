import { describe, expect, it, vi } from 'vitest';
import { saveDialogPicker } from '../../../../src/main/electron/save-dialog';

// `dialog` is Electron's; the shell passes it in, so a stand-in is all this needs.
describe('the Electron save dialog for exports', () => {
  it('opens in the default folder with the suggested name, attached to the window', async () => {
    const window = { id: 1 };
    const showSaveDialog = vi.fn(async () => ({ canceled: false, filePath: '/home/u/Downloads/trades.csv' }));
    const pick = saveDialogPicker(
      { showSaveDialog } as never,
      () => window as never,
      () => '/home/u/Downloads',
    );
    expect(await pick('trades.csv')).toBe('/home/u/Downloads/trades.csv');
    expect(showSaveDialog).toHaveBeenCalledWith(
      window,
      expect.objectContaining({
        defaultPath: '/home/u/Downloads/trades.csv',
        filters: [{ name: 'CSV', extensions: ['csv'] }],
      }),
    );
  });

  it('answers null when the user cancels, and works without a window', async () => {
    const showSaveDialog = vi.fn(async () => ({ canceled: true, filePath: '' }));
    const pick = saveDialogPicker(
      { showSaveDialog } as never,
      () => null,
      () => '/tmp',
    );
    expect(await pick('../x.csv')).toBeNull();
    expect(showSaveDialog).toHaveBeenCalledWith(expect.objectContaining({ defaultPath: '/tmp/x.csv' }));
  });
});
