import { useNavigation } from '@renderer/stores/navigation';
import { toast } from '@renderer/stores/toasts';
import { focusPageFilter } from './focus-filter';
import type { ShortcutAction } from './shortcut-map';
import { useShortcuts } from './shortcut-store';

/** Does what a shortcut says, whether pressed or chosen in the palette. */
export function runShortcut(action: ShortcutAction): void {
  switch (action.kind) {
    case 'sheet':
      useShortcuts.getState().setSheet(true);
      return;
    case 'palette':
      useShortcuts.getState().setPalette(true);
      return;
    case 'go':
      useNavigation.getState().go(action.page);
      return;
    case 'filter':
      if (!focusPageFilter())
        toast({ tone: 'info', title: 'No filter here', message: 'This page has no filter or search.' });
      return;
  }
}
