// The fake Anthropic's prompt cache. The real one caches the request's prefix (tools, then system, then messages,
// block by block) up to each block marked `cache_control`, and a later request whose prefix up to one of its own
// breakpoints, or up to any of the 20 blocks before one, matches a cached prefix reads it from the cache. Tokens
// written are those from the end of what was read up to the last breakpoint. Here a token is 4 bytes of the
// block's JSON (the same rough rate as the fake's other counts), and there is no minimum cacheable length and no
// expiry, so short test conversations cache too.
import { createHash } from "node:crypto";
import { asArray, asRecord } from "./json-fields";

/** How far before a breakpoint the real cache looks for an earlier cached prefix. */
const LOOKBACK_BLOCKS = 20;

interface PrefixBlock {
  /** The block without its cache_control, with where it sits (tools, system, which message and role). */
  key: string;
  breakpoint: boolean;
}

/** Tools, system and message blocks in the order the cache reads them. */
function prefixBlocks(body: unknown): PrefixBlock[] {
  const request = asRecord(body) ?? {};
  const blocks: PrefixBlock[] = [];
  const add = (where: string, block: unknown) => {
    const record = asRecord(block);
    const { cache_control: cacheControl, ...rest } = record ?? { text: block };
    blocks.push({ key: JSON.stringify([where, rest]), breakpoint: cacheControl !== undefined });
  };
  for (const tool of asArray(request.tools)) add("tool", tool);
  if (typeof request.system === "string") add("system", { type: "text", text: request.system });
  else for (const block of asArray(request.system)) add("system", block);
  for (const [index, entry] of asArray(request.messages).entries()) {
    const message = asRecord(entry);
    const where = `message ${index} ${String(message?.role)}`;
    if (typeof message?.content === "string") add(where, { type: "text", text: message.content });
    else for (const block of asArray(message?.content)) add(where, block);
  }
  return blocks;
}

export interface CacheUsage {
  cachedInputTokens: number;
  cacheWriteTokens: number;
}

/** Remembers the prefixes written at breakpoints, by hash; one per fake server. */
export class PromptCache {
  private readonly written = new Set<string>();

  clear(): void {
    this.written.clear();
  }

  /** What a request reads from the cache and writes to it; the prefixes at its breakpoints are then cached. */
  use(body: unknown): CacheUsage {
    const blocks = prefixBlocks(body);
    const hashes: string[] = [];
    const tokensThrough: number[] = [];
    let hash = "";
    let bytes = 0;
    for (const block of blocks) {
      hash = createHash("sha256").update(hash).update(block.key).digest("hex");
      bytes += Buffer.byteLength(block.key);
      hashes.push(hash);
      tokensThrough.push(Math.ceil(bytes / 4));
    }
    const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []));
    if (breakpoints.length === 0) return { cachedInputTokens: 0, cacheWriteTokens: 0 };

    let readThrough = -1;
    for (const breakpoint of breakpoints) {
      for (let at = breakpoint; at >= Math.max(0, breakpoint - LOOKBACK_BLOCKS); at -= 1) {
        if (this.written.has(hashes[at] ?? "")) {
          readThrough = Math.max(readThrough, at);
          break;
        }
      }
    }
    const last = breakpoints.at(-1) ?? -1;
    const cachedInputTokens = readThrough >= 0 ? (tokensThrough[readThrough] ?? 0) : 0;
    const cacheWriteTokens = last > readThrough ? (tokensThrough[last] ?? 0) - cachedInputTokens : 0;
    for (const breakpoint of breakpoints) this.written.add(hashes[breakpoint] ?? "");
    return { cachedInputTokens, cacheWriteTokens };
  }
}
