import { create } from 'zustand';
import type { ChannelRequest } from '@shared/ipc/contract';
import type { WithdrawalRecord, WithdrawPreview } from '@shared/ipc/schemas/wallets';
import type { AppError } from '@shared/result';
import { call, failureOf } from '@renderer/ipc/call';
import { formatUsd } from '@renderer/format/number';
import { bumpRevision } from './revisions';
import { toast } from './toasts';

interface WithdrawStore {
  /** The fee breakdown of the amount typed last, and the request it answers. */
  preview: WithdrawPreview | null;
  previewFor: string | null;
  previewError: AppError | null;
  previewing: boolean;
  submitting: boolean;
  /** The last withdrawal made in this window, shown as its receipt. */
  last: WithdrawalRecord | null;
  loadPreview(request: ChannelRequest<'withdraw:preview'>): Promise<void>;
  clearPreview(): void;
  submit(request: ChannelRequest<'withdraw:submit'>): Promise<WithdrawalRecord | null>;
  dismissReceipt(): void;
}

/** Withdrawals from the embedded wallet; the preview is read by the form itself as the amount changes. */
export const useWithdraw = create<WithdrawStore>()((set, get) => ({
  preview: null,
  previewFor: null,
  previewError: null,
  previewing: false,
  submitting: false,
  last: null,
  async loadPreview(request) {
    const key = previewKey(request);
    set({ previewing: true, previewFor: key });
    try {
      // The form shows why a preview failed beside the amount; a toast per keystroke would be noise.
      const preview = await call('withdraw:preview', request, { quiet: true });
      // An older answer arriving after a newer request is dropped.
      if (get().previewFor === key) set({ preview, previewError: null });
    } catch (error) {
      if (get().previewFor === key) set({ preview: null, previewError: failureOf(error) });
    } finally {
      if (get().previewFor === key) set({ previewing: false });
    }
  },
  clearPreview: () => set({ preview: null, previewFor: null, previewError: null, previewing: false }),
  async submit(request) {
    if (get().submitting) return null;
    set({ submitting: true });
    try {
      const record = await call('withdraw:submit', request);
      set({ last: record });
      bumpRevision('wallets');
      toast({
        tone: 'success',
        title:
          record.status === 'SUCCESSFUL' ? 'Withdrawal sent' : `Withdrawal ${record.status.toLowerCase()}`,
        message: `${formatUsd(record.data.receiveAmount)} to ${record.data.destinationAddress.slice(0, 10)}….`,
      });
      return record;
    } catch {
      return null;
    } finally {
      set({ submitting: false });
    }
  },
  dismissReceipt: () => set({ last: null }),
}));

/** Which amount from which wallet a preview is for. */
export const previewKey = (request: ChannelRequest<'withdraw:preview'>): string =>
  `${request.sourceAddress.toLowerCase()}:${request.amount}`;
