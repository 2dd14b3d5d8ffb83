import { create } from 'zustand';
import type { Window } from '@shared/api/common';
import type { ChannelRequest } from '@shared/ipc/contract';
import type { Freshness } from '@shared/ipc/schemas/freshness';
import type { LeaderboardPage, LeaderboardRow } from '@shared/ipc/schemas/leaderboard';
import { requestKey } from '@shared/ipc/request-key';
import type { AppError } from '@shared/result';
import { invoke } from '@renderer/ipc/call';
import { subscribeFresh } from '@renderer/ipc/fresh-answers';
import { parsePresets, upsertPreset, type FilterPreset } from '@renderer/filters/filter-presets';
import { toRanges, type FilterDraft, type RangeFilter } from '@renderer/filters/range-filters';
import { WINDOW_ORDER } from '@renderer/statistics/statistic-fields';
import { readPref, writePref } from './local-prefs';
import { DEFAULT_PAGE, pageFromHash } from './navigation';

/** A leaderboard row with its place in the current order (1 = top). */
export type RankedRow = LeaderboardRow & { rank: number };

export interface LeaderboardSort {
  field: string;
  direction: 'asc' | 'desc';
}

/** The first page is small so it paints at once; the next ones are big so scrolling keeps up. */
const FIRST_PAGE = 100;
const NEXT_PAGE = 500;
/** The most rows the table loads; past it, filters narrow the list. */
export const MAX_ROWS = 10_000;
/** The service's limit of protocols per request. */
export const MAX_PROTOCOLS = 16;
const FILTER_DEBOUNCE_MS = 350;

// What fits a 1440-pixel window without scrolling sideways; the chooser adds the rest.
export const DEFAULT_COLUMNS = [
  'rank',
  'account',
  'protocol',
  'sparkline',
  'pnl',
  'realisedAvgRoi',
  'winRate',
  'realisedMaxDrawdown',
  'realisedProfitLossRatio',
  'totalTrade',
  'totalVolume',
  'avgLeverage',
  'avgDuration',
] as const;

interface Saved {
  protocols: string[] | null;
  window: Window;
  filters: FilterDraft[];
  sort: LeaderboardSort;
  columns: string[];
}

const PREF_VIEW = 'leaderboard.view';
const PREF_PRESETS = 'leaderboard.presets';
const PREF_PROTOCOLS = 'protocols.known';

function loadSaved(): Saved {
  const saved = readPref<Partial<Saved>>(PREF_VIEW, {});
  const window = WINDOW_ORDER.includes(saved.window as Window) ? (saved.window as Window) : 'D30';
  const sort =
    saved.sort &&
    typeof saved.sort.field === 'string' &&
    (saved.sort.direction === 'asc' || saved.sort.direction === 'desc')
      ? saved.sort
      : { field: 'pnl', direction: 'desc' as const };
  return {
    protocols: Array.isArray(saved.protocols) ? saved.protocols.filter((p) => typeof p === 'string') : null,
    window,
    filters: Array.isArray(saved.filters) ? saved.filters.filter((f) => typeof f?.field === 'string') : [],
    sort,
    columns: Array.isArray(saved.columns) ? saved.columns : [...DEFAULT_COLUMNS],
  };
}

interface LeaderboardStore {
  /** Protocols asked for; `null` = all known ones (the default). */
  chosenProtocols: string[] | null;
  /** Every protocol the service lists (from `tokens:list`, remembered between runs). */
  knownProtocols: string[];
  window: Window;
  filters: FilterDraft[];
  sort: LeaderboardSort;
  columns: string[];
  presets: FilterPreset[];

  rows: RankedRow[];
  total: number | null;
  freshness: Freshness | null;
  origin: LeaderboardPage['data']['origin'] | null;
  /** True while a first page is on its way; the rows of the previous query stay shown meanwhile. */
  loading: boolean;
  loadingMore: boolean;
  error: AppError | null;
  /** Counts the first pages received: a new query's rows start a new list (scrolled to the top). */
  resultId: number;

