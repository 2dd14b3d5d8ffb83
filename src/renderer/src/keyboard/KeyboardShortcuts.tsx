import type { ReactElement } from 'react';
import { Fragment, useEffect, useRef } from 'react';
import { useModalDialog } from '@renderer/hooks/use-modal-dialog';
import { pages } from '@renderer/pages/registry';
import { runShortcut } from './run-shortcut';
import { IDLE, interpretKey, isTypingTarget, shortcutList, type KeyState } from './shortcut-map';
import { useShortcuts } from './shortcut-store';

const isMac = (): boolean => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');

/** Every shortcut of the terminal, from the one map, with the table keys that go with them. */
export const SHORTCUTS = shortcutList(pages.map((p) => ({ id: p.id, label: p.label })));

const TABLE_KEYS: readonly { keys: readonly string[]; label: string }[] = [
  { keys: ['↑', '↓'], label: 'Move the active row of a focused table' },
  { keys: ['PgUp', 'PgDn', 'Home', 'End'], label: 'Move by a page, to the first or the last row' },
  { keys: ['Enter'], label: 'Open the active row; sort by a focused header' },
  { keys: ['Esc'], label: 'Close a dialog, drawer, the palette or this sheet' },
];

function Keys({ keys, sequence }: { keys: readonly string[]; sequence: boolean }): ReactElement {
  return (
    <span className="shortcut-keys">
      {keys.map((k, i) => (
        <Fragment key={k}>
          {i > 0 ? <span className="muted">{sequence ? ' then ' : ' '}</span> : null}
          <kbd className="kbd">{k === 'Ctrl' && isMac() ? '⌘' : k}</kbd>
        </Fragment>
      ))}
    </span>
  );
}

function ShortcutSheet(): ReactElement {
  const dialog = useModalDialog();
  const setSheet = useShortcuts((s) => s.setSheet);
  useEffect(() => {
    const element = dialog.current;
    const onClose = (): void => setSheet(false);
    element?.addEventListener('close', onClose);
    return () => element?.removeEventListener('close', onClose);
  }, [dialog, setSheet]);
  const rows = [
    ...SHORTCUTS.map((s) => ({ id: s.id, keys: s.keys, label: s.label, sequence: s.keys[0] === 'G' })),
    ...TABLE_KEYS.map((t) => ({ id: t.label, keys: t.keys, label: t.label, sequence: false })),
  ];
  return (
    <dialog
      ref={dialog}
      className="palette shortcut-sheet"
      aria-labelledby="shortcut-sheet-title"
      data-testid="shortcut-sheet"
      onClick={(e) => {
        if (e.target === dialog.current) dialog.current.close();
      }}
    >
      <header className="shortcut-sheet-head">
        <h2 id="shortcut-sheet-title">Keyboard shortcuts</h2>
        <button type="button" className="button button-small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </header>
      <table className="shortcut-table">
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid="shortcut-row">
              <td>
                <Keys keys={r.keys} sequence={r.sequence} />
              </td>
              <td>{r.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="shortcut-sheet-foot">Every shortcut is also in the command palette.</p>
    </dialog>
  );
}

/**
 * The window's single-key shortcuts (`?`, `/`, G then a page key) and the sheet that lists them.
 * Keys typed into a field, pressed with Ctrl, Alt or ⌘, or pressed while a dialog is open are
 * left alone.
 */
export function KeyboardShortcuts(): ReactElement | null {
  const open = useShortcuts((s) => s.sheetOpen);
  const state = useRef<KeyState>(IDLE);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
      if (isTypingTarget(e.target) || document.querySelector('dialog[open]')) {
        state.current = IDLE;
        return;
      }
      const result = interpretKey(e.key, state.current, performance.now());
      state.current = result.state;
      if (!result.action) return;
      e.preventDefault();
      runShortcut(result.action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return open ? <ShortcutSheet /> : null;
}
