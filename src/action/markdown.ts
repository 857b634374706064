/** GitHub refuses comment and issue bodies over 65,536 characters; Gitea and Forgejo accept more. */
export const BODY_LIMIT = 65_536;

/** Plans longer than this many lines are folded (closed `<details>`) in comments and issues. */
export const FOLD_LINES = 40;

/**
 * Cuts markdown to at most `max` characters at a line boundary, closing the code fence and the
 * `<details>` blocks that the cut leaves open, and saying how much was cut and where the rest is.
 */
/** An inline code span: a run of backticks, what it holds, and a run of as many (CommonMark). */
const CODE_SPAN = /(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;

export function cutMarkdown(md: string, max: number, whereIsTheRest: string): string {
  if (md.length <= max) return md;
  const lines = md.split('\n');
  const note = (cutChars: number, cutLines: number) =>
    `\n> **The plan was cut here:** ${cutChars.toLocaleString('en-US')} more characters (${cutLines} lines) did not fit in ${max.toLocaleString('en-US')} characters. ${whereIsTheRest}\n`;
  // Room for the closing fence, the closing tags and the note.
  const reserve = note(md.length, lines.length).length + 200;
  const kept: string[] = [];
  let size = 0;
  // The fence that is open, as written: the plan's fence is longer than any run of backticks inside it
  // (src/render/inert.ts), and only a fence at least as long closes it.
  let fence = '';
  let openDetails = 0;
  for (const line of lines) {
    if (size + line.length + 1 > max - reserve) break;
    kept.push(line);
    size += line.length + 1;
    const f = /^(`{3,})/.exec(line)?.[1];
    if (f && !fence) fence = f;
    else if (f && f.length >= fence.length && line.trim() === f) fence = '';
    // Inside the fence, or inside a code span of a line (a name in the list of deletions), a "<details" is a name's
    // text, not a tag: counted, it left the comment's one <details> unclosed after a cut.
    else if (!fence) {
      const tags = line.replace(CODE_SPAN, '');
      openDetails += (tags.match(/<details/g) ?? []).length - (tags.match(/<\/details>/g) ?? []).length;
    }
  }
  const tail: string[] = [];
  if (fence) tail.push(fence);
  for (let i = 0; i < openDetails; i++) tail.push('', '</details>');
  return [...kept, ...tail].join('\n') + note(md.length - size, lines.length - kept.length);
}

/** Long plans start folded; short ones stay open. */
export function foldIfLong(md: string): string {
  return md.split('\n').length > FOLD_LINES ? md.replace(/<details open>/g, '<details>') : md;
}

/** Nothing in a value may close our HTML comment marker early. */
export function markerComment(text: string): string {
  return `<!-- ${text.replace(/--/g, '- -')} -->`;
}