  setKnownProtocols(protocols: string[]): void;
  setProtocols(protocols: string[] | null): void;
  setWindow(window: Window): void;
  setFilters(filters: FilterDraft[]): void;
  setSort(sort: LeaderboardSort): void;
  setColumns(columns: string[]): void;
  savePreset(name: string): void;
  deletePreset(name: string): void;
  applyPreset(preset: FilterPreset): void;
  /** Reads the first page again (after a change, or Retry). */
  reload(): void;
  /** Appends the next page, up to MAX_ROWS. */
  loadMore(): void;
}

/** The protocols a request asks for: the chosen ones, or all known (at most MAX_PROTOCOLS). */
export function protocolsOf(s: Pick<LeaderboardStore, 'chosenProtocols' | 'knownProtocols'>): string[] {
  return (s.chosenProtocols ?? s.knownProtocols).slice(0, MAX_PROTOCOLS);
}

// Request bookkeeping lives outside the state: it never renders.
let generation = 0;
/** Request key → offset of the pages on screen, so that `data:fresh` finds its slice. */
let pageKeys = new Map<string, number>();
let lastRangesJson = '';
let filterTimer: number | undefined;
let listening = false;

const initial = loadSaved();

/** The leaderboard: its view (protocols, window, filters, sort, columns) and the rows loaded. */
export const useLeaderboard = create<LeaderboardStore>()((set, get) => {
  const persist = (): void => {
    const s = get();
    writePref(PREF_VIEW, {
      protocols: s.chosenProtocols,
      window: s.window,
      filters: s.filters,
      sort: s.sort,
      columns: s.columns,
    } satisfies Saved);
  };

  const baseRequest = (): ChannelRequest<'leaderboard:page'> | null => {
    const s = get();
    const protocols = protocolsOf(s);
    if (protocols.length === 0) return null;
    return {
      protocols,
      window: s.window,
      ranges: toRanges(s.filters).ranges as ChannelRequest<'leaderboard:page'>['ranges'],
      sort: s.sort as ChannelRequest<'leaderboard:page'>['sort'],
    };
  };

  /** Puts a page's rows at `offset`, dropping rows that an earlier page already holds. */
  const place = (
    rows: RankedRow[],
    page: LeaderboardRow[],
    offset: number,
    oldLength: number,
  ): RankedRow[] => {
    const before = rows.slice(0, offset);
    const after = rows.slice(offset + oldLength);
    const seen = new Set(before.map((r) => r.id));
    const fresh = page.filter((r) => !seen.has(r.id));
    for (const r of fresh) seen.add(r.id);
    const merged = [...before, ...fresh, ...after.filter((r) => !seen.has(r.id))] as LeaderboardRow[];
    return merged.map((r, i) => ({ ...r, rank: i + 1 }));
  };

  const listen = (): void => {
    if (listening) return;
    listening = true;
    subscribeFresh(
      'leaderboard:page',
      (fresh) => pageKeys.has(fresh),
      ({ key, value }) => {
        const offset = pageKeys.get(key);
        if (offset === undefined) return;
        const answer = value as LeaderboardPage;
        const s = get();
        // The page at `offset` held at most one page size of rows.
        const oldLength = Math.min(
          offset === 0 ? FIRST_PAGE : NEXT_PAGE,
          Math.max(0, s.rows.length - offset),
        );
        set({
          rows: place(s.rows, answer.data.rows, offset, oldLength),
          total: answer.data.total,
          ...(offset === 0 ? { freshness: answer.freshness, origin: answer.data.origin } : {}),
        });
      },
    );
  };

  const fetchPage = async (offset: number, limit: number): Promise<void> => {
    const base = baseRequest();
    if (!base) return;
    const mine = generation;
    const request = { ...base, offset, limit };
    pageKeys.set(requestKey('leaderboard:page', request), offset);
    const result = await invoke('leaderboard:page', request);
    if (mine !== generation) return;
    if (!result.ok) {
      set({ error: result.error, loading: false, loadingMore: false });
      return;
    }
    const { data, freshness } = result.value;
    const s = get();
    set({
      rows:
        offset === 0 ? data.rows.map((r, i) => ({ ...r, rank: i + 1 })) : place(s.rows, data.rows, offset, 0),
      total: data.total,
      error: null,
      loading: false,
      loadingMore: false,
      ...(offset === 0 ? { freshness, origin: data.origin } : {}),
    });
  };

  return {
    chosenProtocols: initial.protocols,
    knownProtocols: readPref<string[]>(PREF_PROTOCOLS, []).filter((p) => typeof p === 'string'),
    window: initial.window,
    filters: initial.filters,
    sort: initial.sort,
    columns: initial.columns,
    presets: parsePresets(readPref<unknown>(PREF_PRESETS, [])),

    rows: [],
    total: null,
    freshness: null,
    origin: null,
    loading: false,
    loadingMore: false,
    error: null,
    resultId: 0,

    setKnownProtocols(protocols) {
      const known = [...protocols].sort();
      if (known.join() === get().knownProtocols.join()) return;
      const before = protocolsOf(get()).join();
      set({ knownProtocols: known });
      writePref(PREF_PROTOCOLS, known);
      // A choice naming protocols the service no longer lists keeps those it still has.
      const chosen = get().chosenProtocols;
      if (chosen) {
        const kept = chosen.filter((p) => known.includes(p));
        set({ chosenProtocols: kept.length > 0 ? kept : null });
      }
      if (protocolsOf(get()).join() !== before) get().reload();
    },
    setProtocols(protocols) {
      const all = protocols !== null && protocols.length === get().knownProtocols.length;
      set({ chosenProtocols: all ? null : protocols });
      persist();
      get().reload();
    },
    setWindow(window) {
      if (window === get().window) return;
      set({ window });
      persist();
      get().reload();
    },
    setFilters(filters) {
      set({ filters });
      persist();
      // Typing in a bound reloads once the typing pauses, and only when the ranges changed.
      window.clearTimeout(filterTimer);
      filterTimer = window.setTimeout(() => {
        if (JSON.stringify(toRanges(get().filters).ranges) !== lastRangesJson) get().reload();
      }, FILTER_DEBOUNCE_MS);
    },
    setSort(sort) {
      set({ sort });
      persist();
      get().reload();
    },
    setColumns(columns) {
      set({ columns });
      persist();
    },
    savePreset(name) {
      const s = get();
      const preset: FilterPreset = {
        name: name.trim().slice(0, 60),
        filters: s.filters.map(({ field, min, max }) => ({ field, min, max })),
        sort: s.sort,
      };
      const presets = upsertPreset(s.presets, preset);
      set({ presets });
      writePref(PREF_PRESETS, presets);
    },
    deletePreset(name) {
      const presets = get().presets.filter((p) => p.name !== name);
      set({ presets });
      writePref(PREF_PRESETS, presets);
    },
    applyPreset(preset) {
      set({
        filters: preset.filters.map((f, i) => ({ ...f, id: `p${Date.now()}-${i}` })),
        ...(preset.sort ? { sort: preset.sort } : {}),
      });
      persist();
      get().reload();
    },
    reload() {
      window.clearTimeout(filterTimer);
      listen();
      generation += 1;
      pageKeys = new Map();
      const ranges: RangeFilter[] = toRanges(get().filters).ranges;
      lastRangesJson = JSON.stringify(ranges);
      if (protocolsOf(get()).length === 0) return;
      // The old rows stay until the new ones arrive (most answers come from the cache at once).
      set({ loading: true, loadingMore: false, error: null });
      void fetchPage(0, FIRST_PAGE);
    },
    loadMore() {
      const s = get();
      if (s.loading || s.loadingMore || s.error || s.total === null) return;
      const cap = Math.min(s.total, MAX_ROWS);
      if (s.rows.length >= cap) return;
      set({ loadingMore: true });
      void fetchPage(s.rows.length, Math.min(NEXT_PAGE, cap - s.rows.length));
    },
  };
});

// A window opening on the leaderboard asks for its first page while React is still starting, not
// after the first render: the protocols asked last time are remembered.
if (typeof window !== 'undefined' && (pageFromHash(window.location.hash) ?? DEFAULT_PAGE) === 'leaderboard') {
  queueMicrotask(() => {
    const s = useLeaderboard.getState();
    if (s.rows.length === 0 && !s.loading && protocolsOf(s).length > 0) s.reload();
  });
}
