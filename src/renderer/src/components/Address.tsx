import type { ReactElement } from 'react';
import { shortAddress } from '@renderer/format/address';
import { CopyButton } from './CopyButton';

interface AddressProps {
  address: string;
  /** Show all 42 characters instead of `0x1234…abcd`. */
  full?: boolean;
  /** Put on the element whose text is the address (full or short, as shown). */
  testId?: string;
  className?: string;
}

/** An address in the monospace face with a copy button; the short form carries the full one as a tooltip. */
export function Address({ address, full = false, testId, className }: AddressProps): ReactElement {
  return (
    <span className={`address${full ? ' address-full' : ''}${className ? ` ${className}` : ''}`}>
      <span className="mono" title={full ? undefined : address} data-testid={testId}>
        {full ? address : shortAddress(address)}
      </span>
      <CopyButton text={address} label={`Copy address ${address}`} />
    </span>
  );
}
