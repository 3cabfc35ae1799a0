// The LangGraph REST API the page uses: threads, assistants, runs and cancel (docs/api.md).

/** An error answer of the API: `detail` and `code` from its JSON body. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || body?.message || "HTTP " + status);
    this.status = status;
    this.code = body?.code;
  }
}

async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) throw new ApiError(res.status, json);
  return json;
}

const enc = encodeURIComponent;

export const api = {
  searchThreads: () => call("POST", "/threads/search", { limit: 100, sort_by: "updated_at", sort_order: "desc" }),
  createThread: (metadata) => call("POST", "/threads", { metadata }),
  getThread: (id) => call("GET", "/threads/" + enc(id)),
  renameThread: (id, title) => call("PATCH", "/threads/" + enc(id), { metadata: { title } }),
  deleteThread: (id) => call("DELETE", "/threads/" + enc(id)),
  state: (id) => call("GET", "/threads/" + enc(id) + "/state"),
  runs: (id) => call("GET", "/threads/" + enc(id) + "/runs?limit=10"),
  cancel: (id, runId) => call("POST", "/threads/" + enc(id) + "/runs/" + enc(runId) + "/cancel?action=interrupt"),
  /** The seq of the thread's newest event (the protocol's applied_through_seq, from a cheap command). */
  lastSeq: (id) => call("POST", "/threads/" + enc(id) + "/commands", { id: 0, method: "state.get", params: { namespace: [], keys: ["usage"] } })
    .then((a) => a.meta?.applied_through_seq ?? null),
  assistants: () => call("POST", "/assistants/search", { limit: 100 }),
};
