import { create } from 'zustand';
import type { ChannelRequest, ChannelResponse } from '@shared/ipc/contract';
import type { CopyTradeStatus } from '@shared/api/copy-trades';
import { call } from '@renderer/ipc/call';
import { bumpRevision } from './revisions';
import { toast } from './toasts';

type CopyTrade = ChannelResponse<'copyTrades:create'>;
type CopyPosition = ChannelResponse<'copyPositions:close'>;

interface CopyTradingStore {
  /** Ids of copy trades and copy positions with a call in flight. */
  busy: Record<string, 'status' | 'save' | 'close' | 'unlink'>;
  /** True while a new copy trade is being created. */
  creating: boolean;
  create(body: ChannelRequest<'copyTrades:create'>): Promise<CopyTrade | null>;
  update(id: string, changes: ChannelRequest<'copyTrades:update'>['changes']): Promise<CopyTrade | null>;
  setStatus(id: string, status: CopyTradeStatus): Promise<CopyTrade | null>;
  closePosition(id: string): Promise<CopyPosition | null>;
  unlinkPosition(id: string): Promise<CopyPosition | null>;
}

/** Copy-trading actions: every success re-reads the copy views, every failure is toasted by call(). */
export const useCopyTrading = create<CopyTradingStore>()((set, get) => {
  const withBusy = async <T>(
    id: string,
    kind: CopyTradingStore['busy'][string],
    action: () => Promise<T>,
  ): Promise<T | null> => {
    if (get().busy[id]) return null;
    set({ busy: { ...get().busy, [id]: kind } });
    try {
      const value = await action();
      // Positions change the wallet's margin in use; trades change the copy lists.
      bumpRevision('copy', 'wallets');
      return value;
    } catch {
      return null;
    } finally {
      const { [id]: _done, ...rest } = get().busy;
      set({ busy: rest });
    }
  };

  return {
    busy: {},
    creating: false,
    async create(body) {
      if (get().creating) return null;
      set({ creating: true });
      try {
        const trade = await call('copyTrades:create', body);
        bumpRevision('copy');
        toast({ tone: 'success', title: 'Copy trade created', message: `“${trade.title}” is running.` });
        return trade;
      } catch {
        return null;
      } finally {
        set({ creating: false });
      }
    },
    update: (id, changes) =>
      withBusy(id, 'save', async () => {
        const trade = await call('copyTrades:update', { id, changes });
        toast({ tone: 'success', title: 'Copy trade saved', message: `“${trade.title}” was updated.` });
        return trade;
      }),
    setStatus: (id, status) =>
      withBusy(id, 'status', async () => {
        const trade = await call('copyTrades:setStatus', { id, status });
        toast({
          tone: 'info',
          title: status === 'RUNNING' ? 'Copy trade started' : 'Copy trade stopped',
          message:
            status === 'RUNNING'
              ? `“${trade.title}” copies new positions again.`
              : `“${trade.title}” copies nothing new; its open positions stay open.`,
        });
        return trade;
      }),
    closePosition: (id) =>
      withBusy(id, 'close', async () => {
        const position = await call('copyPositions:close', { id });
        toast({
          tone: 'success',
          title: 'Position closed',
          message: `${position.pair} was closed at market.`,
        });
        return position;
      }),
    unlinkPosition: (id) =>
      withBusy(id, 'unlink', async () => {
        const position = await call('copyPositions:unlink', { id });
        toast({
          tone: 'info',
          title: 'Position unlinked',
          message: `${position.pair} no longer follows its trader and was closed at the last mark.`,
        });
        return position;
      }),
  };
});
