// Fetches the image behind a link in a message, safely (docs/features.md#image-links). The URL is a user's
// choice and the server makes the request, so: http(s) only; the host name is resolved first and every address it
// resolves to is checked (address-policy.ts), and the connection goes to the address that was checked, pinned
// through the agent's `lookup`, so a second DNS answer cannot swap in another; redirects are followed by hand, at
// most 3, each hop checked the same way; the whole fetch has a time limit and the body a size limit; and what comes
// back must be a whole image by its bytes. A refusal says why, for the notice the message carries.
import "server-only";
import { lookup as dnsLookup } from "node:dns/promises";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { env } from "@/lib/config/env";
import { AppError } from "@/lib/domain/errors";
import { addressProblem } from "./address-policy";
import { type SniffedImage, sniffImage } from "./sniff";

export const MAX_REDIRECTS = 3;

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Name resolution, injectable so tests can make a name resolve to any address. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

export type ImageLinkResult =
  | { ok: true; url: string; finalUrl: string; bytes: Uint8Array; image: SniffedImage }
  | { ok: false; url: string; reason: string };

export interface FetchImageLinkOptions {
  resolver?: Resolver;
  timeoutMs?: number;
  maxBytes?: number;
  /** Host names that may resolve to private addresses (tests only; from MEDIA_FETCH_ALLOW_HOSTS by default). */
  allowHosts?: readonly string[];
}

class Refusal extends Error {}

/** The image at `url`, or why it was not fetched ("it points to a private address"). Never throws. */
export async function fetchImageLink(
  url: string,
  options: FetchImageLinkOptions = {},
): Promise<ImageLinkResult> {
  const config = env();
  const settings = {
    resolver: options.resolver ?? systemResolver,
    maxBytes: options.maxBytes ?? config.MEDIA_MAX_IMAGE_BYTES,
    allowHosts: new Set(
      (options.allowHosts ?? config.MEDIA_FETCH_ALLOW_HOSTS).map((host) => host.toLowerCase()),
    ),
  };
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? config.MEDIA_FETCH_TIMEOUT_MS);
  try {
    let current = url;
    for (let hop = 0; ; hop += 1) {
      const target = parseTarget(current);
      const pinned = await pinAddress(target, settings.resolver, settings.allowHosts);
      const response = await request(target, pinned, controller.signal);
      const location = response.headers.location;
      if (response.statusCode !== undefined && [301, 302, 303, 307, 308].includes(response.statusCode)) {
        response.resume();
        if (!location) throw new Refusal(`it redirected (${response.statusCode}) without saying where to`);
        if (hop >= MAX_REDIRECTS) throw new Refusal(`it redirected more than ${MAX_REDIRECTS} times`);
        current = new URL(location, target).toString();
        continue;
      }
      if (response.statusCode !== 200) {
        response.resume();
        throw new Refusal(`the server answered ${response.statusCode}`);
      }
      const bytes = await readCapped(response, settings.maxBytes);
      const image = sniffFetched(bytes);
      return { ok: true, url, finalUrl: current, bytes, image };
    }
  } catch (error) {
    const reason =
      error instanceof Refusal
        ? error.message
        : controller.signal.aborted
          ? "it took too long to answer"
          : "it could not be reached";
    return { ok: false, url, reason };
  } finally {
    clearTimeout(timer);
  }
}

function parseTarget(text: string): URL {
  let target: URL;
  try {
    target = new URL(text);
  } catch {
    throw new Refusal("it is not a valid link");
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") {
    throw new Refusal("only http and https links are fetched");
  }
  if (target.username || target.password)
    throw new Refusal("links with a user name or password are not fetched");
  return target;
}

/** The one address the connection will use: every address the name resolves to must be public. */
async function pinAddress(
  target: URL,
  resolver: Resolver,
  allowHosts: ReadonlySet<string>,
): Promise<ResolvedAddress> {
  const hostname = target.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const literal = isIP(hostname);
  const addresses: ResolvedAddress[] =
    literal === 0
      ? await resolver(hostname).catch(() => {
          throw new Refusal(`its host name ${hostname} does not resolve`);
        })
      : [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  if (addresses.length === 0) throw new Refusal(`its host name ${hostname} does not resolve`);
  if (!allowHosts.has(hostname)) {
    for (const { address } of addresses) {
      const problem = addressProblem(address);
      if (problem) throw new Refusal(`it points to ${problem}`);
    }
  }
  // IPv4 first: many hosts resolve both families but route only one, and every address was checked above.
  return (addresses.find((entry) => entry.family === 4) ?? addresses[0]) as ResolvedAddress;
}

/** One GET to the pinned address, the name kept for the Host header and TLS (SNI and certificate check). */
function request(target: URL, pinned: ResolvedAddress, signal: AbortSignal): Promise<IncomingMessage> {
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const outgoing = client.request(
      target,
      {
        method: "GET",
        lookup,
        // No connection reuse: a pooled socket could have been opened to another address.
        agent: false,
        signal,
        headers: { accept: "image/*", "user-agent": "Glassbox image-link fetcher" },
      },
      resolve,
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

async function readCapped(response: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw new Refusal(`it is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the image limit`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      response.destroy();
      throw new Refusal(`it is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the image limit`);
    }
    chunks.push(chunk as Buffer);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

function sniffFetched(bytes: Uint8Array): SniffedImage {
  let image: SniffedImage | null;
  try {
    image = sniffImage(bytes);
  } catch (error) {
    throw new Refusal(error instanceof AppError ? "it is not a whole image" : "its bytes cannot be read");
  }
  if (!image) throw new Refusal("it is not a JPEG, PNG, GIF or WebP image");
  return image;
}
