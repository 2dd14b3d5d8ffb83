import type { KeyboardEvent, ReactElement } from 'react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { SHORTCUTS } from '@renderer/keyboard/KeyboardShortcuts';
import { runShortcut } from '@renderer/keyboard/run-shortcut';
import { GO_KEYS } from '@renderer/keyboard/shortcut-map';
import { useShortcuts } from '@renderer/keyboard/shortcut-store';
import { pages } from '@renderer/pages/registry';
import { useLeaderboard } from '@renderer/stores/leaderboard';
import { pageIds, useNavigation, type PageId } from '@renderer/stores/navigation';
import { useTokens } from '@renderer/stores/tradable-tokens';
import { useTraderView } from '@renderer/stores/trader';
import { SearchIcon, TraderIcon } from '@renderer/components/icons';
import { paletteItems, parseItemId } from './palette-items';

const isPageId = (id: string): id is PageId => (pageIds as readonly string[]).includes(id);

/** The pages with their go-to keys, then the shortcuts that are commands (`?`, `/`). */
const ENTRIES = [
  ...pages.map((p) => ({
    id: p.id,
    label: p.label,
    purpose: p.purpose,
    shortcut: `G ${GO_KEYS[p.id].toUpperCase()}`,
  })),
  ...SHORTCUTS.filter((s) => s.action.kind === 'sheet' || s.action.kind === 'filter').map((s) => ({
    id: s.id,
    kind: 'command' as const,
    label: s.label,
    purpose: 'Keyboard shortcut',
    shortcut: s.keys.join(' '),
  })),
];

function PaletteDialog({ onClose }: { onClose: () => void }): ReactElement {
  const dialog = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const recent = useTraderView((s) => s.recent);
  const known = useLeaderboard((s) => s.knownProtocols);
  const tokens = useTokens((s) => s.list);
  const go = useNavigation((s) => s.go);
  const openTrader = useNavigation((s) => s.openTrader);
  const protocols = tokens ? tokens.groups.map((g) => g.protocol) : known;

  const items = useMemo(
    () => paletteItems(query, ENTRIES, recent, protocols, 14),
    [query, recent, protocols],
  );
  const current = Math.min(active, Math.max(0, items.length - 1));

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    // A modal <dialog> keeps focus inside and makes the page behind inert.
    if (!d.open) d.showModal();
    const onCancel = (): void => onClose();
    d.addEventListener('close', onCancel);
    return () => d.removeEventListener('close', onCancel);
  }, [onClose]);

  const choose = (id: string | undefined): void => {
    if (!id) return;
    const target = parseItemId(id);
    if (!target) return;
    if ('command' in target) {
      const action = SHORTCUTS.find((s) => s.id === target.command)?.action;
      dialog.current?.close();
      // After the palette has closed and handed focus back, so the filter keeps the focus.
      if (action) window.setTimeout(() => runShortcut(action), 0);
      return;
    }
    if ('page' in target) {
      if (isPageId(target.page)) go(target.page);
    } else {
      openTrader(target);
    }
    dialog.current?.close();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((current + 1) % Math.max(1, items.length));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((current - 1 + items.length) % Math.max(1, items.length));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      choose(items[current]?.id);
    }
  };

  const optionId = (i: number): string => `${listId}-o${i}`;
  return (
    <dialog
      ref={dialog}
      className="palette"
      aria-label="Go to a page or a trader"
      data-testid="palette"
      onClick={(e) => {
        // A click on the backdrop lands on the dialog itself.
        if (e.target === dialog.current) dialog.current.close();
      }}
    >
      <div className="palette-input">
        <SearchIcon />
        <input
          className="input"
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-activedescendant={items.length ? optionId(current) : undefined}
          aria-label="Page name or trader address"
          placeholder="Go to a page, or paste a trader address (0x…)"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          spellCheck={false}
          autoComplete="off"
          autoFocus
          data-testid="palette-input"
        />
        <kbd className="kbd">Esc</kbd>
      </div>
      <ul id={listId} role="listbox" className="palette-list" aria-label="Results">
        {items.length === 0 ? (
          <li className="palette-empty" role="presentation">
            Nothing matches. Type a page name (Leaderboard, Live, Copy…) or a full address.
          </li>
        ) : (
          items.map((item, i) => (
            <li
              key={item.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === current}
              className={`palette-item${i === current ? ' is-active' : ''}`}
              onMouseMove={() => setActive(i)}
              onClick={() => choose(item.id)}
              data-testid="palette-item"
            >
              <span className="palette-kind" aria-hidden="true">
                {item.kind === 'trader' ? <TraderIcon /> : item.kind === 'command' ? '⌨' : '↦'}
              </span>
              <span className="palette-label">{item.label}</span>
              <span className="palette-hint">{item.hint}</span>
              {item.shortcut ? (
                <kbd className="kbd" aria-label={`Shortcut ${item.shortcut}`}>
                  {item.shortcut}
                </kbd>
              ) : null}
            </li>
          ))
        )}
      </ul>
    </dialog>
  );
}

/**
 * Ctrl-K (⌘-K on a Mac) anywhere: jump to a page by name or to a trader by address, or run any
 * keyboard shortcut by its name (keyboard/shortcut-map.ts).
 */
export function CommandPalette(): ReactElement | null {
  const open = useShortcuts((s) => s.paletteOpen);
  const setOpen = useShortcuts((s) => s.setPalette);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setOpen(!useShortcuts.getState().paletteOpen);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setOpen]);
  if (!open) return null;
  return <PaletteDialog onClose={() => setOpen(false)} />;
}
