// TeX in titles ($x<1$, \(…\), $$…$$, \[…\]) typeset by KaTeX; the text around it stays text.
import "katex/dist/katex.css";
import katex from "katex";

// $$…$$ before $…$; a backslash-escaped dollar (\$) is a dollar sign, not a delimiter.
const MATH = /\$\$((?:\\.|[^$\\])+?)\$\$|(?<!\\)\$((?:\\.|[^$\\])+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]/gs;

/** The pieces of `text`: plain strings, and the TeX between delimiters. */
export function texPieces(text: string): { tex: boolean; value: string }[] {
  const pieces: { tex: boolean; value: string }[] = [];
  let last = 0;
  for (const match of text.matchAll(MATH)) {
    const tex = match[1] ?? match[2] ?? match[3] ?? match[4] ?? "";
    if (match.index > last) pieces.push({ tex: false, value: text.slice(last, match.index) });
    pieces.push({ tex: true, value: tex.trim() });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ tex: false, value: text.slice(last) });
  return pieces.map((piece) => (piece.tex ? piece : { tex: false, value: piece.value.replace(/\\\$/g, "$") }));
}

/** `text` as nodes: TeX typeset inline (HTML for the eye, MathML for screen readers). */
export function withTex(text: string): Node[] {
  return texPieces(text).map((piece) => {
    if (!piece.tex) return document.createTextNode(piece.value);
    const span = document.createElement("span");
    span.className = "tex";
    katex.render(piece.value, span, { throwOnError: false, strict: "ignore", output: "htmlAndMathml" });
    return span;
  });
}
