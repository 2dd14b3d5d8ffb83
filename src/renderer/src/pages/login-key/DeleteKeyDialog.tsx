import type { FormEvent, ReactElement } from 'react';
import { useId, useState } from 'react';
import { sameAddress } from '@renderer/format/address';
import { useModalDialog } from '@renderer/hooks/use-modal-dialog';
import { selectWalletPending, useWallet } from '@renderer/stores/wallet';

interface DeleteKeyDialogProps {
  address: string;
  onClose(): void;
}

/**
 * Asks for the address to be typed back before deleting the wallet: the key leaves the keychain
 * and nothing can bring it back. Mounted only while open, so the typed text starts empty.
 */
export function DeleteKeyDialog({ address, onClose }: DeleteKeyDialogProps): ReactElement {
  const dialog = useModalDialog();
  const [typed, setTyped] = useState('');
  const pending = useWallet(selectWalletPending);
  const remove = useWallet((s) => s.remove);
  const inputId = useId();
  const titleId = useId();
  const matches = sameAddress(typed, address);

  const onSubmit = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    if (!matches) return;
    // The address shown is sent, in its checksummed form: the core deletes only if it is still that wallet.
    if (await remove(address)) onClose();
  };

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={titleId}
      // 'close' is dispatched later; StrictMode's remount may have reopened the dialog by then.
      onClose={() => {
        if (!dialog.current?.open) onClose();
      }}
    >
      <form onSubmit={(e) => void onSubmit(e)}>
        <h2 id={titleId} className="dialog-title">
          Delete the login key?
        </h2>
        <p>
          Its private key is removed from the keychain for good. Unless you hold a copy of the key elsewhere,
          its address and anything it holds can no longer be reached.
        </p>
        <p className="dialog-address mono">{address}</p>
        <label htmlFor={inputId} className="field-label">
          Type the address above to confirm
        </label>
        <input
          id={inputId}
          className="input mono"
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          placeholder="0x…"
          data-testid="wallet-delete-confirm-input"
        />
        <div className="dialog-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button-danger"
            disabled={!matches || pending !== null}
            data-testid="wallet-delete-confirm"
          >
            {pending === 'delete' ? 'Deleting…' : 'Delete key'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
