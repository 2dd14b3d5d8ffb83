import type { RefObject } from 'react';
import { useEffect, useRef } from 'react';

/**
 * A `<dialog>` shown modally while its component is mounted and closed when it unmounts; for the
 * dialogs and drawers that are mounted only while open. Attach the returned ref to the element.
 */
export function useModalDialog(): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);
  return dialog;
}
