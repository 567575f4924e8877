import { useApp, useStdout } from 'ink';
import { useEffect } from 'react';
import { CallTail } from './CallTail.js';
import type { CallSource } from './feed.js';
import type { TailCall } from './types.js';
import { useCallStream, type StreamOptions } from './useCallStream.js';

/** The live tail: the stream from `source` drawn by CallTail; a failed poll ends the app with that error. */
export function TailApp({ source, options }: { source: CallSource<TailCall>; options?: StreamOptions }) {
  const stream = useCallStream(source, options);
  const { exit } = useApp();
  const { stdout } = useStdout();
  useEffect(() => {
    if (stream.error) exit(stream.error);
  }, [stream.error, exit]);
  return <CallTail batch={stream.batch} live={stream.live} printed={stream.printed} width={stdout.columns || 100} />;
}
