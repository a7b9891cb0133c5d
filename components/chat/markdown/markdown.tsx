"use client";
// Renders the parsed markdown tree as React elements. Text is always a React text node: nothing here sets HTML.
import { Fragment, memo, type ReactNode } from "react";
import { CodeBlock } from "./code-block";
import { type Block, type Inline, parseMarkdown } from "./parse-markdown";

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, index) => {
    const key = index;
    switch (node.type) {
      case "text":
        return <Fragment key={key}>{node.text}</Fragment>;
      case "code":
        return <code key={key}>{node.text}</code>;
      case "strong":
        return <strong key={key}>{renderInline(node.children)}</strong>;
      case "em":
        return <em key={key}>{renderInline(node.children)}</em>;
      case "del":
        return <del key={key}>{renderInline(node.children)}</del>;
      case "break":
        return <br key={key} />;
      case "link": {
        const external = !node.href.startsWith("/") && !node.href.startsWith("#");
        return (
          <a
            key={key}
            href={node.href}
            {...(external ? { target: "_blank", rel: "noopener noreferrer nofollow" } : {})}
          >
            {renderInline(node.children)}
          </a>
        );
      }
      default:
        return null;
    }
  });
}

function renderBlocks(blocks: Block[], tight = false): ReactNode[] {
  return blocks.map((block, index) => {
    const key = index;
    switch (block.type) {
      case "paragraph":
        return tight ? (
          <Fragment key={key}>{renderInline(block.children)}</Fragment>
        ) : (
          <p key={key}>{renderInline(block.children)}</p>
        );
      case "heading": {
        const Tag = `h${block.level}` as const;
        return <Tag key={key}>{renderInline(block.children)}</Tag>;
      }
      case "code":
        return <CodeBlock key={key} code={block.text} language={block.language} />;
      case "quote":
        return <blockquote key={key}>{renderBlocks(block.children)}</blockquote>;
      case "rule":
        return <hr key={key} />;
      case "list": {
        const items = block.items.map((item, itemIndex) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: list items have no identity but their position
          <li key={itemIndex}>{renderBlocks(item, item.length === 1)}</li>
        ));
        return block.ordered ? (
          <ol key={key} start={block.start === 1 ? undefined : block.start}>
            {items}
          </ol>
        ) : (
          <ul key={key}>{items}</ul>
        );
      }
      case "table":
        return (
          <table key={key}>
            <thead>
              <tr>
                {block.header.map((cell, column) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                  <th key={column} style={{ textAlign: block.align[column] ?? undefined }}>
                    {renderInline(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional
                <tr key={rowIndex}>
                  {row.map((cell, column) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                    <td key={column} style={{ textAlign: block.align[column] ?? undefined }}>
                      {renderInline(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        );
      default:
        return null;
    }
  });
}

export const Markdown = memo(function Markdown({
  text,
  className = "",
}: {
  text: string;
  className?: string;
}) {
  return <div className={`markdown ${className}`}>{renderBlocks(parseMarkdown(text))}</div>;
});
