// Keeps every provider request the fake servers received, in arrival order.
import type { Protocol, RecordedRequest } from "./types";

export class RequestRecorder {
  /** Live array: cleared in place so references handed out stay current. */
  readonly requests: RecordedRequest[] = [];
  private nextId = 1;

  record(request: Omit<RecordedRequest, "id">): RecordedRequest {
    const recorded = { id: this.nextId++, ...request };
    this.requests.push(recorded);
    return recorded;
  }

  list(protocol?: Protocol | "unknown"): RecordedRequest[] {
    return protocol === undefined
      ? [...this.requests]
      : this.requests.filter((request) => request.protocol === protocol);
  }

  clear(): number {
    const count = this.requests.length;
    this.requests.length = 0;
    return count;
  }
}
