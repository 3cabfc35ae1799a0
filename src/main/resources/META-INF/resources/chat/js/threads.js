// The thread list: newest first, filtered by the search box on title (threads' metadata.title, else their first
// message), with rename and delete.
import { api } from "./api.js";

export class ThreadList {
  constructor(root, search, { onOpen, onDelete, onRename }) {
    this.root = root;
    this.search = search;
    this.handlers = { onOpen, onDelete, onRename };
    this.threads = [];
    this.selected = null;
    search.addEventListener("input", () => this.draw());
  }

  async refresh() {
    this.threads = await api.searchThreads();
    this.draw();
    return this.threads;
  }

  select(threadId) {
    this.selected = threadId;
    this.draw();
  }

  draw() {
    const q = this.search.value.trim().toLowerCase();
    const shown = this.threads.filter((t) => !q || title(t).toLowerCase().includes(q));
    this.root.replaceChildren(...shown.map((t) => this.item(t)));
    if (!shown.length) {
      const none = document.createElement("li");
      none.className = "none";
      none.textContent = q ? "No chat matches" : "No chats yet";
      this.root.append(none);
    }
  }

  item(t) {
    const li = document.createElement("li");
    li.className = "thread" + (t.thread_id === this.selected ? " selected" : "") + (t.status === "busy" ? " busy" : "");
    li.dataset.threadId = t.thread_id;
    const open = document.createElement("button");
    open.className = "thread-open";
    open.type = "button";
    const name = document.createElement("span");
    name.className = "thread-title";
    name.textContent = title(t);
    const when = document.createElement("span");
    when.className = "thread-when";
    when.textContent = ago(t.updated_at) + (t.metadata?.graph_id ? " · " + t.metadata.graph_id : "");
    open.append(name, when);
    open.onclick = () => this.handlers.onOpen(t);
    const rename = iconButton("✎", "Rename", () => {
      const next = prompt("Rename chat", title(t));
      if (next && next.trim()) this.handlers.onRename(t, next.trim());
    });
    const remove = iconButton("×", "Delete", () => this.handlers.onDelete(t));
    li.append(open, rename, remove);
    return li;
  }
}

function iconButton(symbol, label, onclick) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "icon";
  b.title = label;
  b.setAttribute("aria-label", label);
  b.textContent = symbol;
  b.onclick = (e) => { e.stopPropagation(); onclick(); };
  return b;
}

/** A chat's title: its own, else (a thread made through the API) its first message, cut short. */
export function title(t) {
  if (t.metadata?.title) return t.metadata.title;
  const first = (t.values?.messages || []).find((m) => m.type === "human");
  const text = typeof first?.content === "string" ? first.content
    : (first?.content || []).filter((b) => b.type === "text").map((b) => b.text).join("");
  const line = text.trim().split("\n")[0];
  return line ? (line.length > 48 ? line.slice(0, 47) + "…" : line) : "Untitled chat";
}

function ago(iso) {
  const s = (Date.now() - Date.parse(iso)) / 1000;
  if (!(s >= 0)) return "";
  if (s < 60) return "just now";
  if (s < 3600) return Math.floor(s / 60) + " min ago";
  if (s < 86400) return Math.floor(s / 3600) + " h ago";
  return new Date(iso).toLocaleDateString();
}
