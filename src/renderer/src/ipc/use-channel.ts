import { useCallback, useEffect, useState } from 'react';
import type { Channel } from '@shared/ipc/names';
import type { ChannelRequest, ChannelResponse } from '@shared/ipc/contract';
import type { Freshness } from '@shared/ipc/schemas/freshness';
import { requestKey } from '@shared/ipc/request-key';
import type { AppError } from '@shared/result';
import { invoke } from './call';
import { subscribeFresh } from './fresh-answers';

/** The read channels: those whose answer is `{data, freshness}`. */
type DataOf<C extends Channel> =
  ChannelResponse<C> extends { data: infer D; freshness: Freshness } ? D : never;
export type ReadChannel = {
  [C in Channel]: ChannelResponse<C> extends { freshness: Freshness } ? C : never;
}[Channel];

export interface ChannelState<C extends ReadChannel> {
  data: DataOf<C> | null;
  freshness: Freshness | null;
  /** Why the last read failed; the previous data, if any, stays shown. */
  error: AppError | null;
  loading: boolean;
  reload(): void;
}

/**
 * Reads a cache-first channel and keeps the answer current: the core answers from its cache at
 * once, then pushes the refreshed answer as `data:fresh` under the same request key, which lands
 * here. Pass `request = null` to read nothing yet (e.g. no trader chosen). Failures are shown by
 * the page, not toasted: a read that fails in the background must not spam the user.
 */
export function useChannel<C extends ReadChannel>(
  channel: C,
  request: ChannelRequest<C> | null,
): ChannelState<C> {
  const key = request === null ? null : requestKey(channel, request);
  const [generation, setGeneration] = useState(0);
  // Which request (and reload) the state answers: loading is "the answer is for another one".
  const asked = key === null ? null : `${generation} ${key}`;
  const [state, setState] = useState<
    Omit<ChannelState<C>, 'reload' | 'loading'> & { answered: string | null }
  >({
    data: null,
    freshness: null,
    error: null,
    answered: null,
  });

  useEffect(() => {
    if (asked === null || request === null) return;
    let live = true;
    void invoke(channel, request).then((result) => {
      if (!live) return;
      if (result.ok) {
        const answer = result.value as unknown as { data: DataOf<C>; freshness: Freshness };
        setState({ data: answer.data, freshness: answer.freshness, error: null, answered: asked });
      } else {
        setState((s) => ({ ...s, error: result.error, answered: asked }));
      }
    });
    // Only the answer to this exact request is taken.
    const off = subscribeFresh(
      channel,
      (fresh) => fresh === key,
      ({ value }) => {
        if (!live) return;
        const answer = value as { data: DataOf<C>; freshness: Freshness };
        setState({ data: answer.data, freshness: answer.freshness, error: null, answered: asked });
      },
    );
    return () => {
      live = false;
      off();
    };
    // `asked` holds the request's value: a new object with equal fields must not read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [channel, asked]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const { answered, ...shown } = state;
  return { ...shown, loading: asked !== null && answered !== asked, reload };
}
