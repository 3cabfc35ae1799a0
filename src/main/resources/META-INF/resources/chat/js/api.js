// The LangGraph REST API the page uses: threads, assistants, runs and cancel (docs/api.md).

/** An error answer of the API: `detail` and `code` from its JSON body. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || body?.message || "HTTP " + status);
    this.status = status;
    this.code = body?.code;
  }
}

const KEY = "conduit.apiKey";

/**
 * The API key the page sends as x-api-key, when the service asks for one (conduit.auth.mode=api-key): kept in this
 * tab's sessionStorage only, so it is gone when the tab closes. A WebSocket cannot send headers: it gets a
 * single-use ticket instead (docs/auth.md).
 */
export const credentials = {
  key: () => sessionStorage.getItem(KEY) || "",
  set: (key) => (key ? sessionStorage.setItem(KEY, key) : sessionStorage.removeItem(KEY)),
  headers: () => (credentials.key() ? { "x-api-key": credentials.key() } : {}),
  /** A ticket for one WebSocket upgrade (?ticket=), or null when the page has no key. */
  ticket: async () => (credentials.key() ? (await call("POST", "/auth/ws-ticket")).ticket : null),
};

async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }), ...credentials.headers() },
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
  patchMetadata: (id, metadata) => call("PATCH", "/threads/" + enc(id), { metadata }),
  deleteThread: (id) => call("DELETE", "/threads/" + enc(id)),
  state: (id) => call("GET", "/threads/" + enc(id) + "/state"),
  runs: (id) => call("GET", "/threads/" + enc(id) + "/runs?limit=10"),
  cancel: (id, runId) => call("POST", "/threads/" + enc(id) + "/runs/" + enc(runId) + "/cancel?action=interrupt"),
  /** The seq of the thread's newest event (the protocol's applied_through_seq, from a cheap command). */
  lastSeq: (id) => call("POST", "/threads/" + enc(id) + "/commands", { id: 0, method: "state.get", params: { namespace: [], keys: ["usage"] } })
    .then((a) => a.meta?.applied_through_seq ?? null),
  files: (id) => call("GET", "/threads/" + enc(id) + "/files"),
  history: (id, limit) => call("POST", "/threads/" + enc(id) + "/history", { limit }),
  assistants: () => call("POST", "/assistants/search", { limit: 100 }),
};
