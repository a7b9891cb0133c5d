"use client";
// Code as text with shiki's colours: plain text until the grammar is loaded (or for a language that is not
// highlighted), then one span per token. The text is the same either way, character for character.
import { type CSSProperties, Fragment } from "react";
import { useHighlightedCode } from "./highlight-code";

export function HighlightedCode({ code, language }: { code: string; language: string }) {
  const lines = useHighlightedCode(code, language);
  // shiki splits lines at \r\n as at \n; such text stays plain so that every character shows as it is.
  if (!lines || code.includes("\r")) return <>{code}</>;
  return (
    <>
      {lines.map((line, lineIndex) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: lines and tokens are positional and never reorder
        <Fragment key={lineIndex}>
          {lineIndex > 0 && "\n"}
          {line.map((token, tokenIndex) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <span key={tokenIndex} className="code-token" style={token.htmlStyle as CSSProperties}>
              {token.content}
            </span>
          ))}
        </Fragment>
      ))}
    </>
  );
}
