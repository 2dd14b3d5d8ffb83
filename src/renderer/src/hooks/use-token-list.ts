import { useEffect } from 'react';
import type { TokensList } from '@shared/ipc/contract';
import { selectTokensList, useTokens } from '@renderer/stores/tradable-tokens';

/** The tradable tokens, loaded by the first page that needs them; null until `tokens:list` answers. */
export function useTokenList(): TokensList | null {
  const list = useTokens(selectTokensList);
  useEffect(() => {
    const tokens = useTokens.getState();
    // load() ignores a call while another is in flight.
    if (!tokens.list) void tokens.load();
  }, []);
  return list;
}
