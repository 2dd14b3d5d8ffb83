import type { BrowserWindow, Rectangle } from 'electron';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { PRIVATE_FILE_MODE } from '../../node/data-dir';

/** The window's size on a first start, shrunk to the screen when the screen is smaller. */
export const DEFAULT_WINDOW_SIZE = { width: 1440, height: 900 } as const;
/** Below this the pages' tables no longer fit (docs/ui.md). */
export const MIN_WINDOW_SIZE = { width: 1024, height: 640 } as const;
/** Moves and resizes arrive many times a second while dragging; the file is written once they stop. */
export const SAVE_DELAY_MS = 500;

const savedWindowStateSchema = z.object({
  x: z.number().finite(),
  y: z.number().finite(),
  width: z.number().finite().positive(),
  height: z.number().finite().positive(),
  maximized: z.boolean(),
});
/** What `window-state.json` holds: the window's normal (unmaximised) bounds and whether it was maximised. */
export type SavedWindowState = z.infer<typeof savedWindowStateSchema>;

/** Where the window was: a position when it can be shown there, else none (Electron centres it). */
export interface WindowPlacement {
  bounds: { x?: number; y?: number; width: number; height: number };
  maximized: boolean;
}

/** The window state file, beside the rest of the data folder's files (docs/desktop.md). */
export const windowStateFile = (dataDir: string): string => join(dataDir, 'window-state.json');

/** The saved state, or null when there is none or it is damaged (the window then opens at its default). */
export function readWindowState(file: string): SavedWindowState | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = savedWindowStateSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Writes the state through a temporary file, so a crash mid-write leaves the old state whole. */
export function writeWindowState(file: string, state: SavedWindowState): void {
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: PRIVATE_FILE_MODE });
  renameSync(temporary, file);
}

const overlap = (a: Rectangle, b: Rectangle): number =>
  Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));

const clamp = (value: number, low: number, high: number): number => Math.min(Math.max(value, low), high);

/**
 * Where to open the window: the saved bounds moved and shrunk to lie wholly inside the work area
 * of the display they overlap most, so a window saved on a monitor since unplugged, or larger than
 * today's screen, still opens where it can be seen and grabbed. A state that overlaps no display
 * opens centred on `primary`; no state opens at the default size, centred.
 */
export function placeWindow(
  saved: SavedWindowState | null,
  workAreas: readonly Rectangle[],
  primary: Rectangle,
): WindowPlacement {
  if (!saved)
    return {
      bounds: {
        width: Math.min(DEFAULT_WINDOW_SIZE.width, primary.width),
        height: Math.min(DEFAULT_WINDOW_SIZE.height, primary.height),
      },
      maximized: false,
    };
  const rect = {
    x: Math.round(saved.x),
    y: Math.round(saved.y),
    width: Math.round(saved.width),
    height: Math.round(saved.height),
  };
  let best: Rectangle | null = null;
  let bestArea = 0;
  for (const area of workAreas) {
    const shared = overlap(rect, area);
    if (shared > bestArea) [best, bestArea] = [area, shared];
  }
  const area = best ?? primary;
  const width = Math.min(rect.width, area.width);
  const height = Math.min(rect.height, area.height);
  const x = best ? rect.x : area.x + Math.round((area.width - width) / 2);
  const y = best ? rect.y : area.y + Math.round((area.height - height) / 2);
  return {
    bounds: {
      x: clamp(x, area.x, area.x + area.width - width),
      y: clamp(y, area.y, area.y + area.height - height),
      width,
      height,
    },
    maximized: saved.maximized,
  };
}

type TrackedWindow = Pick<BrowserWindow, 'on' | 'getNormalBounds' | 'isMaximized' | 'isDestroyed'>;

/**
 * Saves the window's normal bounds and maximised state when the user stops moving or resizing
 * it, and once more as it closes. A failed write is logged: the window keeps working.
 */
export function trackWindowState(window: TrackedWindow, file: string, delayMs = SAVE_DELAY_MS): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = undefined;
    if (window.isDestroyed()) return;
    try {
      writeWindowState(file, { ...window.getNormalBounds(), maximized: window.isMaximized() });
    } catch (error) {
      console.warn(`Copydesk could not remember the window's place in ${file}:`, error);
    }
  };
  const saveSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(save, delayMs);
  };
  window.on('resize', saveSoon);
  window.on('move', saveSoon);
  window.on('maximize', saveSoon);
  window.on('unmaximize', saveSoon);
  window.on('close', save);
}
