// The OpenAPI document's descriptions are Markdown (backticks, links); /docs/api draws them as HTML on the server
// with marked, so no Markdown reaches the browser raw and no renderer ships to it. The text is this repository's
// own (src/api-docs/), never a user's, so it is rendered as written.
import { marked } from "marked";

const codeStyle =
  "[&_code]:rounded [&_code]:bg-gray-100 [&_code]:px-1 [&_code]:font-mono [&_code]:text-[0.9em] [&_a]:text-indigo-700 [&_a]:underline";

/** One paragraph's worth of inline Markdown, in a span (or the element named). */
export function InlineMarkdown({
  text,
  as: Tag = "span",
  className = "",
}: {
  text: string;
  as?: "span" | "p";
  className?: string;
}) {
  // Plain text stays a text node: the reference is long, and most descriptions hold no Markdown at all.
  if (!/[`*_[\]<>&\\]/.test(text)) return Tag === "p" ? <p className={className}>{text}</p> : <>{text}</>;
  return (
    <Tag
      className={`${codeStyle} ${className}`}
      dangerouslySetInnerHTML={{ __html: marked.parseInline(text, { async: false }) }}
    />
  );
}
