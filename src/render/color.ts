import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

/** Colour only on a TTY, never with NO_COLOR; FORCE_COLOR=0 also turns it off. */
export function useColor(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return !['0', 'false'].includes(env.FORCE_COLOR);
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

export function colors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}
